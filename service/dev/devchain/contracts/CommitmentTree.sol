// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {PoseidonT3} from "poseidon-solidity/PoseidonT3.sol";

/// @title CommitmentTree
/// @notice An append-only Merkle tree of depth 20 over circomlib's Poseidon, with the last 32
///         roots kept so proofs made against a recent root stay valid while new leaves arrive.
///         Empty leaves are 0; an empty subtree of height i+1 hashes two of height i.
///         Only the owner (the vault) inserts.
contract CommitmentTree {
    uint256 internal constant R = 21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint32 public constant DEPTH = 20;
    uint32 public constant ROOT_HISTORY_SIZE = 32;

    address public immutable owner;
    uint256[DEPTH] internal zeros;
    uint256[DEPTH] internal filledSubtrees;
    bytes32[ROOT_HISTORY_SIZE] internal roots;
    uint32 public currentRootIndex;
    uint32 public nextIndex;

    event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root);

    error NotOwner(address caller);
    error TreeFull();
    error LeafNotInField(bytes32 leaf);

    constructor(address owner_) {
        owner = owner_;
        uint256 zero = 0;
        for (uint256 i = 0; i < DEPTH; i++) {
            zeros[i] = zero;
            filledSubtrees[i] = zero;
            zero = PoseidonT3.hash([zero, zero]);
        }
        roots[0] = bytes32(zero);
    }

    /// @notice Appends a leaf; returns its index and the new root.
    function insert(bytes32 leaf) external returns (uint32 index, bytes32 root) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (uint256(leaf) >= R) revert LeafNotInField(leaf);
        index = nextIndex;
        if (index == uint32(1) << DEPTH) revert TreeFull();

        uint256 node = uint256(leaf);
        uint32 i = index;
        for (uint256 level = 0; level < DEPTH; level++) {
            if (i & 1 == 0) {
                filledSubtrees[level] = node;
                node = PoseidonT3.hash([node, zeros[level]]);
            } else {
                node = PoseidonT3.hash([filledSubtrees[level], node]);
            }
            i >>= 1;
        }
        root = bytes32(node);
        uint32 next = (currentRootIndex + 1) % ROOT_HISTORY_SIZE;
        currentRootIndex = next;
        roots[next] = root;
        nextIndex = index + 1;
        emit CommitmentInserted(leaf, index, root);
    }

    /// @notice True for the current root and the 31 before it. Searches from the newest root
    ///         back, so a proof made against a fresh root costs one or two reads.
    /// @notice How many inserts ago root was the current root (0: it is the current one), and
    /// whether it is among the last ROOT_HISTORY_SIZE roots at all. A relayer uses the age to
    /// tell whether a reveal proved against root can still be mined after its own inserts ahead.
    function rootAge(bytes32 root) external view returns (bool known, uint32 age) {
        if (root == 0) return (false, 0);
        uint32 i = currentRootIndex;
        for (uint32 n = 0; n < ROOT_HISTORY_SIZE; n++) {
            if (roots[i] == root) return (true, n);
            i = i == 0 ? ROOT_HISTORY_SIZE - 1 : i - 1;
        }
        return (false, 0);
    }

    function isKnownRoot(bytes32 root) public view returns (bool) {
        if (root == 0) return false;
        uint32 i = currentRootIndex;
        for (uint256 n = 0; n < ROOT_HISTORY_SIZE; n++) {
            if (roots[i] == root) return true;
            i = i == 0 ? ROOT_HISTORY_SIZE - 1 : i - 1;
        }
        return false;
    }

    /// @notice The current root.
    function getLastRoot() external view returns (bytes32) {
        return roots[currentRootIndex];
    }
}
