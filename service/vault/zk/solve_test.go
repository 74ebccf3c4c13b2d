package zk

import (
	"bytes"
	"errors"
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	cs "github.com/consensys/gnark/constraint/bn254"

	"github.com/seed018cc74c/vaultd/gen/zk/solvecircuit"
)

// The solver's circuit in gen/zk/solvecircuit is the compiled circuit's (go generate writes both):
// encoded again from gnark's, it is the same bytes.
func TestSolverCircuitIsTheCompiledOne(t *testing.T) {
	ccs, err := compiledCircuit()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteSolverCircuit(ccs, &b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), solvecircuit.Circuit) {
		t.Fatal("gen/zk/solvecircuit is not the compiled circuit's: run go generate ./service/vault/zk")
	}
}

// The solver sets every wire as gnark's solver does, and evaluates each constraint's L, R and O
// as it does (what h is computed from), for whole and partial reveals, with and without a fee.
func TestSolverSolvesAsGnarks(t *testing.T) {
	ccs, err := compiledCircuit()
	if err != nil {
		t.Fatal(err)
	}
	ours, err := solverCircuitOnce()
	if err != nil {
		t.Fatal(err)
	}
	fee := sampleRequest(t, 1000, 700)
	fee.Fee = &Fee{Amount: big.NewInt(30), Receiver: [20]byte{9}}
	for _, req := range []RevealRequest{sampleRequest(t, 1000, 1000), sampleRequest(t, 1000, 1), fee} {
		w, _, err := req.witness()
		if err != nil {
			t.Fatal(err)
		}
		solved, err := ccs.Solve(gnarkWitness{v: w.v})
		if err != nil {
			t.Fatal(err)
		}
		want := solved.(*cs.R1CSSolution)
		got, err := ours.solve(w.v)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string][2][]fr.Element{"wire": {got.wires, want.W}, "L": {got.a, want.A}, "R": {got.b, want.B}, "O": {got.c, want.C}} {
			if len(v[0]) != len(v[1]) {
				t.Fatalf("%d %s values, gnark's solver has %d", len(v[0]), name, len(v[1]))
			}
			for i := range v[0] {
				if !v[0][i].Equal(&v[1][i]) {
					t.Fatalf("%s %d differs from gnark's", name, i)
				}
			}
		}
	}
}

// A witness the circuit refuses (a root its path does not lead to) is an error, as it is for
// gnark's solver, not a proof.
func TestSolverRefusesAnUnsatisfiedWitness(t *testing.T) {
	ours, err := solverCircuitOnce()
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := sampleRequest(t, 1000, 1000).witness()
	if err != nil {
		t.Fatal(err)
	}
	w.v[0].SetUint64(12345) // the root
	if _, err := ours.solve(w.v); !errors.Is(err, ErrUnsatisfied) {
		t.Fatalf("%v, want ErrUnsatisfied", err)
	}
	req := sampleRequest(t, 1000, 1000)
	req.LeafIndex = 0 // another leaf's path
	if _, err := NewStreamProver(req); !errors.Is(err, ErrUnsatisfied) {
		t.Fatalf("a note not in the tree: %v, want ErrUnsatisfied", err)
	}
	if _, err := ours.solve(w.v[1:]); err == nil {
		t.Fatal("a witness one value short was solved")
	}
}

// A solver circuit cut short, longer, of another kind or version, or announcing more than it
// holds is refused, never a panic.
func TestBadSolverCircuitsAreRefused(t *testing.T) {
	data := solvecircuit.Circuit
	for _, n := range []int{0, 8, 35, 36, 36 + 32*5, len(data) / 2, len(data) - 1} {
		if _, err := readSolverCircuit(data[:n]); !errors.Is(err, errBadSolverCircuit) {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
	if _, err := readSolverCircuit(append(bytes.Clone(data), 0)); !errors.Is(err, errBadSolverCircuit) {
		t.Errorf("a byte more: %v", err)
	}
	for _, at := range []int{0, 8, 11, 12, 16, 20, 24, 28, 32} { // magic, version, each count
		b := bytes.Clone(data)
		b[at] ^= 0x80
		if _, err := readSolverCircuit(b); !errors.Is(err, errBadSolverCircuit) {
			t.Errorf("byte %d changed: %v", at, err)
		}
	}
}
