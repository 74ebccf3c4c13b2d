// Command faucetbench measures the faucet on an in-process dev chain with a block time: one
// claim, a burst of claims for distinct addresses (target: all confirmed within 2 × one claim),
// a burst for one address (exactly one transaction), and the chain calls an idle faucet and an
// idle relayer make per minute (target ≤ 12).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/faucetbench"
)

func main() {
	cfg := faucetbench.Config{}
	flag.DurationVar(&cfg.BlockTime, "block-time", time.Second, "dev chain block time")
	flag.IntVar(&cfg.Singles, "singles", 5, "single claims (median reported)")
	flag.IntVar(&cfg.Burst, "burst", 100, "claims for distinct addresses at once")
	flag.IntVar(&cfg.SameAddress, "same-address", 50, "claims for one address at once")
	flag.DurationVar(&cfg.Idle, "idle", time.Minute, "how long to count idle chain calls (0: skip)")
	flag.Parse()
	dir, err := os.MkdirTemp("", "faucetbench-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "faucetbench:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	cfg.DataDir = dir
	res, err := faucetbench.Run(context.Background(), cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faucetbench:", err)
		os.Exit(1) //nolint:gocritic // the temporary folder is left behind on failure
	}
	if res.SameAccepted != 1 || res.SameTxs != 1 {
		fmt.Fprintln(os.Stderr, "faucetbench: claims for one address made more than one transaction")
		os.Exit(1)
	}
}
