package gasbench_test

import (
	"context"
	"io"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/gasbench"
)

// Every profile's parts add up to its total (a real transaction's total is its receipt's,
// checked inside Run), the hashes counted are the tree's 20 levels (and the leaf's, for a
// commit), the overridden trees hold the leaves asked for, and the whole reveal verifies a proof.
func TestProfilesAddUp(t *testing.T) {
	res, err := gasbench.Run(context.Background(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]map[int]bool{}
	for _, p := range res.Profiles {
		if got := p.Intrinsic + p.Poseidon + p.Verify + p.Token + p.Storage + p.Rest - p.Refund; got != p.Total {
			t.Errorf("%s at %d leaves: parts add up to %d, total %d", p.Operation, p.Leaves, got, p.Total)
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
