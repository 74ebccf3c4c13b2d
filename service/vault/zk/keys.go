//go:build !(js && wasm)

package zk

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/witness"
	cs "github.com/consensys/gnark/constraint/bn254"
	"github.com/consensys/gnark/logger"
	_ "github.com/consensys/gnark/std/math/bits" // registers the solver's hint for api.ToBinary (the circuit's nBits)

	"github.com/seed018cc74c/vaultd/gen/zk/circuit"
	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
)

//go:generate go run ./internal/compilecircuit ../../../gen/zk/circuit ../../../gen/zk/solvecircuit

// CircuitFile is the compiled reveal circuit's file in gen/zk/circuit (what `go generate` writes).
const CircuitFile = "reveal.r1cs"

// Everything here uses gnark's packages (its compiled circuit, keys and prover), which the
// browser's prover (cmd/proverwasm, js/wasm) does not link: it proves with StreamProver.

// gnark logs its progress to stdout by default; vaultd's programs print their own output there.
func init() { logger.Disable() }

// Keys are the compiled reveal circuit with its Groth16 keys. They hold gnark's BN254 types, not
// its curve-generic interfaces: a program that only proves (cmd/proverwasm) links no other curve.
type Keys struct {
	ccs *cs.R1CS
	pk  *groth16bn254.ProvingKey
	vk  *groth16bn254.VerifyingKey
}

var (
	devOnce sync.Once
	dev     *Keys
	devErr  error
)

// DevKeys returns the committed dev keys (gen/zk/devkeys), loaded once. The dev chain's verifier
// is deployed from them; a test checks that they still match the circuit.
func DevKeys() (*Keys, error) {
	devOnce.Do(func() { dev, devErr = LoadKeys(devkeys.ProvingKey, devkeys.VerifyingKey) })
	return dev, devErr
}

// DevVerificationKey returns the dev verifying key alone, without compiling the circuit: what a
// chain needs to deploy its verifier.
func DevVerificationKey() (*VerificationKey, error) {
	vk := &groth16bn254.VerifyingKey{}
	if _, err := vk.ReadFrom(bytes.NewReader(devkeys.VerifyingKey)); err != nil {
		return nil, fmt.Errorf("verifying key: %w", err)
	}
	return (&Keys{vk: vk}).VerificationKey(), nil
}

// LoadKeys reads keys written by Encode (or WriteKeysDir) with the compiled circuit of
// gen/zk/circuit (Compile's, written by `go generate`): nothing is compiled.
func LoadKeys(pkBytes, vkBytes []byte) (*Keys, error) {
	ccs, err := compiledCircuit()
	if err != nil {
		return nil, err
	}
	pk, vk := &groth16bn254.ProvingKey{}, &groth16bn254.VerifyingKey{}
	if _, err := pk.UnsafeReadFrom(bytes.NewReader(pkBytes)); err != nil {
		return nil, fmt.Errorf("proving key: %w", err)
	}
	if _, err := vk.ReadFrom(bytes.NewReader(vkBytes)); err != nil {
		return nil, fmt.Errorf("verifying key: %w", err)
	}
	if err := samePair(pk, vk); err != nil {
		return nil, err
	}
	return &Keys{ccs: ccs, pk: pk, vk: vk}, nil
}

// samePair checks that pk and vk come from one setup: the points both carry ([α]₁, [β]₂, [δ]₂)
// are equal. A proving key from another setup makes proofs the verifier refuses, and one made
// to match another verifier would prove what it should not: either is refused at loading.
func samePair(p *groth16bn254.ProvingKey, v *groth16bn254.VerifyingKey) error {
	if !p.G1.Alpha.Equal(&v.G1.Alpha) || !p.G2.Beta.Equal(&v.G2.Beta) || !p.G2.Delta.Equal(&v.G2.Delta) {
		return errors.New("the proving key and the verifying key are not from the same setup")
	}
	return nil
}

var (
	circuitOnce sync.Once
	circuitCCS  *cs.R1CS
	circuitErr  error
)

// compiledCircuit returns the compiled circuit of gen/zk/circuit, read once: neither the solver
// nor the provers change it.
func compiledCircuit() (*cs.R1CS, error) {
	circuitOnce.Do(func() {
		ccs := &cs.R1CS{}
		if _, err := ccs.ReadFrom(bytes.NewReader(circuit.R1CS)); err != nil {
			circuitErr = fmt.Errorf("the compiled circuit (gen/zk/circuit): %w", err)
			return
		}
		circuitCCS = ccs
	})
	return circuitCCS, circuitErr
}

// VerificationKey returns the verifying key as points, for the Solidity verifier's constructor
// and for snarkjs's verification_key.json.
func (k *Keys) VerificationKey() *VerificationKey {
	return verificationKeyOf(k.vk)
}

// Constraints is the circuit's number of constraints.
func (k *Keys) Constraints() int { return k.ccs.GetNbConstraints() }

func verificationKeyOf(v *groth16bn254.VerifyingKey) *VerificationKey {
	return &VerificationKey{Alpha: v.G1.Alpha, Beta: v.G2.Beta, Gamma: v.G2.Gamma, Delta: v.G2.Delta, IC: append(v.G1.K[:0:0], v.G1.K...)}
}

// Prove proves a reveal and returns the proof and its public signals.
func (k *Keys) Prove(req RevealRequest) (Proof, Signals, error) {
	w, signals, err := req.witness()
	if err != nil {
		return Proof{}, Signals{}, err
	}
	p, err := groth16bn254.Prove(k.ccs, k.pk, gnarkWitness{v: w.v})
	if err != nil {
		return Proof{}, Signals{}, fmt.Errorf("prove: %w", err)
	}
	return Proof{A: p.Ar, B: p.Bs, C: p.Krs}, signals, nil
}

// gnarkWitness is a witness as groth16bn254.Prove reads it: only its Vector. gnark's own
// (witness.New) handles every curve's field.
type gnarkWitness struct {
	witness.Witness // nil: Prove calls Vector alone
	v               fr.Vector
}

func (w gnarkWitness) Vector() any { return w.v }

// SectionedKeyOf is gnark's proving key as a sectioned key (the same points).
func SectionedKeyOf(pk *groth16bn254.ProvingKey) (*SectionedKey, error) {
	if len(pk.CommitmentKeys) != 0 {
		return nil, errors.New("sectioned keys hold no commitment keys, and this key has some")
	}
	nbWires := len(pk.InfinityA)
	return &SectionedKey{
		DomainSize: pk.Domain.Cardinality, NbWires: nbWires, NbPublic: nbWires - len(pk.G1.K),
		Alpha1: pk.G1.Alpha, Beta1: pk.G1.Beta, Delta1: pk.G1.Delta, Beta2: pk.G2.Beta, Delta2: pk.G2.Delta,
		InfinityA: pk.InfinityA, InfinityB: pk.InfinityB,
		A: pk.G1.A, B1: pk.G1.B, K: pk.G1.K, Z: pk.G1.Z, B2: pk.G2.B,
	}, nil
}
