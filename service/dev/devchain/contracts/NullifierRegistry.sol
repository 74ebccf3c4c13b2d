// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title NullifierRegistry
/// @notice The set of spent nullifiers. Anyone can read it; a base of the vault, which spends
///         them (_spend) and whose address it is.
abstract contract NullifierRegistry {
    mapping(bytes32 => bool) internal spent;

    event NullifierSpent(bytes32 indexed nullifier);

    error NullifierAlreadySpent(bytes32 nullifier);

    function isSpent(bytes32 nullifier) external view returns (bool) {
        return spent[nullifier];
    }

    /// @dev Marks nullifier spent; refuses one spent already.
    function _spend(bytes32 nullifier) internal {
        if (spent[nullifier]) revert NullifierAlreadySpent(nullifier);
        spent[nullifier] = true;
        emit NullifierSpent(nullifier);
    }
}
