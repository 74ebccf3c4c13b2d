package zk

import (
	"fmt"
	"math/big"
)

// TreeDepth is the most levels the vault's commitment tree has (2^20 leaves): the circuit
// proves paths of this many levels.
const TreeDepth = 20

// Tree is the vault's commitment tree kept in memory to compute paths: a lean incremental
// Merkle tree (LeanIMT, as Semaphore v4's), the same as the on-chain one. A node with no right
// sibling is its parent unchanged; a node with both children is Poseidon(left, right). The root
// of one leaf is that leaf; the empty tree's root is 0. Rebuild it from the CommitmentInserted
// events, in leaf order.
type Tree struct {
	levels [TreeDepth + 1][]*big.Int // levels[0] are the leaves; level h+1 has ⌈len(level h)/2⌉ nodes
}

// Append adds a leaf and returns its index.
func (t *Tree) Append(leaf *big.Int) (int, error) {
	index := len(t.levels[0])
	if index >= 1<<TreeDepth {
		return 0, fmt.Errorf("tree is full")
	}
	t.levels[0] = append(t.levels[0], new(big.Int).Set(leaf))
	i := index
	for h := 0; h < TreeDepth; h++ {
		parent := t.levels[h][i]
		if i&1 == 1 {
			parent = Poseidon(t.levels[h][i-1], parent)
		}
		p := i >> 1
		if p < len(t.levels[h+1]) {
			t.levels[h+1][p] = parent
		} else {
			t.levels[h+1] = append(t.levels[h+1], parent)
		}
		i = p
	}
	return index, nil
}

// Leaf returns leaf i.
func (t *Tree) Leaf(i int) *big.Int { return t.levels[0][i] }

// Len is the number of leaves.
func (t *Tree) Len() int { return len(t.levels[0]) }

// Root is the current root (0 for the empty tree).
func (t *Tree) Root() *big.Int {
	if t.Len() == 0 {
		return new(big.Int)
	}
	return t.levels[TreeDepth][0]
}

// Path returns the siblings of leaf index and the index's bits (0: the node is a left child),
// level by level. A node with no sibling (the last of its level, a left child) has sibling 0:
// it rises unchanged, as the circuit has it.
func (t *Tree) Path(index int) (siblings [TreeDepth]*big.Int, bits [TreeDepth]uint, err error) {
	if index < 0 || index >= t.Len() {
		return siblings, bits, fmt.Errorf("no leaf %d in a tree of %d", index, t.Len())
	}
	for h := 0; h < TreeDepth; h++ {
		bits[h] = uint(index & 1)
		siblings[h] = new(big.Int)
		if s := index ^ 1; s < len(t.levels[h]) {
			siblings[h] = t.levels[h][s]
		}
		index >>= 1
	}
	return siblings, bits, nil
}
