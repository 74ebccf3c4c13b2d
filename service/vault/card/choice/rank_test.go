package choice

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// Rank draws the first among the fees within the margin of the cheapest (each of them, over
// draws), puts the rest of those next and the dearer ones after, by fee; a margin of none keeps
// only the cheapest first.
func TestRankDrawsWithinTheMargin(t *testing.T) {
	kept := func(fees ...int64) []Kept {
		var out []Kept
		for i, f := range fees {
			out = append(out, Kept{Candidate: Candidate{Name: string(rune('a' + i))}, Fee: big.NewInt(f)})
		}
		return out
	}
	in := kept(300, 105, 100, 111, 110) // within 10 % of 100: 100, 105, 110
	first := map[string]int{}
	for seed := range uint64(200) {
		out := Rank(in, 1000, rand.New(rand.NewPCG(seed, 0)))
		first[out[0].Name]++
		near := map[string]bool{}
		for _, k := range out[:3] {
			near[k.Name] = true
		}
		if !near["b"] || !near["c"] || !near["e"] || out[3].Name != "d" || out[4].Name != "a" {
			t.Fatalf("seed %d: %v", seed, names(out))
		}
	}
	if len(first) != 3 {
		t.Fatalf("firsts over 200 draws: %v, want each of b, c, e", first)
	}
	if out := Rank(in, 0, rand.New(rand.NewPCG(1, 2))); out[0].Name != "c" || out[1].Name != "b" {
		t.Fatalf("no margin: %v", names(out))
	}
}

func names(ks []Kept) []string {
	var out []string
	for _, k := range ks {
		out = append(out, k.Name)
	}
	return out
}
