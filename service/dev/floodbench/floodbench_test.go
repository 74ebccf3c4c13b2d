package floodbench

import (
	"bytes"
	"context"
	"math/big"
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
