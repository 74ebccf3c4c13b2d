// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Groth16Verifier
/// @notice Checks Groth16 proofs on BN254 with the EVM's precompiles (ecAdd 0x06, ecMul 0x07,
///         pairing 0x08). The verifying key is given at deployment and kept in immutables, so the
///         same source serves any key with six public signals.
/// @dev    The check is e(-A, B) · e(α, β) · e(vk_x, γ) · e(C, δ) = 1 with
///         vk_x = IC0 + Σ signal_i · IC(i+1). G2 points are in the precompile's order,
///         [[x.c1, x.c0], [y.c1, y.c0]]. Coordinates must be below q and signals below r;
///         anything else is not a valid proof.
contract Groth16Verifier {
    uint256 internal constant Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583;
    uint256 internal constant R = 21888242871839275222246405745257275088548364400416034343698204186575808495617;
    uint256 public constant N_PUBLIC = 6;

    uint256 internal immutable alphaX;
    uint256 internal immutable alphaY;
    uint256 internal immutable betaX1;
    uint256 internal immutable betaX0;
    uint256 internal immutable betaY1;
    uint256 internal immutable betaY0;
    uint256 internal immutable gammaX1;
    uint256 internal immutable gammaX0;
    uint256 internal immutable gammaY1;
    uint256 internal immutable gammaY0;
    uint256 internal immutable deltaX1;
    uint256 internal immutable deltaX0;
    uint256 internal immutable deltaY1;
    uint256 internal immutable deltaY0;
    uint256 internal immutable ic0X;
    uint256 internal immutable ic0Y;
    uint256 internal immutable ic1X;
    uint256 internal immutable ic1Y;
    uint256 internal immutable ic2X;
    uint256 internal immutable ic2Y;
    uint256 internal immutable ic3X;
    uint256 internal immutable ic3Y;
    uint256 internal immutable ic4X;
    uint256 internal immutable ic4Y;
    uint256 internal immutable ic5X;
    uint256 internal immutable ic5Y;
    uint256 internal immutable ic6X;
    uint256 internal immutable ic6Y;

    /// @param alpha  α in G1 (x, y)
    /// @param beta   β in G2, precompile order
    /// @param gamma  γ in G2, precompile order
    /// @param delta  δ in G2, precompile order
    /// @param ic     IC0..IC6 in G1
    constructor(
        uint256[2] memory alpha,
        uint256[2][2] memory beta,
        uint256[2][2] memory gamma,
        uint256[2][2] memory delta,
        uint256[2][7] memory ic
    ) {
        (alphaX, alphaY) = (alpha[0], alpha[1]);
        (betaX1, betaX0, betaY1, betaY0) = (beta[0][0], beta[0][1], beta[1][0], beta[1][1]);
        (gammaX1, gammaX0, gammaY1, gammaY0) = (gamma[0][0], gamma[0][1], gamma[1][0], gamma[1][1]);
        (deltaX1, deltaX0, deltaY1, deltaY0) = (delta[0][0], delta[0][1], delta[1][0], delta[1][1]);
        (ic0X, ic0Y, ic1X, ic1Y) = (ic[0][0], ic[0][1], ic[1][0], ic[1][1]);
        (ic2X, ic2Y, ic3X, ic3Y) = (ic[2][0], ic[2][1], ic[3][0], ic[3][1]);
        (ic4X, ic4Y, ic5X, ic5Y) = (ic[4][0], ic[4][1], ic[5][0], ic[5][1]);
        (ic6X, ic6Y) = (ic[6][0], ic[6][1]);
    }

    /// @notice True when the proof is valid for the public signals.
    function verifyProof(
        uint256[2] calldata pA,
        uint256[2][2] calldata pB,
        uint256[2] calldata pC,
        uint256[6] calldata pubSignals
    ) external view returns (bool) {
        for (uint256 i = 0; i < N_PUBLIC; i++) {
            if (pubSignals[i] >= R) return false;
        }
        if (pA[0] >= Q || pA[1] >= Q || pC[0] >= Q || pC[1] >= Q) return false;
        if (pB[0][0] >= Q || pB[0][1] >= Q || pB[1][0] >= Q || pB[1][1] >= Q) return false;

        // vk_x accumulates in acc[0..1]; each term's product lands in acc[2..3] and is added.
        uint256[4] memory acc = [ic0X, ic0Y, 0, 0];
        bool ok = _term(acc, ic1X, ic1Y, pubSignals[0]) && _term(acc, ic2X, ic2Y, pubSignals[1])
            && _term(acc, ic3X, ic3Y, pubSignals[2]) && _term(acc, ic4X, ic4Y, pubSignals[3])
            && _term(acc, ic5X, ic5Y, pubSignals[4]) && _term(acc, ic6X, ic6Y, pubSignals[5]);
        if (!ok) return false;

        uint256[24] memory input;
        (input[0], input[1]) = (pA[0], pA[1] == 0 ? 0 : Q - pA[1]); // -A
        (input[2], input[3], input[4], input[5]) = (pB[0][0], pB[0][1], pB[1][0], pB[1][1]);
        (input[6], input[7]) = (alphaX, alphaY);
        (input[8], input[9], input[10], input[11]) = (betaX1, betaX0, betaY1, betaY0);
        (input[12], input[13]) = (acc[0], acc[1]);
        (input[14], input[15], input[16], input[17]) = (gammaX1, gammaX0, gammaY1, gammaY0);
        (input[18], input[19]) = (pC[0], pC[1]);
        (input[20], input[21], input[22], input[23]) = (deltaX1, deltaX0, deltaY1, deltaY0);

        bool success;
        assembly {
            success := staticcall(gas(), 0x08, input, 768, input, 0x20)
            success := and(success, eq(mload(input), 1))
        }
        return success;
    }

    /// @dev Adds signal · (px, py) to the point in acc[0..1]. A zero signal adds the point at
    ///      infinity, nothing: it is skipped (a whole reveal's change is 0), 6,000 gas and more
    ///      saved. False if a precompile refuses.
    function _term(uint256[4] memory acc, uint256 px, uint256 py, uint256 signal) private view returns (bool ok) {
        if (signal == 0) return true;
        assembly {
            let m := mload(0x40)
            mstore(m, px)
            mstore(add(m, 0x20), py)
            mstore(add(m, 0x40), signal)
            ok := staticcall(gas(), 0x07, m, 0x60, add(acc, 0x40), 0x40)
            if ok { ok := staticcall(gas(), 0x06, acc, 0x80, acc, 0x40) }
        }
    }
}
