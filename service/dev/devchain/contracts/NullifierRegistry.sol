// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title NullifierRegistry
/// @notice The set of spent nullifiers. Anyone can read it; only the vault marks a nullifier spent.
contract NullifierRegistry {
    address public immutable vault;
    mapping(bytes32 => bool) internal spent;

    event NullifierSpent(bytes32 indexed nullifier);

    error NotVault(address caller);
    /// @dev Named as the vault's own error, so the vault's callers decode it from the vault's ABI.
    error NullifierAlreadySpent(bytes32 nullifier);

    constructor(address vault_) {
        vault = vault_;
    }

    function isSpent(bytes32 nullifier) external view returns (bool) {
        return spent[nullifier];
    }

    function markSpent(bytes32 nullifier) external {
        if (msg.sender != vault) revert NotVault(msg.sender);
        if (spent[nullifier]) revert NullifierAlreadySpent(nullifier);
        spent[nullifier] = true;
        emit NullifierSpent(nullifier);
    }
}
