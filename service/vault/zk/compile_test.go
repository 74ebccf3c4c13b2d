package zk

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark/frontend"

	"github.com/seed018cc74c/vaultd/gen/zk/circuit"
)

// The compiled circuit LoadKeys reads (gen/zk/circuit) is the circuit as it is: what Compile
// writes, byte for byte (run `go generate ./service/vault/zk` after changing the circuit).
func TestTheCommittedCircuitIsCompiles(t *testing.T) {
	ccs, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := ccs.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), circuit.R1CS) {
		t.Fatalf("gen/zk/circuit/%s (%d bytes) is not the circuit compiled (%d bytes): run go generate ./service/vault/zk", CircuitFile, len(circuit.R1CS), b.Len())
	}
	keys, err := DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	if keys.Constraints() != ccs.GetNbConstraints() {
		t.Fatalf("the loaded circuit has %d constraints, the compiled one %d", keys.Constraints(), ccs.GetNbConstraints())
	}
}

// The witness Prove builds without gnark's frontend is frontend.NewWitness's for the same
// assignment: the same values in the same order.
func TestTheWitnessIsFrontends(t *testing.T) {
	var signals Signals
	for i := range signals {
		signals[i] = randomField(t)
	}
	secrets := []*big.Int{randomField(t), randomField(t), big.NewInt(1000), randomField(t), randomField(t)}
	var siblings [TreeDepth]*big.Int
	var bits [TreeDepth]uint
	assignment := &RevealCircuit{
		MerkleRoot: signals[SignalMerkleRoot], Nullifier: signals[SignalNullifier], Amount: signals[SignalAmount],
		Recipient: signals[SignalRecipient], ChangeCommitment: signals[SignalChangeCommitment], TokenID: signals[SignalTokenID],
		Secret: secrets[0], NullifierSecret: secrets[1], Value: secrets[2], ChangeSecret: secrets[3], ChangeNullifierSecret: secrets[4],
	}
	for i := range TreeDepth {
		siblings[i], bits[i] = randomField(t), uint(i%3%2)
		assignment.PathElements[i], assignment.PathIndices[i] = siblings[i], bits[i]
	}
	want, err := frontend.NewWitness(assignment, ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	got := witnessOf(signals, secrets, siblings, bits).v
	if w := want.Vector().(fr.Vector); !w.Equal(got) {
		t.Fatalf("the witness differs from frontend.NewWitness's:\n got %v\nwant %v", got, w)
	}
}
