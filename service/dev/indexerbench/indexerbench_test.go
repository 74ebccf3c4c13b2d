package indexerbench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets Run re-execute this test binary as its indexer child.
func TestMain(m *testing.M) {
	if os.Getenv(ChildEnv) != "" {
		if err := Child(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// The command's machinery works end to end on a small run; figures are reported, not asserted.
func TestRunSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Events: 300, PerTx: 100, Commits: 2, Block: 100 * time.Millisecond, DataDir: t.TempDir()}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Blocks != 3 || res.Backfill <= 0 || res.Floor <= 0 || res.RSSSecondHalf == 0 || !strings.Contains(out.String(), "of the floor") {
		t.Fatalf("result %+v, report %q", res, out.String())
	}
}
