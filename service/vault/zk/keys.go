package zk

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"

	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
)

// gnark logs its progress to stdout by default; vaultd's programs print their own output there.
func init() { logger.Disable() }

// Keys are the compiled reveal circuit with its Groth16 keys.
type Keys struct {
	ccs constraint.ConstraintSystem
	pk  groth16.ProvingKey
	vk  groth16.VerifyingKey
}

// Compile compiles the reveal circuit to R1CS.
func Compile() (constraint.ConstraintSystem, error) {
	return frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &RevealCircuit{})
}

// Setup runs a fresh (dev, single-party) Groth16 setup for the reveal circuit.
func Setup() (*Keys, error) {
	ccs, err := Compile()
	if err != nil {
		return nil, err
	}
	pk, vk, err := groth16.Setup(ccs)
	if err != nil {
		return nil, err
	}
	return &Keys{ccs: ccs, pk: pk, vk: vk}, nil
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
	vk := groth16.NewVerifyingKey(ecc.BN254)
	if _, err := vk.ReadFrom(bytes.NewReader(devkeys.VerifyingKey)); err != nil {
		return nil, fmt.Errorf("verifying key: %w", err)
	}
	return (&Keys{vk: vk}).VerificationKey(), nil
}

// LoadKeys reads keys written by WriteTo and compiles the circuit to go with them.
func LoadKeys(pkBytes, vkBytes []byte) (*Keys, error) {
	ccs, err := Compile()
	if err != nil {
		return nil, err
	}
	pk, vk := groth16.NewProvingKey(ecc.BN254), groth16.NewVerifyingKey(ecc.BN254)
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
func samePair(pk groth16.ProvingKey, vk groth16.VerifyingKey) error {
	p, okP := pk.(*groth16bn254.ProvingKey)
	v, okV := vk.(*groth16bn254.VerifyingKey)
	if !okP || !okV {
		return errors.New("keys: not BN254 Groth16 keys")
	}
	if !p.G1.Alpha.Equal(&v.G1.Alpha) || !p.G2.Beta.Equal(&v.G2.Beta) || !p.G2.Delta.Equal(&v.G2.Delta) {
		return errors.New("the proving key and the verifying key are not from the same setup")
	}
	return nil
}

// Encode returns the proving and verifying keys in gnark's binary form.
func (k *Keys) Encode() (pkBytes, vkBytes []byte, err error) {
	var pb, vb bytes.Buffer
	if _, err := k.pk.WriteRawTo(&pb); err != nil {
		return nil, nil, err
	}
	if _, err := k.vk.WriteTo(&vb); err != nil {
		return nil, nil, err
	}
	return pb.Bytes(), vb.Bytes(), nil
}

// VerificationKey returns the verifying key as points, for the Solidity verifier's constructor
// and for snarkjs's verification_key.json.
func (k *Keys) VerificationKey() *VerificationKey {
	return VerificationKeyOf(k.vk)
}

// Constraints is the circuit's number of constraints.
func (k *Keys) Constraints() int { return k.ccs.GetNbConstraints() }
