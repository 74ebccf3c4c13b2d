package zk

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
)

// ProofJSON is a Groth16 proof as snarkjs writes it: decimal strings (0x-hex accepted when
// reading), projective coordinates with z = 1, and G2 coordinates as [c0, c1].
type ProofJSON struct {
	PiA      []string   `json:"pi_a"`
	PiB      [][]string `json:"pi_b"`
	PiC      []string   `json:"pi_c"`
	Protocol string     `json:"protocol,omitempty"`
	Curve    string     `json:"curve,omitempty"`
}

// VerificationKeyJSON is snarkjs's verification_key.json for Groth16 on BN254.
type VerificationKeyJSON struct {
	Protocol string     `json:"protocol"`
	Curve    string     `json:"curve"`
	NPublic  int        `json:"nPublic"`
	Alpha    []string   `json:"vk_alpha_1"`
	Beta     [][]string `json:"vk_beta_2"`
	Gamma    [][]string `json:"vk_gamma_2"`
	Delta    [][]string `json:"vk_delta_2"`
	IC       [][]string `json:"IC"`
}

// Proof is a parsed Groth16 proof: points on the curve, B in G2's subgroup.
type Proof struct {
	A bn254.G1Affine
	B bn254.G2Affine
	C bn254.G1Affine
}

// VerificationKey is a parsed Groth16 verifying key.
type VerificationKey struct {
	Alpha bn254.G1Affine
	Beta  bn254.G2Affine
	Gamma bn254.G2Affine
	Delta bn254.G2Affine
	IC    []bn254.G1Affine // IC[0] + Σ signal_i · IC[i+1]
}

// ErrInvalidProof is wrapped by every reason a proof is refused.
var ErrInvalidProof = errors.New("invalid proof")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidProof, fmt.Sprintf(format, args...))
}

// ParseProof checks the structure of a snarkjs proof and its points: three coordinates each
// (the third "1"), every coordinate below q, A and C on G1, B on G2 and in its subgroup.
func ParseProof(j ProofJSON) (Proof, error) {
	var p Proof
	var err error
	if p.A, err = g1(j.PiA, "pi_a"); err != nil {
		return p, err
	}
	if p.B, err = g2(j.PiB, "pi_b"); err != nil {
		return p, err
	}
	if p.C, err = g1(j.PiC, "pi_c"); err != nil {
		return p, err
	}
	return p, nil
}

// JSON renders the proof as snarkjs does.
func (p Proof) JSON() ProofJSON {
	return ProofJSON{
		PiA:      []string{dec(p.A.X), dec(p.A.Y), "1"},
		PiB:      [][]string{{dec(p.B.X.A0), dec(p.B.X.A1)}, {dec(p.B.Y.A0), dec(p.B.Y.A1)}, {"1", "0"}},
		PiC:      []string{dec(p.C.X), dec(p.C.Y), "1"},
		Protocol: "groth16",
		Curve:    "bn128",
	}
}

// CallArgs are the proof as the Solidity verifier takes it. G2 coordinates go in the EVM's
// pairing-precompile order, imaginary part first: snarkjs's pi_b [[x.c0, x.c1], [y.c0, y.c1]]
// becomes [[x.c1, x.c0], [y.c1, y.c0]]. Passing pi_b in JSON order makes every real proof fail.
func (p Proof) CallArgs() (a [2]*big.Int, b [2][2]*big.Int, c [2]*big.Int) {
	a = [2]*big.Int{toBig(p.A.X), toBig(p.A.Y)}
	b = [2][2]*big.Int{{toBig(p.B.X.A1), toBig(p.B.X.A0)}, {toBig(p.B.Y.A1), toBig(p.B.Y.A0)}}
	c = [2]*big.Int{toBig(p.C.X), toBig(p.C.Y)}
	return a, b, c
}

// ParseVerificationKey reads a snarkjs verification key.
func ParseVerificationKey(j VerificationKeyJSON) (*VerificationKey, error) {
	if j.Protocol != "groth16" || (j.Curve != "bn128" && j.Curve != "bn254") {
		return nil, fmt.Errorf("verification key: want groth16 on bn128, got %s on %s", j.Protocol, j.Curve)
	}
	if len(j.IC) != j.NPublic+1 {
		return nil, fmt.Errorf("verification key: %d IC points for %d public signals", len(j.IC), j.NPublic)
	}
	vk := &VerificationKey{}
	var err error
	if vk.Alpha, err = g1(j.Alpha, "vk_alpha_1"); err != nil {
		return nil, err
	}
	for name, dst := range map[string]*bn254.G2Affine{"vk_beta_2": &vk.Beta, "vk_gamma_2": &vk.Gamma, "vk_delta_2": &vk.Delta} {
		src := map[string][][]string{"vk_beta_2": j.Beta, "vk_gamma_2": j.Gamma, "vk_delta_2": j.Delta}[name]
		if *dst, err = g2(src, name); err != nil {
			return nil, err
		}
	}
	for i, ic := range j.IC {
		p, err := g1(ic, fmt.Sprintf("IC[%d]", i))
		if err != nil {
			return nil, err
		}
		vk.IC = append(vk.IC, p)
	}
	return vk, nil
}

