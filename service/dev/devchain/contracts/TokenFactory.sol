// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {WrappedToken} from "./WrappedToken.sol";

/// @title TokenFactory
/// @notice Deploys the wrapped tokens the registry lists. The caller becomes the token's minter.
contract TokenFactory {
    address[] public tokens;

    event TokenCreated(address indexed token, string name, string symbol, uint8 decimals, address indexed minter);

    function createToken(string calldata name, string calldata symbol, uint8 decimals) external returns (address token) {
        token = address(new WrappedToken(name, symbol, decimals, msg.sender));
        tokens.push(token);
        emit TokenCreated(token, name, symbol, decimals, msg.sender);
    }

    function tokenCount() external view returns (uint256) {
        return tokens.length;
    }
}
