package chaosbench

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
)

// A small run through faulty endpoints keeps every promise; the full run (500 claims, 200
// reveals) is the command's.
func TestRunSmall(t *testing.T) {
	var out bytes.Buffer
	res, err := Run(context.Background(), Config{Claims: 30, Reveals: 4, FaultRate: 0.15, Seed: 7, VKey: "../../../gen/zk/devkeys/verification_key.json"}, &out)
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
