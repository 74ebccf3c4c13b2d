// Package revealbench measures the relayer against the baseline it replaces: the same reveals
// submitted directly by a funded account (card redeem --direct) and through the relayer, one at
// a time, then a burst through the relayer, all on an in-process dev chain. It is what
// `go run ./cmd/revealbench` runs.
package revealbench

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Config says how much to measure.
type Config struct {
	Singles int // single reveals per path
	Burst   int // reveals submitted at once through the relayer
	VKey    string
	// BlockTime is the dev chain's block time while timing (cards are prepared with instant
	// sealing either way). 0 seals a block as soon as a transaction arrives: every figure is
	// then CPU time on this machine, the node's included.
	BlockTime time.Duration
	// Floor also times the node alone mining Burst pre-signed reveals sent at once: what no
	// relayer can beat on this chain and machine.
	Floor bool
	// CPUProfile, when set, receives a CPU profile of the relayer's burst only.
	CPUProfile io.Writer
}

// Result holds the measurements.
type Result struct {
	Direct, Relayer time.Duration // median single reveal
	SingleRatio     float64       // Relayer / Direct (target ≤ 1.25)
	Burst           time.Duration // until every burst reveal sent through the relayer was mined
	BurstRatio      float64       // Burst / Relayer (target ≤ 2)
	BurstN          int
	BurstBlocks     int           // blocks from the burst's first to its last, both included
	BurstReplaced   int           // replacement transactions the relayer sent during the burst (target 0)
	Floor           time.Duration // the node alone mining BurstN pre-signed reveals (0: not measured)
}

// Run measures on a fresh dev chain and writes a report to out.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	var res Result
	dev, err := devchain.Start(ctx, devchain.Config{Users: 8})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	keys, err := zk.DevKeys()
	if err != nil {
		return res, err
	}
	relayerURL, stop, err := startRelayer(ctx, dev, cfg.VKey)
	if err != nil {
		return res, err
	}
	defer stop()

	floorN := 0
	if cfg.Floor {
		floorN = cfg.Burst
	}
	fmt.Fprintf(out, "preparing %d cards and proofs (not timed)...\n", 2*cfg.Singles+cfg.Burst+floorN)
	reqs, err := prepare(ctx, dev, keys, 2*cfg.Singles+cfg.Burst+floorN)
	if err != nil {
		return res, err
	}
	submitter := dev.Accounts.Users[len(dev.Accounts.Users)-1].Key
	dev.SetBlockTime(cfg.BlockTime)
	mode := "instant sealing"
	if cfg.BlockTime > 0 {
		mode = fmt.Sprintf("block time %v", cfg.BlockTime)
	}
	fmt.Fprintf(out, "timing on the dev chain with %s\n", mode)

	var direct, viaRelayer []time.Duration
	for i := range cfg.Singles { // alternate, so both paths see the same chain state
		start := time.Now()
		if _, err := card.Reveal(ctx, dev.Client(), submitter, dev.Contracts.Vault, reqs[2*i]); err != nil {
			return res, fmt.Errorf("direct reveal: %w", err)
		}
		direct = append(direct, time.Since(start))
		start = time.Now()
		if _, err := post(ctx, relayerURL, reqs[2*i+1]); err != nil {
			return res, err
		}
		viaRelayer = append(viaRelayer, time.Since(start))
	}
	res.Direct, res.Relayer = median(direct), median(viaRelayer)
	res.SingleRatio = float64(res.Relayer) / float64(res.Direct)
	fmt.Fprintf(out, "single reveal, median of %d: direct %v, relayer %v: ratio %.2f (target <= 1.25)\n",
		cfg.Singles, res.Direct.Round(time.Microsecond), res.Relayer.Round(time.Microsecond), res.SingleRatio)

	if cfg.Floor {
		floorTxs, err := signReveals(ctx, dev, submitter, reqs[len(reqs)-floorN:])
		if err != nil {
			return res, err
		}
		if res.Floor, err = mineAtOnce(ctx, dev, floorTxs); err != nil {
			return res, fmt.Errorf("floor: %w", err)
		}
		fmt.Fprintf(out, "the node alone, %d pre-signed reveals sent at once, all mined in %v: %.2f x one reveal (floor)\n",
			len(floorTxs), res.Floor.Round(time.Millisecond), float64(res.Floor)/float64(res.Relayer))
	}

	burst := reqs[2*cfg.Singles : 2*cfg.Singles+cfg.Burst]
	if cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(cfg.CPUProfile); err != nil {
			return res, err
		}
		defer pprof.StopCPUProfile()
	}
	replaced, err := devstack.Counter(ctx, relayerURL, replacements)
	if err != nil {
		return res, err
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(burst))
	blocks := make([]uint64, len(burst))
	start := time.Now()
	for i, r := range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := post(ctx, relayerURL, r)
			if err != nil {
				errs <- err
			}
			blocks[i] = n
		}()
	}
	wg.Wait()
	res.Burst = time.Since(start)
	close(errs)
	for err := range errs {
		return res, fmt.Errorf("burst: %w", err)
	}
	total, err := devstack.Counter(ctx, relayerURL, replacements)
	if err != nil {
		return res, err
	}
	res.BurstN = len(burst)
	res.BurstBlocks = int(slices.Max(blocks)-slices.Min(blocks)) + 1
	res.BurstReplaced = int(total - replaced)
	res.BurstRatio = float64(res.Burst) / float64(res.Relayer)
	fmt.Fprintf(out, "%d reveals at once through the relayer, all mined in %v (%d block%s, %d replacement%s): %.2f x one reveal (target <= 2, no replacement)\n",
		res.BurstN, res.Burst.Round(time.Millisecond), res.BurstBlocks, plural(res.BurstBlocks), res.BurstReplaced, plural(res.BurstReplaced), res.BurstRatio)
	return res, nil
}

