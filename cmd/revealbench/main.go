// Command revealbench times the same reveals through the relayer and directly (as card redeem
// --direct does) on an in-process dev chain, then a burst through the relayer, and prints the
// ratios against their targets (relayer/direct ≤ 1.25; a burst of 60 within 2 × one reveal).
// With --replicas 1,2,3 it measures replicas instead (redis-server must be installed): what
// REDIS_URL adds to one reveal, and reveals per minute through 1, 2, 3 relayers, each leasing
// its own key. With --fees N it measures fee-paying reveals: what the operator spent
// against the fees it earned at a fixed price, the time from quote to mined, and the gas.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/revealbench"
)

func main() {
	cfg := revealbench.Config{}
	flag.IntVar(&cfg.Singles, "singles", 15, "single reveals per path (median reported)")
	flag.IntVar(&cfg.Burst, "burst", 60, "reveals submitted at once through the relayer")
	flag.StringVar(&cfg.VKey, "vkey", "gen/zk/devkeys/verification_key.json", "verification key the relayer checks proofs with (\"\" for none)")
	flag.DurationVar(&cfg.BlockTime, "block-time", time.Second, "dev chain block time while timing (0: a block as soon as a transaction arrives)")
	flag.BoolVar(&cfg.Floor, "floor", true, "also time the node alone mining the burst as pre-signed transactions")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the burst to this file")
	replicas := flag.String("replicas", "", "measure replicas instead: the replica counts, e.g. 1,2,3")
	reveals := flag.Int("reveals", 120, "with --replicas: reveals sent at once per replica count (0: only the added latency)")
	spend := flag.String("spend-limit", "off", "with --replicas: the rounds' OPERATOR_SPEND_LIMIT, counted in Redis for the fleet (e.g. 100000/1h)")
	fees := flag.Int("fees", 0, "measure fee-paying reveals instead: this many, each quoted, proved with its fee and sent one after another")
	price := flag.String("price", "1000000", "with --fees: the token's price, wei per base unit (RELAYER_TOKEN_PRICES)")
	flag.Parse()
	if *fees > 0 {
		fc := revealbench.FeesConfig{Reveals: *fees, Price: *price, BlockTime: cfg.BlockTime, VKey: cfg.VKey}
		if _, err := revealbench.RunFees(context.Background(), fc, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "revealbench:", err)
			os.Exit(1)
		}
		return
	}
	if *replicas != "" {
		rc := revealbench.ReplicasConfig{Singles: cfg.Singles, Reveals: *reveals, BlockTime: cfg.BlockTime, VKey: cfg.VKey, SpendLimit: *spend}
		for _, s := range strings.Split(*replicas, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 1 {
				fmt.Fprintf(os.Stderr, "revealbench: --replicas %q: want counts like 1,2,3\n", *replicas)
				os.Exit(2)
			}
			rc.Replicas = append(rc.Replicas, n)
		}
		if _, err := revealbench.RunReplicas(context.Background(), rc, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "revealbench:", err)
			os.Exit(1)
		}
		return
	}
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
