// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {PoseidonT3} from "poseidon-solidity/PoseidonT3.sol";

/// @title CommitmentTree
/// @notice An append-only lean incremental Merkle tree (LeanIMT, as Semaphore v4's) of at most
///         2^20 leaves over circomlib's Poseidon, with the last 32 roots kept so proofs made
///         against a recent root stay valid while new leaves arrive. A node with no right
///         sibling is its parent unchanged (no hash with an empty subtree), so the root of one
///         leaf is that leaf, and an insertion hashes once per 1-bit of its index: at most 20
///         times, about half the depth on average, where a fixed-depth tree hashed 20 times
///         every time. A base of the vault, which inserts (_insert) and whose address it is.
abstract contract CommitmentTree {
    uint256 internal constant R = 21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint32 public constant DEPTH = 20;
    uint32 public constant ROOT_HISTORY_SIZE = 32;

    /// @dev sideNodes[h] is the root of the last complete subtree of height h: the left sibling
    ///      an insertion whose index has bit h set hashes with. The insertion that completes a
    ///      subtree of height h (its index has exactly h trailing 1-bits) writes it: one write
    ///      per insertion, where a fixed-depth tree wrote a level for each 0-bit.
    uint256[DEPTH] internal sideNodes;
    /// @dev The empty tree's root is 0, never a known root: nothing can be proved against it.
    bytes32[ROOT_HISTORY_SIZE] internal roots;
    uint32 public currentRootIndex;
    uint32 public nextIndex;

    event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root);

    error TreeFull();
    error LeafNotInField(bytes32 leaf);

    /// @dev The side nodes start at 1, a value no insertion reads (it writes a level before any
    ///      later one reads it), so that the first write of each is a rewrite and not a new slot,
    ///      17,100 gas less: the deployer pays that, not the first depositors.
    constructor() {
        for (uint256 h = 0; h < DEPTH; h++) {
            sideNodes[h] = 1;
        }
    }

    /// @dev Appends a leaf; returns its index and the new root.
    function _insert(bytes32 leaf) internal returns (uint32 index, bytes32 root) {
        if (uint256(leaf) >= R) revert LeafNotInField(leaf);
        index = nextIndex;
        if (index == uint32(1) << DEPTH) revert TreeFull();

        uint256 node = uint256(leaf);
        uint256 i = index;
        uint256 h = 0;
        // Below the first 0-bit the new node is a right child: hash with the complete left
        // sibling. There it is a complete subtree's root, the side node of its height.
        while (i & 1 == 1) {
            node = PoseidonT3.hash([sideNodes[h], node]);
            i >>= 1;
            h++;
        }
        if (h < DEPTH) sideNodes[h] = node;
        // Above, a left child has no right sibling yet and rises unchanged; a right child hashes
        // with its left sibling. The root is reached when the index runs out.
        while (i != 0) {
            i >>= 1;
            h++;
            if (i & 1 == 1) node = PoseidonT3.hash([sideNodes[h], node]);
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
