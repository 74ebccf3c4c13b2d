// Command floodbench floods a faucet on an in-process dev chain from many IPs with a bot that
// solves the proof of work on its cores, while honest claimants come at a steady rate and solve
// at a phone's pace, and reports what each got, the work asked, the faucet's cost to check a
// solution, and what the wallet paid against its budget (docs/faucet.md has the figures).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/big"
	"os"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/floodbench"
)

func main() {
	floodbench.ServeFaucetIfAsked()
	cfg := floodbench.Config{}
	flag.DurationVar(&cfg.Duration, "duration", 3*time.Minute, "how long the flood lasts")
	flag.DurationVar(&cfg.Window, "window", time.Minute, "the faucet's rate and spend window (an hour, scaled down)")
	flag.IntVar(&cfg.Total, "total", 60, "RATE_LIMIT_TOTAL per window")
	flag.IntVar(&cfg.SpendLimit, "spend-limit", 3000, "FAUCET_SPEND_LIMIT per window, whole native tokens (a claim is 100)")
	flag.Uint64Var(&cfg.Work, "work", 32, "FAUCET_POW_WORK")
	memory := flag.Uint("memory-kib", 8192, "FAUCET_POW_MEMORY_KIB")
	flag.IntVar(&cfg.IPs, "ips", 1000, "the bot's client IPs")
	flag.IntVar(&cfg.BotWorkers, "bot-cores", 1, "the bot's solvers, one a core")
	flag.DurationVar(&cfg.HonestEvery, "honest-every", 5*time.Second, "an honest claim starts this often")
	flag.Float64Var(&cfg.PhoneRate, "phone-rate", 10.1, "an honest phone's argon2id tries per second")
	burst := flag.Int("burst", 0, "instead of a flood: this many claims at once with bogus solutions (a random nonce each), the faucet in a process of its own")
	nets := flag.Int("nets", 256, "with -burst: the IPv6 /64s they come from")
	distinct := flag.Bool("distinct", false, "with -burst: a challenge for each claim (by default one challenge for all)")
	checks := flag.Int("checks", 0, "with -burst: FAUCET_POW_CHECKS (0: the faucet's default)")
	flag.Parse()
	cfg.MemoryKiB = uint32(*memory)
	dir, err := os.MkdirTemp("", "floodbench-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "floodbench:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	cfg.DataDir = dir
	if *burst > 0 {
		_, err := floodbench.Burst(context.Background(), floodbench.BurstConfig{Claims: *burst, Nets: *nets, Distinct: *distinct,
			MemoryKiB: cfg.MemoryKiB, Checks: *checks, DataDir: dir}, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "floodbench:", err)
			os.Exit(1) //nolint:gocritic // the temporary folder is left behind on failure
		}
		return
	}
	res, err := floodbench.Run(context.Background(), cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floodbench:", err)
		os.Exit(1) //nolint:gocritic // the temporary folder is left behind on failure
	}
	over := new(big.Int).Sub(res.MostInAWindow, res.Budget)
	if res.LastAmount != nil && over.Cmp(res.LastAmount) > 0 {
		fmt.Fprintln(os.Stderr, "floodbench: the faucet paid more than its budget and one claim within a window")
		os.Exit(1)
	}
}
