// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IVaultCommit {
    function commit(address token, uint256 amount, bytes32 commitment) external returns (uint32);
}

/// @title ReentrantToken
/// @notice A hostile token for tests: once armed, its next transferFrom calls back into the
///         vault's commit before moving anything, and keeps the selector of the error that
///         call ended with (zero if it went through). A vault whose commit can be re-entered
///         from a token would count one transfer's tokens for two deposits.
contract ReentrantToken {
    mapping(address => uint256) public balanceOf;
    address public target;
    bytes32 public reentryCommitment;
    bytes4 public reentryError;
    bool public reentered;

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    /// @notice The next transferFrom commits 1 unit under commitment to vault, from here.
    function arm(address vault, bytes32 commitment) external {
        target = vault;
        reentryCommitment = commitment;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        address vault = target;
        if (vault != address(0)) {
            target = address(0);
            reentered = true;
            try IVaultCommit(vault).commit(address(this), 1, reentryCommitment) {}
            catch (bytes memory reason) {
                reentryError = bytes4(reason);
            }
        }
        _move(from, to, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
    }
}
