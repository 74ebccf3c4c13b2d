// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title LoadEmitter
/// @notice For measuring an indexer on a chain with many events: emits the commitment tree's
/// CommitmentInserted event (same signature) many times per transaction. It inserts nothing and
/// is never part of a vault; benchmarks point an indexer's COMMITMENT_TREE_ADDRESS at it.
contract LoadEmitter {
    event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root);

    /// @notice The leaf index the next event carries.
    uint32 public next;

    /// @notice Emits n events with consecutive leaf indexes.
    function emitMany(uint32 n) external {
        uint32 i = next;
        for (uint32 k = 0; k < n; k++) {
            emit CommitmentInserted(keccak256(abi.encode(i)), i, bytes32(uint256(i)));
            i++;
        }
        next = i;
    }
}
