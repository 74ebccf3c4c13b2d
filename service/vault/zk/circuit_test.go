package zk

import (
	"errors"
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/test"
	"github.com/vocdoni/gnark-crypto-primitives/hash/native/bn254/poseidon"
)

// poseidonCircuit asserts that the in-circuit Poseidon of In equals Out.
type poseidonCircuit struct {
	In  [3]frontend.Variable
	N   int               `gnark:"-"`
	Out frontend.Variable `gnark:",public"`
}

func (c *poseidonCircuit) Define(api frontend.API) error {
	h, err := poseidon.Hash(api, c.In[:c.N]...)
	if err != nil {
		return err
	}
	api.AssertIsEqual(h, c.Out)
	return nil
}

// The circuit's Poseidon (vocdoni's gnark gadget) agrees with go-iden3-crypto (circomlib's) for
// the 1, 2 and 3 inputs the reveal uses. The contract's side is in the devchain tests.
func TestCircuitPoseidonMatchesIden3(t *testing.T) {
	for n := 1; n <= 3; n++ {
		in := []*big.Int{big.NewInt(1), new(big.Int).Sub(ScalarField, big.NewInt(1)), randomField(t)}[:n]
		want := Poseidon(in...)
		a := &poseidonCircuit{N: n, Out: want}
		for i := range 3 {
			a.In[i] = 0
			if i < n {
				a.In[i] = in[i]
			}
		}
		if err := test.IsSolved(&poseidonCircuit{N: n}, a, ecc.BN254.ScalarField()); err != nil {
			t.Errorf("%d inputs: circuit Poseidon differs from go-iden3-crypto: %v", n, err)
		}
		a.Out = new(big.Int).Add(want, big.NewInt(1))
		if test.IsSolved(&poseidonCircuit{N: n}, a, ecc.BN254.ScalarField()) == nil {
			t.Errorf("%d inputs: a wrong hash is accepted", n)
		}
	}
	// circomlibjs 0.1.7: poseidon([1, 2]) (the circomlib test vector).
	if got := Poseidon(big.NewInt(1), big.NewInt(2)).String(); got != "7853200120776062878684798364095072458815029376092732009249414926327459813530" {
		t.Fatalf("Poseidon(1, 2) = %s", got)
	}
}

// The in-memory tree is a LeanIMT: checked against the definition (a level's node without a
// sibling rises unchanged, the others hash in pairs) computed from the leaves alone, and every
// leaf's path leads to the root, for each size from 0 to 70 leaves.
func TestTreeIsALeanIMT(t *testing.T) {
	tree := &Tree{}
	if tree.Root().Sign() != 0 {
		t.Fatal("the empty tree's root is not 0")
	}
	var leaves []*big.Int
	for n := 1; n <= 70; n++ {
		leaf := big.NewInt(int64(1000 + n))
		leaves = append(leaves, leaf)
		if i, err := tree.Append(leaf); err != nil || i != n-1 {
			t.Fatalf("append %d: %d, %v", n, i, err)
		}
		if want := leanRoot(leaves); tree.Root().Cmp(want) != 0 {
			t.Fatalf("%d leaves: root %s, want %s", n, tree.Root(), want)
		}
		for i, l := range leaves {
			siblings, bits, err := tree.Path(i)
			if err != nil {
				t.Fatal(err)
			}
			if rootOf(l, siblings, bits).Cmp(tree.Root()) != 0 {
				t.Fatalf("%d leaves: the path of leaf %d does not lead to the root", n, i)
			}
		}
	}
	one := &Tree{}
	one.Append(leaves[0])
	if one.Root().Cmp(leaves[0]) != 0 {
		t.Fatal("the root of one leaf is not that leaf")
	}
	if _, _, err := tree.Path(70); err == nil {
		t.Fatal("a path for a missing leaf")
	}
}

// leanRoot is the LeanIMT root of leaves, level by level.
func leanRoot(level []*big.Int) *big.Int {
	if len(level) == 0 {
		return new(big.Int)
	}
	for len(level) > 1 {
		var up []*big.Int
		for i := 0; i < len(level); i += 2 {
			if i+1 < len(level) {
				up = append(up, Poseidon(level[i], level[i+1]))
			} else {
				up = append(up, level[i])
			}
		}
		level = up
	}
	return level[0]
}

