package gasbench_test

import (
	"context"
	"io"
	"math/bits"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/gasbench"
)

// Every profile's named parts account for its total (a real transaction's total is its
// receipt's, checked inside Run), leaving a small rest; an insertion hashes once per 1-bit of its
// index (and once more for a commit's leaf); the overridden trees hold the leaves asked for; and
// the reveals verify a proof.
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
		if p.Estimate != 0 && p.Estimate < p.Total {
			t.Errorf("%s at %d leaves: estimated %d gas, below the %d it uses", p.Operation, p.Leaves, p.Estimate, p.Total)
		}
		want := 0 // a whole reveal inserts nothing
		switch p.Operation {
		case "commit (the first into an empty tree)", "commit":
			want = bits.OnesCount(uint(p.Leaves)) + 1
		case "reveal part", "reveal part, fee":
			want = bits.OnesCount(uint(p.Leaves))
		}
		if p.PoseidonCalls != want {
			t.Errorf("%s at %d leaves: %d Poseidon calls, want %d", p.Operation, p.Leaves, p.PoseidonCalls, want)
		}
		if strings.HasPrefix(p.Operation, "reveal") && p.Verify == 0 {
			t.Errorf("%s: no verification counted", p.Operation)
		}
		if sizes[p.Operation] == nil {
			sizes[p.Operation] = map[int]bool{}
		}
		sizes[p.Operation][p.Leaves] = true
	}
	for _, op := range []string{"commit", "reveal part", "reveal part, fee"} {
		for _, n := range gasbench.Sizes {
			if !sizes[op][n] {
				t.Errorf("%s: measured at %v leaves, want %d among them", op, sizes[op], n)
			}
		}
	}
}
