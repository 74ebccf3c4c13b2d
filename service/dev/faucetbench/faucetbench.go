// Package faucetbench measures the faucet on an in-process dev chain with a block time: one
// claim until confirmed, then many claims for distinct addresses at once until all are
// confirmed (the faucet pipelines them like the relayer: consecutive nonces, no waiting for each
// other), then many claims for one address at once (exactly one transaction), then how many
// chain calls an idle faucet and an idle relayer make per minute. It is what
// `go run ./cmd/faucetbench` runs.
package faucetbench

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

// Config says what to measure.
type Config struct {
	BlockTime   time.Duration // the dev chain's block time while timing
	Singles     int           // single claims (median reported)
	Burst       int           // claims for distinct addresses at once
	SameAddress int           // claims for one address at once
	Idle        time.Duration // how long to count an idle faucet's and relayer's chain calls (0: skip)
	DataDir     string        // where the faucet's store goes
}

// Result holds the measurements.
type Result struct {
	Single        time.Duration // median: request until confirmed
	Burst         time.Duration // until every burst claim was confirmed
	BurstRatio    float64       // Burst / Single (target ≤ 2)
	BurstBlocks   int           // blocks from the burst's first to its last, both included
	BurstReplaced int           // replacement transactions the faucet sent during the burst (target 0)
	SameAccepted  int           // 202s among the SameAddress claims (must be 1)
	SameTxs       uint64        // transactions the faucet sent for them (must be 1)
	IdleFaucet    float64       // chain calls per minute of an idle faucet (target ≤ 12)
	IdleRelayer   float64       // chain calls per minute of an idle relayer (target ≤ 12)
	IdleByMethodF map[string]int
	IdleByMethodR map[string]int
}