func TestProofsBindEverySignal(t *testing.T) {
	keys, err := DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	vk := keys.VerificationKey()
	proof, signals, _ := proveSample(t, keys, big.NewInt(1000), big.NewInt(400))
	if err := Verify(vk, proof, signals[:]); err != nil {
		t.Fatal(err)
	}
	if signals[SignalChangeCommitment].Sign() == 0 {
		t.Fatal("a partial reveal has no change commitment")
	}
	for i := range NumSignals {
		tampered := signals
		tampered[i] = new(big.Int).Add(signals[i], big.NewInt(1))
		if err := Verify(vk, proof, tampered[:]); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("signal %d tampered: err = %v, want an invalid proof", i, err)
		}
	}
	full, fullSignals, _ := proveSample(t, keys, big.NewInt(77), big.NewInt(77))
	if fullSignals[SignalChangeCommitment].Sign() != 0 {
		t.Fatal("a full reveal has a change commitment")
	}
	if err := Verify(vk, full, fullSignals[:]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := keys.Prove(RevealRequest{Note: Note{Secret: big.NewInt(1), NullifierSecret: big.NewInt(2), Value: big.NewInt(5), TokenID: big.NewInt(3)},
		Tree: &Tree{}, Amount: big.NewInt(6)}); err == nil {
		t.Fatal("proved a reveal of more than the note holds")
	}
}

// The circuit itself refuses amount > value and a wrong nullifier, whatever a prover does.
func TestCircuitRefusesOverdraw(t *testing.T) {
	tree := &Tree{}
	note := Note{Secret: big.NewInt(11), NullifierSecret: big.NewInt(12), Value: big.NewInt(50), TokenID: big.NewInt(13)}
	tree.Append(note.Leaf())
	siblings, bits, _ := tree.Path(0)
	assign := func(amount, nullifier *big.Int) *RevealCircuit {
		a := &RevealCircuit{MerkleRoot: tree.Root(), Nullifier: nullifier, Amount: amount, Recipient: 7, ChangeCommitment: 0, TokenID: note.TokenID,
			Secret: note.Secret, NullifierSecret: note.NullifierSecret, Value: note.Value, ChangeSecret: 0, ChangeNullifierSecret: 0}
		for i := range TreeDepth {
			a.PathElements[i], a.PathIndices[i] = siblings[i], bits[i]
		}
		return a
	}
	if err := test.IsSolved(&RevealCircuit{}, assign(big.NewInt(50), note.Nullifier()), ecc.BN254.ScalarField()); err != nil {
		t.Fatalf("a valid full reveal is not solved: %v", err)
	}
	if test.IsSolved(&RevealCircuit{}, assign(big.NewInt(51), note.Nullifier()), ecc.BN254.ScalarField()) == nil {
		t.Fatal("amount > value is solved")
	}
	if test.IsSolved(&RevealCircuit{}, assign(big.NewInt(50), big.NewInt(99)), ecc.BN254.ScalarField()) == nil {
		t.Fatal("a wrong nullifier is solved")
	}
}

