package benchsmoke_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/big"
	"math/bits"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/chaosbench"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/faucetbench"
	"github.com/seed018cc74c/vaultd/service/dev/floodbench"
	"github.com/seed018cc74c/vaultd/service/dev/gasbench"
	"github.com/seed018cc74c/vaultd/service/dev/indexerbench"
	"github.com/seed018cc74c/vaultd/service/dev/revealbench"
)

// vkey is the dev verification key the relayers of the small runs verify with.
const vkey = "../../../gen/zk/devkeys/verification_key.json"

// TestMain serves the benches' child processes, this test binary run again: floodbench's burst
// faucet and indexerbench's indexer.
func TestMain(m *testing.M) {
	floodbench.ServeFaucetIfAsked()
	if os.Getenv(indexerbench.ChildEnv) != "" {
		if err := indexerbench.Child(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// A small run through faulty endpoints keeps every promise; the full run (500 claims, 200
// reveals) is the command's.
func TestChaosbench(t *testing.T) {
	var out bytes.Buffer
	res, err := chaosbench.Run(context.Background(), chaosbench.Config{Claims: 30, Reveals: 4, FaultRate: 0.15, Seed: 7, VKey: vkey}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	injected := 0
	for _, n := range res.Faults {
		injected += n
	}
	if res.Claims != 30 || res.Reveals != 4 || res.FaucetTxs != 30 || res.OperatorTxs != 4 || injected == 0 || res.Faults[devchain.LoseAnswer]+res.Faults[devchain.Throttle]+res.Faults[devchain.Drop] == 0 {
		t.Fatalf("result %+v\n%s", res, out.String())
	}
	if !strings.Contains(out.String(), "every promise held") {
		t.Fatal(out.String())
	}
}

// The faucet bench's machinery works end to end on a small run; timings are reported, not
// asserted. Exactly-once is asserted.
func TestFaucetbench(t *testing.T) {
	var out bytes.Buffer
	res, err := faucetbench.Run(context.Background(), faucetbench.Config{BlockTime: 100 * time.Millisecond, Singles: 1, Burst: 5, SameAddress: 10,
		Idle: 500 * time.Millisecond, DataDir: t.TempDir()}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Single <= 0 || res.Burst <= 0 || res.BurstBlocks < 1 || res.SameAccepted != 1 || res.SameTxs != 1 ||
		!strings.Contains(out.String(), "ratio") || !strings.Contains(out.String(), "idle") ||
		!strings.Contains(out.String(), "replacement(s)") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}

// A short, cheap flood: both sides claim, each claim is counted as paid or refused, and the
// faucet pays no more within a window than its budget and the last claim it let through.
func TestFloodbench(t *testing.T) {
	var out bytes.Buffer
	res, err := floodbench.Run(context.Background(), floodbench.Config{Duration: 3 * time.Second, Window: 2 * time.Second, Total: 20, SpendLimit: 500,
		Work: 2, MemoryKiB: 64, IPs: 50, BotWorkers: 1, HonestEvery: 500 * time.Millisecond, PhoneRate: 1000, DataDir: t.TempDir()}, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	if res.Bot.Paid == 0 || res.Honest.Tries == 0 || res.MaxWork < 2 || res.VerifyMean <= 0 || !strings.Contains(out.String(), "wallet:") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
	if limit := new(big.Int).Add(res.Budget, res.LastAmount); res.MostInAWindow.Cmp(limit) > 0 {
		t.Fatalf("paid %v within a window; the budget is %v", res.MostInAWindow, res.Budget)
	}
}

// A small burst: the faucet runs in its own process (TestMain), every claim is answered, the
// hashes are counted, /health is sampled and the memory read.
func TestFloodbenchBurst(t *testing.T) {
	var out bytes.Buffer
	res, err := floodbench.Burst(context.Background(), floodbench.BurstConfig{Claims: 40, Nets: 20, Distinct: true, MemoryKiB: 64, DataDir: t.TempDir()}, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	answered := 0
	for answer, n := range res.Answers {
		if answer != "403 POW_INVALID" && answer != "503 UNAVAILABLE" {
			t.Errorf("answer %q (%d)", answer, n)
		}
		answered += n
	}
	if answered != 40 || res.Hashes < 1 || res.Hashes > 40 || res.PeakRSS < res.BaseRSS || res.BaseRSS == 0 || len(res.Health) == 0 {
		t.Fatalf("result %+v", res)
	}
}

// Every profile's named parts account for its total (a real transaction's total is its
// receipt's, checked inside Run), leaving a small rest; an insertion hashes once per 1-bit of its
// index (and once more for a commit's leaf); the overridden trees hold the leaves asked for; and
// the reveals verify a proof.
func TestGasbench(t *testing.T) {
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

// The indexer bench's machinery works end to end on a small run (its indexer a child process:
// TestMain); figures are reported, not asserted.
func TestIndexerbench(t *testing.T) {
	var out bytes.Buffer
	res, err := indexerbench.Run(context.Background(), indexerbench.Config{Events: 300, PerTx: 100, Commits: 2, Block: 100 * time.Millisecond, DataDir: t.TempDir()}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Blocks != 3 || res.Backfill <= 0 || res.Floor <= 0 || res.RSSSecondHalf == 0 || !strings.Contains(out.String(), "of the floor") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}

// The reveal bench's machinery works end to end on a small run; timings are reported, not
// asserted.
func TestRevealbench(t *testing.T) {
	var out bytes.Buffer
	res, err := revealbench.Run(context.Background(), revealbench.Config{
		Singles: 2, Burst: 4, VKey: vkey, BlockTime: 100 * time.Millisecond, Floor: true,
	}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.BurstN != 4 || res.BurstBlocks < 1 || res.Direct <= 0 || res.Relayer <= 0 || res.Floor <= 0 ||
		!strings.Contains(out.String(), "ratio") || !strings.Contains(out.String(), "block time 100ms") ||
		!strings.Contains(out.String(), "replacement") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}

// The fee measurement's machinery works end to end on a small run, and the fees pay for what
// the operator spent at the default margin.
func TestRevealbenchFees(t *testing.T) {
	var out bytes.Buffer
	res, err := revealbench.RunFees(context.Background(), revealbench.FeesConfig{Reveals: 2, Price: "1000000", VKey: vkey}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Spent.Sign() <= 0 || res.Ratio < 1 || res.GasWhole == 0 || res.GasPartial == 0 || !strings.Contains(out.String(), "ratio") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}
