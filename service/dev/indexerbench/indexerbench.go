// Package indexerbench measures the indexer on an in-process dev chain: the backfill of a chain
// holding many vault-shaped events (a LoadEmitter contract emits CommitmentInserted in bulk)
// against the floor of fetching the same blocks' headers and receipts from the node, the
// indexer's heap while it backfills, and how far behind the head it runs on a chain with a
// block time under a stream of commits. The backfill is timed in process; the memory of an
// indexer process backfilling the same blocks is sampled in a child, so the node's own memory
// does not count. It is what `go run ./cmd/indexerbench` runs.
package indexerbench

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"golang.org/x/sync/errgroup"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
)

// Config says what to measure.
type Config struct {
	Events  int           // events to backfill
	PerTx   int           // events per transaction (and so per block)
	Commits int           // commits made while measuring the lag (0: skip)
	Block   time.Duration // the block time while measuring the lag
	DataDir string
	// CPUProfile, when set, receives a CPU profile of the backfill only.
	CPUProfile io.Writer
}

// Result holds the measurements.
type Result struct {
	Events, Blocks         int
	Floor, Backfill        time.Duration
	FloorRate, IndexerRate float64 // events per second
	Ratio                  float64 // IndexerRate / FloorRate (target ≥ 0.7)
	RSSFirstHalf           uint64  // peak resident memory of an indexer process while it indexed the first half of the blocks
	RSSSecondHalf          uint64  // … the second half (flat memory: about the same)
	MaxLag                 uint64  // blocks behind the head, worst seen under the commits
	MeanLag                float64
}