// The circuit follows the LeanIMT: in a tree of three notes each one's path is solved (the third
// has no sibling at level 0, the first's level-1 sibling is the third risen unchanged); a path
// that claims a sibling missing where there is one, or takes a missing one for a hash with 0,
// is not.
func TestCircuitFollowsTheLeanTree(t *testing.T) {
	tree := &Tree{}
	var notes []Note
	for i := range 3 {
		n := Note{Secret: big.NewInt(int64(40 + i)), NullifierSecret: big.NewInt(int64(50 + i)), Value: big.NewInt(9), TokenID: big.NewInt(13)}
		notes = append(notes, n)
		tree.Append(n.Leaf())
	}
	assign := func(i int, edit func(siblings *[TreeDepth]*big.Int)) *RevealCircuit {
		note := notes[i]
		siblings, bits, err := tree.Path(i)
		if err != nil {
			t.Fatal(err)
		}
		edit(&siblings)
		a := &RevealCircuit{MerkleRoot: tree.Root(), Nullifier: note.Nullifier(), Amount: note.Value, Recipient: 7, ChangeCommitment: 0, TokenID: note.TokenID,
			Secret: note.Secret, NullifierSecret: note.NullifierSecret, Value: note.Value, ChangeSecret: 0, ChangeNullifierSecret: 0}
		for h := range TreeDepth {
			a.PathElements[h], a.PathIndices[h] = siblings[h], bits[h]
		}
		return a
	}
	keep := func(*[TreeDepth]*big.Int) {}
	for i := range notes {
		if err := test.IsSolved(&RevealCircuit{}, assign(i, keep), ecc.BN254.ScalarField()); err != nil {
			t.Fatalf("note %d of 3 is not solved: %v", i, err)
		}
	}
	if test.IsSolved(&RevealCircuit{}, assign(0, func(s *[TreeDepth]*big.Int) { s[0] = new(big.Int) }), ecc.BN254.ScalarField()) == nil {
		t.Fatal("a path claiming a missing sibling where there is one is solved")
	}
	// Hashing with an empty subtree (0) where the node has no sibling: a fixed-depth tree's root.
	fixed := assign(2, keep)
	if test.IsSolved(&RevealCircuit{}, fixed, ecc.BN254.ScalarField()) != nil {
		t.Fatal("note 2 is not solved")
	}
	fixed.MerkleRoot = Poseidon(Poseidon(tree.Leaf(0), tree.Leaf(1)), Poseidon(tree.Leaf(2), new(big.Int)))
	if test.IsSolved(&RevealCircuit{}, fixed, ecc.BN254.ScalarField()) == nil {
		t.Fatal("a root hashing the missing sibling as 0 is solved")
	}
}

func TestProofJSONRoundTripAndCallArgs(t *testing.T) {
	keys, _ := DevKeys()
	proof, signals, _ := proveSample(t, keys, big.NewInt(9), big.NewInt(9))
	j := proof.JSON()
	back, err := ParseProof(j)
	if err != nil || back != proof {
		t.Fatalf("round trip: %v", err)
	}
	a, b, c := proof.CallArgs()
	if a[0].String() != j.PiA[0] || c[1].String() != j.PiC[1] {
		t.Fatal("A or C moved")
	}
	if b[0][0].String() != j.PiB[0][1] || b[0][1].String() != j.PiB[0][0] || b[1][0].String() != j.PiB[1][1] || b[1][1].String() != j.PiB[1][0] {
		t.Fatal("pi_b is not swapped pairwise")
	}
	parsed, err := ParseSignals(signals.Hex())
	if err != nil || parsed[SignalTokenID].Cmp(signals[SignalTokenID]) != 0 {
		t.Fatalf("signals hex round trip: %v", err)
	}
}

func TestParseProofRefusesBadPoints(t *testing.T) {
	keys, _ := DevKeys()
	proof, _, _ := proveSample(t, keys, big.NewInt(9), big.NewInt(9))
	good := proof.JSON()
	q := BaseField.String()
	qPlusX := new(big.Int).Add(BaseField, new(big.Int).SetBytes(proof.A.X.Marshal())).String()
	mutate := func(f func(j *ProofJSON)) ProofJSON {
		j := ProofJSON{PiA: append([]string{}, good.PiA...), PiC: append([]string{}, good.PiC...)}
		for _, p := range good.PiB {
			j.PiB = append(j.PiB, append([]string{}, p...))
		}
		f(&j)
		return j
	}
	outside := g2OffSubgroup(t)
	for name, j := range map[string]ProofJSON{
		"short pi_a":          mutate(func(j *ProofJSON) { j.PiA = j.PiA[:2] }),
		"pi_a z not 1":        mutate(func(j *ProofJSON) { j.PiA[2] = "2" }),
		"coordinate = q":      mutate(func(j *ProofJSON) { j.PiA[0] = q }),
		"coordinate x + q":    mutate(func(j *ProofJSON) { j.PiA[0] = qPlusX }),
		"not a number":        mutate(func(j *ProofJSON) { j.PiC[0] = "12abc" }),
		"pi_a off the curve":  mutate(func(j *ProofJSON) { j.PiA[1] = "1" }),
		"pi_b off the curve":  mutate(func(j *ProofJSON) { j.PiB[0][0] = "1" }),
		"pi_b pairs swapped":  mutate(func(j *ProofJSON) { j.PiB[0][0], j.PiB[0][1] = j.PiB[0][1], j.PiB[0][0] }),
		"pi_b z not [1,0]":    mutate(func(j *ProofJSON) { j.PiB[2][1] = "1" }),
		"pi_b off subgroup":   mutate(func(j *ProofJSON) { j.PiB = outside }),
		"pi_b missing a pair": mutate(func(j *ProofJSON) { j.PiB = j.PiB[:2] }),
	} {
		if _, err := ParseProof(j); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("%s: err = %v, want an invalid proof", name, err)
		}
	}
	if _, err := ParseProof(mutate(func(j *ProofJSON) { j.PiA[0] = "0x" + new(big.Int).SetBytes(proof.A.X.Marshal()).Text(16) })); err != nil {
		t.Errorf("0x-hex coordinates: %v", err)
	}
}