// JSON renders the key as snarkjs's verification_key.json.
func (vk *VerificationKey) JSON() VerificationKeyJSON {
	g2 := func(p bn254.G2Affine) [][]string {
		return [][]string{{dec(p.X.A0), dec(p.X.A1)}, {dec(p.Y.A0), dec(p.Y.A1)}, {"1", "0"}}
	}
	j := VerificationKeyJSON{Protocol: "groth16", Curve: "bn128", NPublic: len(vk.IC) - 1,
		Alpha: []string{dec(vk.Alpha.X), dec(vk.Alpha.Y), "1"}, Beta: g2(vk.Beta), Gamma: g2(vk.Gamma), Delta: g2(vk.Delta)}
	for _, p := range vk.IC {
		j.IC = append(j.IC, []string{dec(p.X), dec(p.Y), "1"})
	}
	return j
}

// Verify checks proof against vk and the public signals: e(A, B) = e(α, β) · e(vkx, γ) · e(C, δ)
// with vkx = IC[0] + Σ signal_i · IC[i+1]. Signals must be below r.
func Verify(vk *VerificationKey, p Proof, signals []*big.Int) error {
	if len(signals) != len(vk.IC)-1 {
		return invalid("%d public signals for a key that takes %d", len(signals), len(vk.IC)-1)
	}
	vkx := vk.IC[0]
	for i, s := range signals {
		if s == nil || s.Sign() < 0 || s.Cmp(ScalarField) >= 0 {
			return invalid("public signal %d is not below r", i)
		}
		var term bn254.G1Affine
		term.ScalarMultiplication(&vk.IC[i+1], s)
		vkx.Add(&vkx, &term)
	}
	var negA bn254.G1Affine
	negA.Neg(&p.A)
	ok, err := bn254.PairingCheck(
		[]bn254.G1Affine{negA, vk.Alpha, vkx, p.C},
		[]bn254.G2Affine{p.B, vk.Beta, vk.Gamma, vk.Delta},
	)
	if err != nil {
		return invalid("pairing: %v", err)
	}
	if !ok {
		return invalid("the pairing check fails")
	}
	return nil
}

func g1(c []string, name string) (bn254.G1Affine, error) {
	var p bn254.G1Affine
	if len(c) != 3 {
		return p, invalid("%s must have 3 coordinates", name)
	}
	if err := one(c[2], name); err != nil {
		return p, err
	}
	if err := coord(&p.X, c[0], name); err != nil {
		return p, err
	}
	if err := coord(&p.Y, c[1], name); err != nil {
		return p, err
	}
	if !p.IsOnCurve() {
		return p, invalid("%s is not on the curve", name)
	}
	return p, nil // G1 has cofactor 1: on the curve is in the group
}

func g2(c [][]string, name string) (bn254.G2Affine, error) {
	var p bn254.G2Affine
	if len(c) != 3 || len(c[0]) != 2 || len(c[1]) != 2 || len(c[2]) != 2 {
		return p, invalid("%s must be 3 pairs of coordinates", name)
	}
	if err := one(c[2][0], name); err != nil {
		return p, err
	}
	if v, err := parseInt(c[2][1]); err != nil || v.Sign() != 0 {
		return p, invalid("%s: the third coordinate must be [1, 0]", name)
	}
	for _, f := range []struct {
		dst *fp.Element
		s   string
	}{{&p.X.A0, c[0][0]}, {&p.X.A1, c[0][1]}, {&p.Y.A0, c[1][0]}, {&p.Y.A1, c[1][1]}} {
		if err := coord(f.dst, f.s, name); err != nil {
			return p, err
		}
	}
	if !p.IsOnCurve() {
		return p, invalid("%s is not on the curve", name)
	}
	if !p.IsInSubGroup() {
		return p, invalid("%s is not in the G2 subgroup", name)
	}
	return p, nil
}

func one(s, name string) error {
	if v, err := parseInt(s); err != nil || v.Cmp(bigOne) != 0 {
		return invalid("%s: the third coordinate must be 1", name)
	}
	return nil
}

var bigOne = new(big.Int).SetInt64(1)

func coord(dst *fp.Element, s, name string) error {
	v, err := parseInt(s)
	if err != nil {
		return invalid("%s: %v", name, err)
	}
	if v.Cmp(BaseField) >= 0 {
		return invalid("%s: coordinate is not below the base field modulus q", name)
	}
	dst.SetBigInt(v)
	return nil
}

func dec(e fp.Element) string { return e.String() }

func toBig(e fp.Element) *big.Int {
	var b big.Int
	return e.BigInt(&b)
}
