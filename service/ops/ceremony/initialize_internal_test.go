package ceremony

import (
	"bytes"
	"encoding/gob"
	"flag"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	cs "github.com/consensys/gnark/constraint/bn254"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// small is a circuit with terms of every kind Initialize tells apart: coefficients 1, -1, 2 and
// others, wires in several constraints, public and secret inputs.
type small struct {
	X, Out frontend.Variable `gnark:",public"`
	Y, W   frontend.Variable
}

func (c *small) Define(api frontend.API) error {
	y3 := api.Mul(api.Mul(c.Y, c.Y), c.Y)
	s := api.Add(y3, api.Mul(c.X, 3), api.Mul(c.W, -1), api.Mul(c.Y, 2))
	t := api.Mul(api.Sub(s, c.W), api.Add(c.X, 1234567891011))
	api.AssertIsEqual(api.Mul(t, api.Sub(c.Y, api.Mul(c.W, 7))), c.Out)
	api.AssertIsDifferent(c.W, 0)
	return nil
}

// The starting point of phase 2 and the evaluations initialize computes are, byte for byte, the
// ones gnark's Initialize computes, on a phase 1 of two contributions.
func TestInitializeIsGnarks(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &small{})
	if err != nil {
		t.Fatal(err)
	}
	r := ccs.(*cs.R1CS)
	size := ecc.NextPowerOfTwo(uint64(r.GetNbConstraints()))
	if size < 8 {
		t.Fatalf("%d constraints: too few to exercise the FFT's stages", r.GetNbConstraints())
	}
	p1 := mpcsetup.NewPhase1(size)
	first, second := new(mpcsetup.Phase1), new(mpcsetup.Phase1)
	copyPhase1(t, p1, first)
	first.Contribute()
	copyPhase1(t, first, second)
	second.Contribute()
	commons, err := mpcsetup.VerifyPhase1(size, []byte("beacon"), first, second)
	if err != nil {
		t.Fatal(err)
	}

	var theirs, ours mpcsetup.Phase2
	theirEvals := theirs.Initialize(r, &commons)
	ourEvals := initialize(&ours, r, &commons)
	if a, b := encode(t, &theirs), encode(t, &ours); !bytes.Equal(a, b) {
		t.Fatalf("phase 2's starting point differs from gnark's (%d and %d bytes)", len(a), len(b))
	}
	if a, b := gobOf(t, &theirEvals), gobOf(t, &ourEvals); !bytes.Equal(a, b) {
		t.Fatalf("the evaluations differ from gnark's (%d and %d bytes)", len(a), len(b))
	}
	if len(ourEvals.G1.VKK) != 3 || len(ours.Parameters.G1.PKK) == 0 || len(ours.Parameters.G1.Z) != int(size)-1 {
		t.Fatalf("VKK %d, PKK %d, Z %d: the circuit does not exercise them", len(ourEvals.G1.VKK), len(ours.Parameters.G1.PKK), len(ours.Parameters.G1.Z))
	}
}

func copyPhase1(t *testing.T, from, to *mpcsetup.Phase1) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := from.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := to.ReadFrom(&buf); err != nil {
		t.Fatal(err)
	}
}

func encode(t *testing.T, p *mpcsetup.Phase2) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gobOf(t *testing.T, e *mpcsetup.Phase2Evaluations) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(e); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkInitialize is phase 2's starting point for the reveal circuit, from a phase 1 of one
// contribution (-bench Initialize -benchtime 1x; -gnark for gnark's Initialize instead).
func BenchmarkInitialize(b *testing.B) {
	r, _, err := circuit()
	if err != nil {
		b.Fatal(err)
	}
	p1 := mpcsetup.NewPhase1(ecc.NextPowerOfTwo(uint64(r.GetNbConstraints())))
	p1.Contribute()
	commons := p1.Seal([]byte("beacon"))
	for b.Loop() {
		var p mpcsetup.Phase2
		if *gnarks {
			p.Initialize(r, &commons)
		} else {
			initialize(&p, r, &commons)
		}
	}
}

var gnarks = flag.Bool("gnark", false, "BenchmarkInitialize times gnark's Initialize")