// g2OffSubgroup finds a point on the G2 curve (the twist) that is not in the r-order subgroup.
func g2OffSubgroup(t *testing.T) [][]string {
	var b bn254.E2 // b' = 3 / (9 + u)
	b.A0.SetUint64(9)
	b.A1.SetUint64(1)
	b.Inverse(&b)
	var three fp.Element
	three.SetUint64(3)
	b.MulByElement(&b, &three)
	for i := uint64(1); i < 1000; i++ {
		var p bn254.G2Affine
		p.X.A0.SetUint64(i)
		var rhs bn254.E2
		rhs.Square(&p.X).Mul(&rhs, &p.X).Add(&rhs, &b)
		if rhs.Legendre() != 1 {
			continue
		}
		p.Y.Sqrt(&rhs)
		if p.IsOnCurve() && !p.IsInSubGroup() {
			return [][]string{{p.X.A0.String(), p.X.A1.String()}, {p.Y.A0.String(), p.Y.A1.String()}, {"1", "0"}}
		}
	}
	t.Fatal("no point off the subgroup found")
	return nil
}

// The circuit bounds the note's value itself (below 2^248), not only the amount and the change:
// soundness does not rest on the vault's MAX_AMOUNT alone.
func TestCircuitBoundsTheValue(t *testing.T) {
	two248 := new(big.Int).Lsh(big.NewInt(1), amountBits)
	assign := func(value *big.Int) *RevealCircuit {
		note := Note{Secret: big.NewInt(21), NullifierSecret: big.NewInt(22), Value: value, TokenID: big.NewInt(23)}
		tree := &Tree{}
		tree.Append(note.Leaf())
		siblings, bits, _ := tree.Path(0)
		amount := new(big.Int).Rsh(two248, 1) // 2^247: amount and change both fit 248 bits
		change := new(big.Int).Sub(value, amount)
		changeSecret, changeNullifier := big.NewInt(31), big.NewInt(32)
		a := &RevealCircuit{MerkleRoot: tree.Root(), Nullifier: note.Nullifier(), Amount: amount, Recipient: 7,
			ChangeCommitment: Leaf(Commitment(changeSecret, changeNullifier), change, note.TokenID), TokenID: note.TokenID,
			Secret: note.Secret, NullifierSecret: note.NullifierSecret, Value: note.Value, ChangeSecret: changeSecret, ChangeNullifierSecret: changeNullifier}
		for i := range TreeDepth {
			a.PathElements[i], a.PathIndices[i] = siblings[i], bits[i]
		}
		return a
	}
	if err := test.IsSolved(&RevealCircuit{}, assign(new(big.Int).Sub(two248, big.NewInt(1))), ecc.BN254.ScalarField()); err != nil {
		t.Fatalf("a note worth 2^248 − 1 is not solved: %v", err)
	}
	if test.IsSolved(&RevealCircuit{}, assign(new(big.Int).Add(two248, big.NewInt(5))), ecc.BN254.ScalarField()) == nil {
		t.Fatal("a note worth 2^248 + 5 is solved")
	}
}

// rootOf is the root a path leads to from leaf: what the circuit computes.
func rootOf(leaf *big.Int, siblings [TreeDepth]*big.Int, bits [TreeDepth]uint) *big.Int {
	node := leaf
	for h := range TreeDepth {
		switch {
		case siblings[h].Sign() == 0:
		case bits[h] == 0:
			node = Poseidon(node, siblings[h])
		default:
			node = Poseidon(siblings[h], node)
		}
	}
	return node
}
