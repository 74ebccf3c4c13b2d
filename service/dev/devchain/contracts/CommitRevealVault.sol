// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {PoseidonT3} from "poseidon-solidity/PoseidonT3.sol";
import {PoseidonT4} from "poseidon-solidity/PoseidonT4.sol";
import {CommitmentTree} from "./CommitmentTree.sol";
import {NullifierRegistry} from "./NullifierRegistry.sol";

interface IGroth16Verifier {
    function verifyProof(uint256[2] calldata, uint256[2][2] calldata, uint256[2] calldata, uint256[6] calldata)
        external
        view
        returns (bool);
}

interface IERC20Minimal {
    function balanceOf(address) external view returns (uint256);
}

/// @title CommitRevealVault
/// @notice Holds committed tokens and releases them against a Groth16 proof. The commitment
///         tree and the nullifier registry are its bases, their state its own: a reveal reads
///         the root and spends the nullifier without a call to another contract (two cold
///         accounts, 5,200 gas, and the calls' encoding saved), a commit inserts likewise.
///         commit() pulls `amount` of `token` and inserts the leaf Poseidon(commitment, amount,
///         tokenId), so a leaf always holds what was really deposited. reveal() checks, in this
///         order, the recipient against its signal, the root, the nullifier, the token for the
///         tokenId and the proof; then it spends the nullifier, inserts the change note (if any)
///         and transfers `amount` to the recipient.
///         Public signals: [0] root, [1] nullifier, [2] amount, [3] recipient, [4] changeCommitment,
///         [5] tokenId. tokenId = Poseidon(token, chainid).
///         revealWithFee() pays `fee` of the revealed tokens to `feeReceiver` (whoever relayed the
///         reveal) and the rest to the recipient: its signal [3] binds all three
///         (feeBinding), so the proof fixes the fee and both receivers and a copy of the
///         transaction cannot redirect either. The circuit is the same: signal [3] is a public
///         input the circuit carries, whatever it stands for.
contract CommitRevealVault is CommitmentTree, NullifierRegistry {
    uint256 public constant MAX_AMOUNT = (uint256(1) << 248) - 1;

    IGroth16Verifier public immutable verifier;
    /// @notice When set, only this address may call reveal(); zero means anyone may.
    address public immutable operator;
    address public immutable owner;

    mapping(uint256 => address) public tokenOfId;
    mapping(address => uint256) public tokenIdOf;
    /// @notice Commitments deposited so far. A second deposit under one commitment would share
    /// its nullifier, so at most one of them could ever be revealed: it is refused.
    mapping(bytes32 => bool) public committed;

    event TokenRegistered(address indexed token, uint256 tokenId);
    event Committed(address indexed token, address indexed sender, uint256 amount, bytes32 commitment, bytes32 leaf, uint32 leafIndex);
    /// @notice `amount` is what the reveal took out of the vault; with a fee (RevealFeePaid),
    ///         the recipient got amount − fee.
    event Revealed(bytes32 indexed nullifier, address indexed recipient, address indexed token, uint256 amount, bytes32 changeCommitment, address caller);
    event RevealFeePaid(bytes32 indexed nullifier, address indexed feeReceiver, uint256 fee);

    error NotOwner(address caller);
    error NotOperator(address caller);
    error Reentrancy();
    error TokenAlreadyRegistered(address token);
    error TokenNotRegistered(address token);
    error InvalidAmount(uint256 amount);
    error InvalidCommitment(bytes32 commitment);
    error CommitmentAlreadyUsed(bytes32 commitment);
    error TransferShortfall(uint256 expected, uint256 received);
    error TransferFailed(address token);
    error InvalidRecipient(address recipient);
    error RecipientMismatch(uint256 signal, address recipient);
    error FeeBindingMismatch(uint256 signal, uint256 binding);
    error InvalidFee(uint256 fee, uint256 amount);
    error InvalidFeeReceiver(address feeReceiver);
    error UnknownRoot(bytes32 root);
    error UnknownTokenId(uint256 tokenId);
    error InvalidProof();

    /// @dev The reentrancy flag lives in transient storage (EIP-1153), slot 0: 300 gas a call
    ///      where a storage flag cost 2,300 net of its refund (and raised the gas a caller must
    ///      offer by 20,000 before the refund).
    modifier nonReentrant() {
        bool busy;
        assembly {
            busy := tload(0)
        }
        if (busy) revert Reentrancy();
        assembly {
            tstore(0, 1)
        }
        _;
        assembly {
            tstore(0, 0)
        }
    }

    constructor(address verifier_, address operator_) {
        owner = msg.sender;
        verifier = IGroth16Verifier(verifier_);
        operator = operator_;
    }

    /// @notice Where the commitment tree is read (isKnownRoot, rootAge, CommitmentInserted):
    ///         this contract.
    function commitmentTree() external view returns (address) {
        return address(this);
    }

    /// @notice Where the spent nullifiers are read (isSpent, NullifierSpent): this contract.
    function nullifierRegistry() external view returns (address) {
        return address(this);
    }

    /// @notice Lets `token` be committed; its tokenId is Poseidon(token, chainid).
    function registerToken(address token) external returns (uint256 tokenId) {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (tokenIdOf[token] != 0) revert TokenAlreadyRegistered(token);
        tokenId = PoseidonT3.hash([uint256(uint160(token)), block.chainid]);
        tokenIdOf[token] = tokenId;
        tokenOfId[tokenId] = token;
        emit TokenRegistered(token, tokenId);
    }

    /// @notice Deposits `amount` of `token` (approved beforehand) under `commitment`
    ///         = Poseidon(secret, nullifierSecret).
    function commit(address token, uint256 amount, bytes32 commitment) external nonReentrant returns (uint32 leafIndex) {
        uint256 tokenId = tokenIdOf[token];
        if (tokenId == 0) revert TokenNotRegistered(token);
        if (amount == 0 || amount > MAX_AMOUNT) revert InvalidAmount(amount);
        if (commitment == 0 || uint256(commitment) >= R) revert InvalidCommitment(commitment);
        if (committed[commitment]) revert CommitmentAlreadyUsed(commitment);
        committed[commitment] = true;

        uint256 before = IERC20Minimal(token).balanceOf(address(this));
        _call(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amount));
        uint256 received = IERC20Minimal(token).balanceOf(address(this)) - before;
        if (received != amount) revert TransferShortfall(amount, received);

        bytes32 leaf = bytes32(PoseidonT4.hash([uint256(commitment), amount, tokenId]));
        (leafIndex,) = _insert(leaf);
        emit Committed(token, msg.sender, amount, commitment, leaf, leafIndex);
    }

    /// @notice Releases `pubSignals[2]` tokens to `recipient` against a proof.
    function reveal(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256[6] calldata pubSignals,
        address recipient
    ) external nonReentrant {
        _reveal(pA, pB, pC, pubSignals, recipient, 0, address(0));
    }

    /// @notice Releases `pubSignals[2]` tokens against a proof whose signal [3] is
    ///         feeBinding(recipient, fee, feeReceiver): `fee` of them to `feeReceiver`, the rest
    ///         to `recipient`. The fee is more than zero and less than the amount.
    function revealWithFee(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256[6] calldata pubSignals,
        address recipient,
        uint256 fee,
        address feeReceiver
    ) external nonReentrant {
        if (fee == 0) revert InvalidFee(fee, pubSignals[2]);
        _reveal(pA, pB, pC, pubSignals, recipient, fee, feeReceiver);
    }

    /// @notice The signal [3] of a reveal that pays `fee` to `feeReceiver`: keccak256 of the
    ///         three, ABI-encoded, reduced into the proof's scalar field.
    function feeBinding(address recipient, uint256 fee, address feeReceiver) public pure returns (uint256) {
        return uint256(keccak256(abi.encode(recipient, fee, feeReceiver))) % R;
    }

    /// @dev A reveal, with a fee (fee > 0) or without: the checks in reveal()'s documented
    ///      order, signal [3] against the recipient or against the fee's binding, then the
    ///      nullifier spent, the change inserted and the transfers.
    function _reveal(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256[6] calldata pubSignals,
        address recipient,
        uint256 fee,
        address feeReceiver
    ) private {
        if (operator != address(0) && msg.sender != operator) revert NotOperator(msg.sender);
        if (recipient == address(0)) revert InvalidRecipient(recipient);
        if (fee == 0) {
            if (pubSignals[3] != uint256(uint160(recipient))) revert RecipientMismatch(pubSignals[3], recipient);
        } else {
            if (feeReceiver == address(0)) revert InvalidFeeReceiver(feeReceiver);
            uint256 binding = feeBinding(recipient, fee, feeReceiver);
            if (pubSignals[3] != binding) revert FeeBindingMismatch(pubSignals[3], binding);
        }
        bytes32 root = bytes32(pubSignals[0]);
        if (!isKnownRoot(root)) revert UnknownRoot(root);
        bytes32 nullifier = bytes32(pubSignals[1]);
        // Spent here, in the check's place (NullifierAlreadySpent if it was): a failed check
        // further on undoes it.
        _spend(nullifier);
        address token = tokenOfId[pubSignals[5]];
        if (token == address(0)) revert UnknownTokenId(pubSignals[5]);
        uint256 amount = pubSignals[2];
        if (amount == 0 || amount > MAX_AMOUNT) revert InvalidAmount(amount);
        if (fee >= amount) revert InvalidFee(fee, amount);
        if (!verifier.verifyProof(pA, pB, pC, pubSignals)) revert InvalidProof();

        bytes32 change = bytes32(pubSignals[4]);
        if (change != 0) _insert(change);
        _call(token, abi.encodeWithSignature("transfer(address,uint256)", recipient, amount - fee));
        emit Revealed(nullifier, recipient, token, amount, change, msg.sender);
        if (fee != 0) {
            _call(token, abi.encodeWithSignature("transfer(address,uint256)", feeReceiver, fee));
            emit RevealFeePaid(nullifier, feeReceiver, fee);
        }
    }

    /// @dev Calls a token and accepts a true or an empty answer, as ERC20s vary.
    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TransferFailed(token);
    }
}
