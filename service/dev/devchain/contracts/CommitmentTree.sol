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

    /// @dev The root of the empty tree: zeros(DEPTH).
    uint256 internal constant EMPTY_ROOT = 0x2134e76ac5d21aab186c2be1dd8f84ee880a1e46eaf712f9d371b6df22191f3e;

    address public immutable owner;
    uint256[DEPTH] internal filledSubtrees;
    bytes32[ROOT_HISTORY_SIZE] internal roots;
    uint32 public currentRootIndex;
    uint32 public nextIndex;

    event CommitmentInserted(bytes32 indexed commitment, uint32 leafIndex, bytes32 root);

    error NotOwner(address caller);
    error TreeFull();
    error LeafNotInField(bytes32 leaf);

    /// @dev filledSubtrees start as the empty subtrees' roots. An insertion writes a level's
    ///      before it reads it, so their value is never read; set now (but level 0's, which is
    ///      0), the first insertion rewrites slots instead of filling empty ones, 17,100 gas a
    ///      slot less: the deployer pays that, not the first depositor.
    constructor(address owner_) {
        owner = owner_;
        uint256[DEPTH] memory zero = zeros();
        for (uint256 i = 1; i < DEPTH; i++) {
            filledSubtrees[i] = zero[i];
        }
        roots[0] = bytes32(EMPTY_ROOT);
    }

    /// @dev The roots of the empty subtrees: zeros()[i] is that of height i, zeros()[0] = 0 and
    ///      zeros()[i+1] = Poseidon(zeros()[i], zeros()[i]). Constants, so that an insertion reads
    ///      no storage for them (they were 20 cold SLOADs, 42,000 gas, per insertion); the Go
    ///      tree's (service/vault/zk) are checked against them (TestTheTreesZerosAreTheGoTrees).
    function zeros() internal pure returns (uint256[DEPTH] memory) {
        return [
            uint256(0),
            0x2098f5fb9e239eab3ceac3f27b81e481dc3124d55ffed523a839ee8446b64864,
            0x1069673dcdb12263df301a6ff584a7ec261a44cb9dc68df067a4774460b1f1e1,
            0x18f43331537ee2af2e3d758d50f72106467c6eea50371dd528d57eb2b856d238,
            0x07f9d837cb17b0d36320ffe93ba52345f1b728571a568265caac97559dbc952a,
            0x2b94cf5e8746b3f5c9631f4c5df32907a699c58c94b2ad4d7b5cec1639183f55,
            0x2dee93c5a666459646ea7d22cca9e1bcfed71e6951b953611d11dda32ea09d78,
            0x078295e5a22b84e982cf601eb639597b8b0515a88cb5ac7fa8a4aabe3c87349d,
            0x2fa5e5f18f6027a6501bec864564472a616b2e274a41211a444cbe3a99f3cc61,
            0x0e884376d0d8fd21ecb780389e941f66e45e7acce3e228ab3e2156a614fcd747,
            0x1b7201da72494f1e28717ad1a52eb469f95892f957713533de6175e5da190af2,
            0x1f8d8822725e36385200c0b201249819a6e6e1e4650808b5bebc6bface7d7636,
            0x2c5d82f66c914bafb9701589ba8cfcfb6162b0a12acf88a8d0879a0471b5f85a,
            0x14c54148a0940bb820957f5adf3fa1134ef5c4aaa113f4646458f270e0bfbfd0,
            0x190d33b12f986f961e10c0ee44d8b9af11be25588cad89d416118e4bf4ebe80c,
            0x22f98aa9ce704152ac17354914ad73ed1167ae6596af510aa5b3649325e06c92,
            0x2a7c7c9b6ce5880b9f6f228d72bf6a575a526f29c66ecceef8b753d38bba7323,
            0x2e8186e558698ec1c67af9c14d463ffc470043c9c2988b954d75dd643f36b992,
            0x0f57c5571e9a4eab49e2c8cf050dae948aef6ead647392273546249d1c1ff10f,
            0x1830ee67b5fb554ad5f63d4388800e1cfe78e310697d46e43c9ce36134f72cca
        ];
    }

    /// @notice Appends a leaf; returns its index and the new root.
    function insert(bytes32 leaf) external returns (uint32 index, bytes32 root) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (uint256(leaf) >= R) revert LeafNotInField(leaf);
        index = nextIndex;
        if (index == uint32(1) << DEPTH) revert TreeFull();

        uint256 node = uint256(leaf);
        uint32 i = index;
        uint256[DEPTH] memory zero = zeros();
        for (uint256 level = 0; level < DEPTH; level++) {
            if (i & 1 == 0) {
                filledSubtrees[level] = node;
                node = PoseidonT3.hash([node, zero[level]]);
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
