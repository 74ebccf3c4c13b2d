// Command indexerbench measures the indexer on an in-process dev chain: the backfill of many
// vault-shaped events against the floor of fetching the same receipts (target ≥ 0.7), the heap
// while backfilling (flat), and the lag behind the head under a stream of commits.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/indexerbench"
)

func main() {
	if os.Getenv(indexerbench.ChildEnv) != "" { // the indexer process whose memory the bench samples
		if err := indexerbench.Child(); err != nil {
			fmt.Fprintln(os.Stderr, "indexerbench child:", err)
			os.Exit(1)
		}
		return
	}
	cfg := indexerbench.Config{}
	flag.IntVar(&cfg.Events, "events", 100_000, "events to backfill")
	flag.IntVar(&cfg.PerTx, "per-tx", 2_000, "events per transaction (one transaction per block)")
	flag.IntVar(&cfg.Commits, "commits", 20, "commits made while measuring the lag (0: skip)")
	flag.DurationVar(&cfg.Block, "block-time", time.Second, "block time while measuring the lag")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the backfill to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "indexerbench:", err)
			os.Exit(1)
		}
		defer f.Close()
		cfg.CPUProfile = f
	}
	dir, err := os.MkdirTemp("", "indexerbench-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "indexerbench:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	cfg.DataDir = dir
	if _, err := indexerbench.Run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "indexerbench:", err)
		os.Exit(1) //nolint:gocritic // the temporary folder is left behind on failure
	}
}