// replacements is the relayer's count of the replacement transactions it sent (fee bumps of
// transactions not mined in time).
const replacements = "vaultd_relayer_transaction_replacements_total"

// signReveals signs one reveal transaction per request from key, with consecutive nonces and a
// fixed gas limit, so that sending them costs the node nothing but their execution.
func signReveals(ctx context.Context, c *devchain.Chain, key *ecdsa.PrivateKey, reqs []card.Request) ([]*types.Transaction, error) {
	client := c.Client()
	nonce, err := client.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		return nil, err
	}
	tip, feeCap, err := chain.WalletFees(ctx, client)
	if err != nil {
		return nil, err
	}
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID))
	txs := make([]*types.Transaction, 0, len(reqs))
	for i, req := range reqs {
		data, err := card.RevealCalldata(req)
		if err != nil {
			return nil, err
		}
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{
			ChainID: signer.ChainID(), Nonce: nonce + uint64(i), GasTipCap: tip, GasFeeCap: feeCap,
			Gas: revealGasLimit, To: &c.Contracts.Vault, Data: data,
		})
		if err != nil {
			return nil, err
		}
		txs = append(txs, tx)
	}
	return txs, nil
}

// revealGasLimit is well above a reveal's ~331k gas (with or without change).
const revealGasLimit = 600_000

// mineAtOnce sends the transactions in nonce order and times until all are mined, each
// successfully.
func mineAtOnce(ctx context.Context, c *devchain.Chain, txs []*types.Transaction) (time.Duration, error) {
	client := c.Client()
	start := time.Now()
	for _, tx := range txs {
		if err := client.SendTransaction(ctx, tx); err != nil {
			return 0, err
		}
	}
	receipts := make([]*types.Receipt, len(txs))
	for i := len(txs) - 1; i >= 0; i-- { // the last nonce is mined last
		r, err := chain.WaitMined(ctx, client, txs[i].Hash(), 10*time.Millisecond)
		if err != nil {
			return 0, err
		}
		receipts[i] = r
	}
	elapsed := time.Since(start)
	for i, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful {
			return 0, fmt.Errorf("pre-signed reveal %d (%s) reverted", i, txs[i].Hash())
		}
	}
	return elapsed, nil
}

func startRelayer(ctx context.Context, c *devchain.Chain, vkey string) (string, func(), error) {
	return startRelayerWith(ctx, c, vkey, nil)
}

// startRelayerWith serves a relayer on a loopback port with relayerEnv's settings and over.
func startRelayerWith(ctx context.Context, c *devchain.Chain, vkey string, over map[string]string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "revealbench-relayer-")
	if err != nil {
		return "", nil, err
	}
	env := relayerEnv(c, vkey, dir, over)
	cfg, err := relayer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{Logger: edge.NewLogger(os.Stderr, cfg.HTTP.LogLevel, "relayer")})
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	svc.Start()
	wctx, stopWaiting := context.WithTimeout(ctx, time.Minute) // a leased key: after Redis's quiet spell
	err = svc.WaitOperator(wctx)
	stopWaiting()
	if err != nil {
		cancel()
		svc.Close()
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("the relayer did not lease an operator key: %w", err)
	}
	done := make(chan struct{})
	go func() { edge.Serve(runCtx, ln, svc.Handler(), 10*time.Second); close(done) }()
	return "http://" + ln.Addr().String(), func() { cancel(); <-done; svc.Close(); os.RemoveAll(dir) }, nil
}

// prepare makes n cards from the dev users and proves each to a fresh recipient.
func prepare(ctx context.Context, c *devchain.Chain, keys *zk.Keys, n int) ([]card.Request, error) {
	out := make([]card.Request, 0, n)
	var cards []card.Card
	for i := range n {
		from := c.Accounts.Users[i%(len(c.Accounts.Users)-1)].Key
		cd, _, err := card.Create(ctx, c.Client(), from, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(int64(1000+i)))
		if err != nil {
			return nil, err
		}
		cards = append(cards, cd)
	}
	for _, cd := range cards {
		req, err := card.Prepare(ctx, c.Client(), keys, cd, freshRecipient())
		if err != nil {
			return nil, err
		}
		out = append(out, req)
	}
	return out, nil
}

func freshRecipient() [20]byte {
	k, _ := crypto.GenerateKey()
	return crypto.PubkeyToAddress(k.PublicKey)
}

// post sends a reveal through the relayer and returns the block it was mined in.
func post(ctx context.Context, url string, req card.Request) (uint64, error) {
	resp, err := card.PostReveal(ctx, url, req)
	if err != nil {
		return 0, err
	}
	if resp.JSON200 == nil || !resp.JSON200.Success {
		return 0, fmt.Errorf("relayer answered %d: %s", resp.StatusCode(), resp.Body)
	}
	return uint64(resp.JSON200.BlockNumber), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
