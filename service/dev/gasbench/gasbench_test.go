package gasbench_test

import (
	"context"
	"io"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/gasbench"
)

// Every profile's named parts account for its total (a real transaction's total is its
// receipt's, checked inside Run), leaving a small rest, the hashes counted are the tree's 20 levels (and the leaf's, for a
// commit), the overridden trees hold the leaves asked for, and the whole reveal verifies a proof.
func TestProfilesAddUp(t *testing.T) {
	res, err := gasbench.Run(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]map[int]bool{}
	for _, p := range res.Profiles {
		// Rest is what is left of the total once the named parts are taken out: parts counted
		// twice, or a refund missed, would make it wrap below zero (a huge number).
		if p.Rest >= p.Total/5 || p.Intrinsic < 21_000 || p.Intrinsic >= p.Total {
			t.Errorf("%s at %d leaves: %+v: the parts do not account for the total", p.Operation, p.Leaves, p)
		}
		want := map[string]int{"commit (the first into an empty tree)": 21, "commit": 21, "reveal whole": 0, "reveal part": 20}[p.Operation]
		if p.PoseidonCalls != want {
			t.Errorf("%s: %d Poseidon calls, want %d", p.Operation, p.PoseidonCalls, want)
		}
		if (p.Operation == "reveal whole" || p.Operation == "reveal part") && p.Verify == 0 {
			t.Errorf("%s: no verification counted", p.Operation)
		}
		if sizes[p.Operation] == nil {
			sizes[p.Operation] = map[int]bool{}
		}
		sizes[p.Operation][p.Leaves] = true
	}
	for _, op := range []string{"commit", "reveal part"} {
		if !sizes[op][1_000] || !sizes[op][100_000] {
			t.Errorf("%s: measured at %v leaves, want 1,000 and 100,000 among them", op, sizes[op])
		}
	}
}
