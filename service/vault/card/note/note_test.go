package note_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func devKeys(t testing.TB) *zk.Keys {
	k, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sample is a card of 1000 whose leaf is the second of a tree of two.
func sample(t testing.TB) (note.Card, *zk.Tree) {
	c := note.Card{ChainID: 1337, Vault: common.HexToAddress("0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2"),
		Token: common.HexToAddress("0x2D66D37637CE3979e9D15B91221e77fbbc827d5a"), Amount: big.NewInt(1000)}
	var err error
	if c.Secret, c.NullifierSecret, err = note.NewSecrets(); err != nil {
		t.Fatal(err)
	}
	n, err := c.Note()
	if err != nil {
		t.Fatal(err)
	}
	var tree zk.Tree
	tree.Append(big.NewInt(1))
	tree.Append(n.Leaf())
	return c, &tree
}

// A partial reveal makes a change card of what is left, with secrets of its own, whose leaf is
// the proof's change commitment; its string reads back as itself; the proof verifies.
func TestPartialRevealMakesTheChangeCard(t *testing.T) {
	keys := devKeys(t)
	c, tree := sample(t)
	recipient := common.HexToAddress("0x1111111111111111111111111111111111111111")
	req, change, err := note.ProveFrom(keys, c, tree, recipient, big.NewInt(400))
	if err != nil {
		t.Fatal(err)
	}
	if change == nil || change.Amount.Int64() != 600 || change.Secret.Cmp(c.Secret) == 0 || change.Token != c.Token {
		t.Fatalf("change card %+v", change)
	}
	again, err := note.Parse(change.String())
	if err != nil || again.String() != change.String() {
		t.Fatalf("the change card does not read back: %v", err)
	}
	cn, _ := change.Note()
	signals, err := zk.ParseSignals(req.PublicSignals)
	if err != nil {
		t.Fatal(err)
	}
	if signals[zk.SignalChangeCommitment].Cmp(cn.Leaf()) != 0 || req.Amount != "400" {
		t.Fatalf("signals %v, amount %s", signals, req.Amount)
	}
	proof, err := zk.ParseProof(req.Proof)
	if err != nil {
		t.Fatal(err)
	}
	if err := zk.Verify(keys.VerificationKey(), proof, signals[:]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := note.ProveFrom(keys, c, &zk.Tree{}, recipient, nil); err != note.ErrUnknownCard {
		t.Fatalf("a card not in the tree: %v", err)
	}
}

// BenchmarkProveFrom is the native prover's time for a full reveal, the figure the browser's
// (web/example, .ci/browser-test) is compared with.
func BenchmarkProveFrom(b *testing.B) {
	keys := devKeys(b)
	c, tree := sample(b)
	recipient := common.HexToAddress("0x1111111111111111111111111111111111111111")
	for b.Loop() {
		if _, _, err := note.ProveFrom(keys, c, tree, recipient, nil); err != nil {
			b.Fatal(err)
		}
	}
}
