package faucetbench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// The command's machinery works end to end on a small run; timings are reported, not asserted
// (targets belong to the command's report, run on a quiet machine). Exactly-once is asserted.
func TestRunSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{BlockTime: 100 * time.Millisecond, Singles: 1, Burst: 5, SameAddress: 10,
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