// Run measures on a fresh dev chain and writes a report to out.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	var res Result
	dev, err := devchain.Start(ctx, devchain.Config{})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	dev.SetBlockTime(cfg.BlockTime)
	faucetCalls, err := devchain.CountCalls(dev.RPCURL)
	if err != nil {
		return res, err
	}
	defer faucetCalls.Close()
	relayerCalls, err := devchain.CountCalls(dev.RPCURL)
	if err != nil {
		return res, err
	}
	defer relayerCalls.Close()

	fenv := devstack.FaucetEnv(dev, filepath.Join(cfg.DataDir, "faucet.db"))
	maps.Copy(fenv, map[string]string{"RPC_URL": faucetCalls.URL, "RATE_LIMIT_PER_IP": "1000000/1h", "RATE_LIMIT_TOTAL": "1000000/1h", "LOG_LEVEL": "warn"})
	fcfg, err := faucet.LoadConfig(func(k string) string { return fenv[k] })
	if err != nil {
		return res, err
	}
	fsvc, err := faucet.New(ctx, fcfg, faucet.Options{})
	if err != nil {
		return res, err
	}
	furl, stopFaucet, err := edge.ServeLoopback(ctx, fsvc.Handler(), fsvc.Start, fsvc.Close)
	if err != nil {
		return res, err
	}
	defer stopFaucet()
	client, err := faucetapi.NewClientWithResponses(furl)
	if err != nil {
		return res, err
	}
	renv := devstack.RelayerEnv(dev, "", filepath.Join(cfg.DataDir, "relayer.db"))
	renv["RPC_URL"] = relayerCalls.URL
	rcfg, err := relayer.LoadConfig(func(k string) string { return renv[k] })
	if err != nil {
		return res, err
	}
	rsvc, err := relayer.New(ctx, rcfg, relayer.Options{})
	if err != nil {
		return res, err
	}
	_, stopRelayer, err := edge.ServeLoopback(ctx, rsvc.Handler(), rsvc.Start, rsvc.Close)
	if err != nil {
		return res, err
	}
	defer stopRelayer()

	fmt.Fprintf(out, "faucetbench: dev chain with block time %s, faucet at %s\n", cfg.BlockTime, furl)
	var singles []time.Duration
	for range cfg.Singles {
		start := time.Now()
		if _, err := claimAll(ctx, client, []common.Address{fresh()}); err != nil {
			return res, err
		}
		singles = append(singles, time.Since(start))
	}
	slices.Sort(singles)
	if len(singles) > 0 {
		res.Single = singles[len(singles)/2]
	}
	fmt.Fprintf(out, "  one claim, request to confirmed (median of %d): %s\n", cfg.Singles, res.Single.Round(time.Millisecond))

	addrs := make([]common.Address, cfg.Burst)
	for i := range addrs {
		addrs[i] = fresh()
	}
	replaced, err := devstack.Counter(ctx, furl, replacements)
	if err != nil {
		return res, err
	}
	start := time.Now()
	blocks, err := claimAll(ctx, client, addrs)
	if err != nil {
		return res, err
	}
	res.Burst = time.Since(start)
	total, err := devstack.Counter(ctx, furl, replacements)
	if err != nil {
		return res, err
	}
	res.BurstReplaced = int(total - replaced)
	if res.Single > 0 {
		res.BurstRatio = float64(res.Burst) / float64(res.Single)
	}
	res.BurstBlocks = int(slices.Max(blocks)-slices.Min(blocks)) + 1
	fmt.Fprintf(out, "  %d claims for distinct addresses at once, all confirmed: %s, %d block(s), %d replacement(s): ratio %.2f × one claim (target ≤ 2, no replacement)\n",
		cfg.Burst, res.Burst.Round(time.Millisecond), res.BurstBlocks, res.BurstReplaced, res.BurstRatio)

	before, err := dev.Client().NonceAt(ctx, dev.Accounts.Faucet.Address, nil)
	if err != nil {
		return res, err
	}
	one := fresh()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range cfg.SameAddress {
		wg.Go(func() {
			r, err := client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: one.Hex()})
			if err == nil && r.StatusCode() == 202 {
				mu.Lock()
				res.SameAccepted++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if _, err := waitConfirmed(ctx, client, []common.Address{one}); err != nil {
		return res, err
	}
	after, err := dev.Client().NonceAt(ctx, dev.Accounts.Faucet.Address, nil)
	if err != nil {
		return res, err
	}
	res.SameTxs = after - before
	fmt.Fprintf(out, "  %d claims for one address at once: %d accepted, %d transaction(s) (must be 1 and 1)\n", cfg.SameAddress, res.SameAccepted, res.SameTxs)

	if cfg.Idle > 0 {
		time.Sleep(time.Second) // the last round of the watch loops ends
		faucetCalls.Take()
		relayerCalls.Take()
		time.Sleep(cfg.Idle)
		var f, r int
		res.IdleByMethodF, f = faucetCalls.Take()
		res.IdleByMethodR, r = relayerCalls.Take()
		res.IdleFaucet, res.IdleRelayer = float64(f)/cfg.Idle.Minutes(), float64(r)/cfg.Idle.Minutes()
		fmt.Fprintf(out, "  idle for %s with the default BALANCE_POLL_INTERVAL: faucet %.1f chain calls/min %v, relayer %.1f/min %v (target ≤ 12)\n",
			cfg.Idle, res.IdleFaucet, sorted(res.IdleByMethodF), res.IdleRelayer, sorted(res.IdleByMethodR))
	}
	return res, nil
}

// replacements is the faucet's count of the replacement transactions it sent (fee bumps of
// transactions not mined in time).
const replacements = "vaultd_faucet_transaction_replacements_total"

// claimAll claims for every address at once and waits until all are confirmed; it returns the
// blocks they were confirmed in.
func claimAll(ctx context.Context, client *faucetapi.ClientWithResponses, addrs []common.Address) ([]int64, error) {
	errs := make(chan error, len(addrs))
	var wg sync.WaitGroup
	for _, a := range addrs {
		wg.Go(func() {
			r, err := client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: a.Hex()})
			if err == nil && r.StatusCode() != 202 {
				err = fmt.Errorf("claim for %s: %d %s", a.Hex(), r.StatusCode(), r.Body)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	return waitConfirmed(ctx, client, addrs)
}

// waitConfirmed polls the status of every address not yet confirmed, every 20 ms.
func waitConfirmed(ctx context.Context, client *faucetapi.ClientWithResponses, addrs []common.Address) ([]int64, error) {
	left := slices.Clone(addrs)
	var blocks []int64
	deadline := time.Now().Add(2 * time.Minute)
	for len(left) > 0 {
		var next []common.Address
		for _, a := range left {
			r, err := client.GetClaimStatusWithResponse(ctx, &faucetapi.GetClaimStatusParams{Address: a.Hex()})
			switch {
			case err != nil:
				return nil, err
			case r.JSON200 == nil:
				return nil, fmt.Errorf("status of %s: %d %s", a.Hex(), r.StatusCode(), r.Body)
			case r.JSON200.Status == faucetapi.ClaimStatusConfirmed:
				blocks = append(blocks, *r.JSON200.BlockNumber)
			case r.JSON200.Status == faucetapi.ClaimStatusFailed:
				return nil, fmt.Errorf("claim for %s failed: %v", a.Hex(), *r.JSON200.Reason)
			default:
				next = append(next, a)
			}
		}
		left = next
		if len(left) > 0 {
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("%d claims not confirmed after 2 minutes", len(left))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return blocks, nil
}

// serve runs a service's handler on a loopback port after start; stop ends both.

// fresh is an address that never held anything.
func fresh() common.Address {
	k, err := crypto.GenerateKey()
	if err != nil {
		panic(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}

func sorted(m map[string]int) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(out)
	return out
}
