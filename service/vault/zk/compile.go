//go:build !(js && wasm)

package zk

import (
	"github.com/consensys/gnark-crypto/ecc"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bn254"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// The circuit's compiler (gnark's frontend, for every curve) is left out of the browser's
// prover (cmd/proverwasm, js/wasm): LoadKeys reads the circuit compiled at build time
// (gen/zk/circuit), and the wasm is a third of the size without it (docs/client.md).

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
	k := &Keys{ccs: ccs.(*cs.R1CS), pk: &groth16bn254.ProvingKey{}, vk: &groth16bn254.VerifyingKey{}}
	if err := groth16bn254.Setup(k.ccs, k.pk, k.vk); err != nil {
		return nil, err
	}
	return k, nil
}
