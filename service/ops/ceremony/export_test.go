package ceremony

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	cs "github.com/consensys/gnark/constraint/bn254"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// UseSmallCircuit makes the package's steps work on a circuit of a few constraints (small, a
// domain of 16) instead of the reveal circuit until t ends: for the checks that do not depend on
// the circuit (a transcript's files and update proofs, its circuit hash), where each phase-1
// step on the reveal circuit's domain of 8192 takes seconds. It replaces the circuit for the
// whole process, so t must not run beside tests that use the reveal circuit (no t.Parallel).
func UseSmallCircuit(t testing.TB) {
	t.Helper()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &small{})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if _, err := ccs.WriteTo(h); err != nil {
		t.Fatal(err)
	}
	r, hash := ccs.(*cs.R1CS), hex.EncodeToString(h.Sum(nil))
	reveal := circuit
	circuit = func() (*cs.R1CS, string, error) { return r, hash, nil }
	t.Cleanup(func() { circuit = reveal })
}
