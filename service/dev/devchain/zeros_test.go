package devchain_test

import (
	"math/big"
	"os"
	"regexp"
	"testing"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// The tree contract's empty-subtree roots are constants (contracts/CommitmentTree.sol, zeros()
// and EMPTY_ROOT): each must be the Go tree's, or every root the chain computes differs from the
// one a prover computes and no proof verifies.
func TestTheTreesZerosAreTheGoTrees(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("contracts/CommitmentTree.sol")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)function zeros\(\).*?return \[(.*?)\];`).FindSubmatch(src)
	if body == nil {
		t.Fatal("no zeros() in CommitmentTree.sol")
	}
	values := regexp.MustCompile(`(0x[0-9a-fA-F]+|\b0\b)`).FindAll(body[1], -1)
	if len(values) != zk.TreeDepth {
		t.Fatalf("zeros() holds %d values, want %d", len(values), zk.TreeDepth)
	}
	for h, v := range values {
		got, ok := new(big.Int).SetString(string(v), 0)
		if !ok || got.Cmp(zk.EmptySubtreeRoot(h)) != 0 {
			t.Errorf("zeros()[%d] = %s, want %#x", h, v, zk.EmptySubtreeRoot(h))
		}
	}
	root := regexp.MustCompile(`EMPTY_ROOT = (0x[0-9a-fA-F]+);`).FindSubmatch(src)
	if root == nil {
		t.Fatal("no EMPTY_ROOT in CommitmentTree.sol")
	}
	if got, _ := new(big.Int).SetString(string(root[1]), 0); got.Cmp(zk.EmptyRoot()) != 0 {
		t.Errorf("EMPTY_ROOT = %s, want %#x", root[1], zk.EmptyRoot())
	}
}
