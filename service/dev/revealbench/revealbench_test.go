package revealbench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// The command's machinery works end to end on a small run; timings are reported, not asserted
// (targets belong to the command's report, run on a quiet machine).
func TestRunSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{
		Singles: 2, Burst: 4, VKey: "../../../gen/zk/devkeys/verification_key.json",
		BlockTime: 100 * time.Millisecond, Floor: true,
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
func TestRunFeesSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := RunFees(context.Background(), FeesConfig{Reveals: 2, Price: "1000000", VKey: "../../../gen/zk/devkeys/verification_key.json"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Spent.Sign() <= 0 || res.Ratio < 1 || res.GasWhole == 0 || res.GasPartial == 0 || !strings.Contains(out.String(), "ratio") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}
