// Command chaosbench runs the faucet and the relayer (and the indexer) on an in-process dev
// chain through two RPC endpoints behind fault proxies that inject, at random, the faults of
// hosted providers: sends forwarded and their answers lost, endpoints refusing, receipts that
// lag their headers, a fallback behind the head. It checks that every claimed address was paid
// exactly once, every reveal sent one transaction, the wallets' nonces have no gap, no
// acknowledged claim was lost and the indexer's events equal the chain's logs, and prints the
// faults injected and the money moved. It exits 1 when a promise broke.
//
//	go run ./cmd/chaosbench [--claims 500] [--reveals 200] [--fault-rate 0.1] [--seed 1]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/seed018cc74c/vaultd/service/dev/chaosbench"
)

func main() {
	cfg := chaosbench.Config{}
	flag.IntVar(&cfg.Claims, "claims", 500, "faucet claims, each to a fresh address")
	flag.IntVar(&cfg.Reveals, "reveals", 200, "reveals through the relayer, each of its own card (proved before the run)")
	flag.Float64Var(&cfg.FaultRate, "fault-rate", 0.1, "the share of requests to each endpoint that get a fault")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "the faults' random seed")
	flag.StringVar(&cfg.VKey, "vkey", "gen/zk/devkeys/verification_key.json", "verification key the relayer checks proofs with (\"\" for none)")
	flag.Parse()
	// The services' own log lines (every endpoint switch is one) would bury the report.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
	if _, err := chaosbench.Run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "chaosbench:", err)
		os.Exit(1)
	}
}
