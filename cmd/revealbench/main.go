// Command revealbench times the same reveals through the relayer and directly (as card redeem
// --direct does) on an in-process dev chain, then a burst through the relayer, and prints the
// ratios against their targets (relayer/direct ≤ 1.25; a burst of 60 within 2 × one reveal).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/seed018cc74c/vaultd/service/revealbench"
)

func main() {
	cfg := revealbench.Config{}
	flag.IntVar(&cfg.Singles, "singles", 15, "single reveals per path (median reported)")
	flag.IntVar(&cfg.Burst, "burst", 60, "reveals submitted at once through the relayer")
	flag.StringVar(&cfg.VKey, "vkey", "gen/zk/devkeys/verification_key.json", "verification key the relayer checks proofs with (\"\" for none)")
	flag.DurationVar(&cfg.BlockTime, "block-time", time.Second, "dev chain block time while timing (0: a block as soon as a transaction arrives)")
	flag.BoolVar(&cfg.Floor, "floor", true, "also time the node alone mining the burst as pre-signed transactions")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the burst to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "revealbench:", err)
			os.Exit(1)
		}
		defer f.Close()
		cfg.CPUProfile = f
	}
	if _, err := revealbench.Run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "revealbench:", err)
		os.Exit(1) //nolint:gocritic // the profile file is closed by the OS
	}
}