// Run measures on a fresh dev chain and writes a report to out.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	var res Result
	dev, err := devchain.Start(ctx, devchain.Config{})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	emitter, first, last, err := emit(ctx, dev, cfg.Events, cfg.PerTx)
	if err != nil {
		return res, err
	}
	res.Events, res.Blocks = cfg.Events, int(last-first+1)
	fmt.Fprintf(out, "indexerbench: %d CommitmentInserted events in %d blocks (%d per block)\n", res.Events, res.Blocks, cfg.PerTx)

	if res.Floor, err = floor(ctx, dev, first, last); err != nil {
		return res, err
	}
	res.FloorRate = float64(res.Events) / res.Floor.Seconds()
	fmt.Fprintf(out, "  floor, the blocks' headers and receipts fetched from the node (8 at a time): %s, %.0f events/s\n",
		res.Floor.Round(time.Millisecond), res.FloorRate)

	env := devstack.IndexerEnv(dev, filepath.Join(cfg.DataDir, "indexer.db"))
	maps.Copy(env, map[string]string{"COMMITMENT_TREE_ADDRESS": emitter.Hex(), "START_BLOCK": strconv.FormatUint(first, 10), "POLL_INTERVAL": "50ms", "LOG_LEVEL": "warn",
		"RATE_LIMIT_PER_IP": "1000000/1s"}) // the bench's queries all come from loopback
	icfg, err := indexer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		return res, err
	}
	svc, err := indexer.New(ctx, icfg, indexer.Options{})
	if err != nil {
		return res, err
	}
	runtime.GC()
	if cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(cfg.CPUProfile); err != nil {
			return res, err
		}
	}
	start := time.Now()
	svc.Start()
	for {
		if indexed, _, _ := svc.Indexer.State(); indexed.Number >= last {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	res.Backfill = time.Since(start)
	if cfg.CPUProfile != nil {
		pprof.StopCPUProfile()
	}
	res.IndexerRate = float64(res.Events) / res.Backfill.Seconds()
	res.Ratio = res.IndexerRate / res.FloorRate
	fmt.Fprintf(out, "  indexer backfill (fetch, decode, store in SQLite): %s, %.0f events/s: %.2f of the floor (target ≥ 0.7)\n",
		res.Backfill.Round(time.Millisecond), res.IndexerRate, res.Ratio)
	if cfg.Commits > 0 {
		if res.MaxLag, res.MeanLag, err = lag(ctx, dev, svc, cfg); err != nil {
			return res, err
		}
		fmt.Fprintf(out, "  %d commits on a %s block chain: the indexer ran at most %d block(s) behind the head (mean %.2f, sampled every 100 ms)\n",
			cfg.Commits, cfg.Block, res.MaxLag, res.MeanLag)
	}
	svc.Close()

	env["DATABASE_URL"] = "sqlite:" + filepath.Join(cfg.DataDir, "indexer-child.db")
	if res.RSSFirstHalf, res.RSSSecondHalf, err = memory(ctx, env, first, last); err != nil {
		return res, err
	}
	fmt.Fprintf(out, "  an indexer process backfilling the same blocks: peak resident memory %d MiB over the first half of the blocks, %d MiB over the second\n",
		res.RSSFirstHalf>>20, res.RSSSecondHalf>>20)

	return res, nil
}

// ChildEnv, set in the environment, makes the bench's own binary run an indexer configured by
// the rest of the environment (see Child): its memory is then the indexer's alone.
const ChildEnv = "VAULTD_INDEXERBENCH_CHILD"

// Child runs an indexer configured by the environment until it is killed.
func Child() error {
	cfg, err := indexer.LoadConfig(os.Getenv)
	if err != nil {
		return err
	}
	svc, err := indexer.New(context.Background(), cfg, indexer.Options{})
	if err != nil {
		return err
	}
	defer svc.Close()
	return svc.Run(context.Background())
}

// memory runs an indexer in a child process on env until it has indexed block last, and samples
// its resident memory: the peak while it indexed the first half of [first, last], and the second.
func memory(ctx context.Context, env map[string]string, first, last uint64) (firstHalf, secondHalf uint64, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, 0, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), ChildEnv+"=1", "PORT="+strconv.Itoa(port))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	client, err := indexerapi.NewClientWithResponses("http://127.0.0.1:" + strconv.Itoa(port))
	if err != nil {
		return 0, 0, err
	}
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		rss := residentBytes(cmd.Process.Pid)
		h, err := client.GetHealthWithResponse(ctx)
		if err == nil && h.JSON200 != nil {
			indexed := uint64(h.JSON200.IndexedTo.BlockNumber)
			if indexed < first+(last-first)/2 {
				firstHalf = max(firstHalf, rss)
			} else {
				secondHalf = max(secondHalf, rss)
			}
			if indexed >= last {
				return firstHalf, secondHalf, nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, 0, fmt.Errorf("the indexer process did not reach block %d", last)
}

// residentBytes is a process's resident memory (VmRSS in /proc/PID/status), 0 when unknown.
func residentBytes(pid int) uint64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// emit deploys a LoadEmitter and makes it emit n events, perTx per transaction; it returns the
// emitter and the first and last block holding them.
func emit(ctx context.Context, dev *devchain.Chain, n, perTx int) (common.Address, uint64, uint64, error) {
	key := dev.Accounts.Deployer.Key
	tx, err := devchain.SendTx(ctx, dev, key, nil, nil, common.FromHex(contracts.LoadEmitterMetaData.Bin))
	if err != nil {
		return common.Address{}, 0, 0, err
	}
	r, err := devchain.WaitReceipt(ctx, dev.Client(), tx.Hash())
	if err != nil {
		return common.Address{}, 0, 0, err
	}
	emitter := r.ContractAddress
	abi := contracts.NewLoadEmitter()
	var first, last uint64
	for left := n; left > 0; left -= perTx {
		tx, err := devchain.SendTx(ctx, dev, key, &emitter, nil, abi.PackEmitMany(uint32(min(left, perTx))))
		if err != nil {
			return emitter, 0, 0, err
		}
		r, err := devchain.WaitReceipt(ctx, dev.Client(), tx.Hash())
		if err != nil {
			return emitter, 0, 0, err
		}
		if r.Status != types.ReceiptStatusSuccessful {
			return emitter, 0, 0, fmt.Errorf("emitMany reverted (gas used %d)", r.GasUsed)
		}
		if first == 0 {
			first = r.BlockNumber.Uint64()
		}
		last = r.BlockNumber.Uint64()
	}
	return emitter, first, last, nil
}

// floor fetches blocks [first, last]: each header, then its receipts by hash, 8 at a time, as
// the indexer does, and nothing else.
func floor(ctx context.Context, dev *devchain.Chain, first, last uint64) (time.Duration, error) {
	client, err := chain.Dial(dev.RPCURL, time.Minute, nil)
	if err != nil {
		return 0, err
	}
	defer client.Close()
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for n := first; n <= last; n++ {
		g.Go(func() error {
			h, err := client.HeaderByNumber(gctx, new(big.Int).SetUint64(n))
			if err != nil {
				return err
			}
			_, err = client.BlockReceiptsByHash(gctx, h.Hash())
			return err
		})
	}
	err = g.Wait()
	return time.Since(start), err
}

// lag makes cfg.Commits commits on a chain with cfg.Block block time, one after the other, and
// samples how far behind the head the indexer is.
func lag(ctx context.Context, dev *devchain.Chain, svc *indexer.Service, cfg Config) (maxLag uint64, mean float64, err error) {
	dev.SetBlockTime(cfg.Block)
	defer dev.SetBlockTime(0)
	done := make(chan error, 1)
	go func() {
		for i := range cfg.Commits {
			if _, _, err := card.Create(ctx, dev.Client(), dev.Accounts.Users[i%len(dev.Accounts.Users)].Key, dev.Contracts.Vault,
				dev.Tokens[0].Address, big.NewInt(int64(1+i))); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	var mu sync.Mutex
	var sum, samples uint64
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			if samples > 0 {
				mean = float64(sum) / float64(samples)
			}
			return maxLag, mean, err
		case <-t.C:
			head, err := dev.Client().BlockNumber(ctx)
			if err != nil {
				return 0, 0, err
			}
			indexed, _, _ := svc.Indexer.State()
			mu.Lock()
			if head > indexed.Number {
				maxLag = max(maxLag, head-indexed.Number)
				sum += head - indexed.Number
			}
			samples++
			mu.Unlock()
		}
	}
}
