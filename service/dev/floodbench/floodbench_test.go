package floodbench

import (
	"bytes"
	"context"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"
)

// The command's machinery works end to end on a short, cheap flood: both sides claim, each claim
// is counted as paid or refused, and the faucet pays no more within a window than its budget
// and the last claim it let through. The figures are the command's report.
func TestRunSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Duration: 3 * time.Second, Window: 2 * time.Second, Total: 20, SpendLimit: 500,
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

// A burst's faucet is this test binary run again (ServeFaucetIfAsked).
func TestMain(m *testing.M) {
	ServeFaucetIfAsked()
	os.Exit(m.Run())
}

// The burst's machinery works end to end on a small burst: the faucet runs in its own process,
// every claim is answered, the hashes are counted, /health is sampled and the memory read.
func TestBurstSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Burst(context.Background(), BurstConfig{Claims: 40, Nets: 20, Distinct: true, MemoryKiB: 64, DataDir: t.TempDir()}, &out)
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
