package zk

import (
	"fmt"
	"math/big"
)

// TreeDepth is the depth of the vault's commitment tree (2^20 leaves).
const TreeDepth = 20

// zeros[i] is the root of an empty subtree of height i: zeros[0] = 0, zeros[i+1] = H(zeros[i], zeros[i]).
var zeros = func() (z [TreeDepth + 1]*big.Int) {
	z[0] = new(big.Int)
	for i := 1; i <= TreeDepth; i++ {
		z[i] = Poseidon(z[i-1], z[i-1])
	}
	return z
}()

// EmptyRoot is the root of the empty tree.
func EmptyRoot() *big.Int { return new(big.Int).Set(zeros[TreeDepth]) }

// EmptySubtreeRoot is the root of an empty subtree of height h (0 … TreeDepth); the on-chain
// tree holds the same as constants.
func EmptySubtreeRoot(h int) *big.Int { return new(big.Int).Set(zeros[h]) }

// Tree is an append-only Merkle tree of depth TreeDepth, the same as the on-chain one, kept in
// memory to compute paths. Rebuild it from the CommitmentInserted events, in leaf order.
type Tree struct {
	levels [TreeDepth + 1][]*big.Int // levels[0] are the leaves; missing nodes are zeros
}

// Append adds a leaf and returns its index.
func (t *Tree) Append(leaf *big.Int) (int, error) {
	index := len(t.levels[0])
	if index >= 1<<TreeDepth {
		return 0, fmt.Errorf("tree is full")
	}
	t.levels[0] = append(t.levels[0], new(big.Int).Set(leaf))
	i := index
	for level := 0; level < TreeDepth; level++ {
		left, right := t.node(level, i&^1), t.node(level, i|1)
		parent := Poseidon(left, right)
		p := i >> 1
		if p < len(t.levels[level+1]) {
			t.levels[level+1][p] = parent
		} else {
			t.levels[level+1] = append(t.levels[level+1], parent)
		}
		i = p
	}
	return index, nil
}

func (t *Tree) node(level, i int) *big.Int {
	if i < len(t.levels[level]) {
		return t.levels[level][i]
	}
	return zeros[level]
}

// Leaf returns leaf i.
func (t *Tree) Leaf(i int) *big.Int { return t.levels[0][i] }

// Len is the number of leaves.
func (t *Tree) Len() int { return len(t.levels[0]) }

// Root is the current root.
func (t *Tree) Root() *big.Int {
	if t.Len() == 0 {
		return EmptyRoot()
	}
	return t.levels[TreeDepth][0]
}

// Path returns the siblings of leaf index and the index's bits (0: the node is a left child).
func (t *Tree) Path(index int) (siblings [TreeDepth]*big.Int, bits [TreeDepth]uint, err error) {
	if index < 0 || index >= t.Len() {
		return siblings, bits, fmt.Errorf("no leaf %d in a tree of %d", index, t.Len())
	}
	for level := 0; level < TreeDepth; level++ {
		siblings[level] = t.node(level, index^1)
		bits[level] = uint(index & 1)
		index >>= 1
	}
	return siblings, bits, nil
}
