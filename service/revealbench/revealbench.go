// Package revealbench measures the relayer against the baseline it replaces: the same reveals
// submitted directly by a funded account (card redeem --direct) and through the relayer, one at
// a time, then a burst through the relayer, all on an in-process dev chain. It is what
// `go run ./cmd/revealbench` runs.
package revealbench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/card"
	"github.com/seed018cc74c/vaultd/service/devchain"
	"github.com/seed018cc74c/vaultd/service/platform"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/zk"
)

// Config says how much to measure.
type Config struct {
	Singles int // single reveals per path
	Burst   int // reveals submitted at once through the relayer
	VKey    string
	// CPUProfile, when set, receives a CPU profile of the timed part only (the burst).
	CPUProfile io.Writer
}

// Result holds the measurements.
type Result struct {
	Direct, Relayer   time.Duration // median single reveal
	SingleRatio       float64       // Relayer / Direct (target ≤ 1.25)
	Burst             time.Duration // until every burst reveal was mined
	BurstRatio        float64       // Burst / Relayer (target ≤ 2)
	BurstN, BurstMany int
}

// Run measures on a fresh dev chain and writes a report to out.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	var res Result
	chain, err := devchain.Start(ctx, devchain.Config{Users: 8})
	if err != nil {
		return res, err
	}
	defer chain.Close()
	keys, err := zk.DevKeys()
	if err != nil {
		return res, err
	}
	relayerURL, stop, err := startRelayer(ctx, chain, cfg.VKey)
	if err != nil {
		return res, err
	}
	defer stop()

	fmt.Fprintf(out, "preparing %d cards and proofs (not timed)...\n", 2*cfg.Singles+cfg.Burst)
	reqs, err := prepare(ctx, chain, keys, 2*cfg.Singles+cfg.Burst)
	if err != nil {
		return res, err
	}
	submitter := chain.Accounts.Users[len(chain.Accounts.Users)-1].Key
	var direct, viaRelayer []time.Duration
	for i := range cfg.Singles { // alternate, so both paths see the same chain state
		start := time.Now()
		if _, err := card.Reveal(ctx, chain.Client(), submitter, chain.Contracts.Vault, reqs[2*i]); err != nil {
			return res, fmt.Errorf("direct reveal: %w", err)
		}
		direct = append(direct, time.Since(start))
		start = time.Now()
		if err := post(ctx, relayerURL, reqs[2*i+1]); err != nil {
			return res, err
		}
		viaRelayer = append(viaRelayer, time.Since(start))
	}
	res.Direct, res.Relayer = median(direct), median(viaRelayer)
	res.SingleRatio = float64(res.Relayer) / float64(res.Direct)

	burst := reqs[2*cfg.Singles:]
	if cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(cfg.CPUProfile); err != nil {
			return res, err
		}
		defer pprof.StopCPUProfile()
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(burst))
	start := time.Now()
	for _, r := range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := post(ctx, relayerURL, r); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	res.Burst = time.Since(start)
	close(errs)
	for err := range errs {
		return res, fmt.Errorf("burst: %w", err)
	}
	res.BurstN = len(burst)
	res.BurstRatio = float64(res.Burst) / float64(res.Relayer)
	fmt.Fprintf(out, "single reveal, median of %d: direct %v, relayer %v: ratio %.2f (target <= 1.25)\n",
		cfg.Singles, res.Direct.Round(time.Microsecond), res.Relayer.Round(time.Microsecond), res.SingleRatio)
	fmt.Fprintf(out, "%d reveals at once through the relayer, all mined in %v: %.2f x one reveal (target <= 2)\n",
		res.BurstN, res.Burst.Round(time.Millisecond), res.BurstRatio)
	return res, nil
}

func startRelayer(ctx context.Context, c *devchain.Chain, vkey string) (string, func(), error) {
	env := map[string]string{
		"RPC_URL":                     c.RPCURL,
		"OPERATOR_PRIVATE_KEY":        hexutil.Encode(crypto.FromECDSA(c.Accounts.Operator.Key)),
		"COMMIT_REVEAL_VAULT_ADDRESS": c.Contracts.Vault.Hex(),
		"NULLIFIER_REGISTRY_ADDRESS":  c.Contracts.NullifierRegistry.Hex(),
		"COMMITMENT_TREE_ADDRESS":     c.Contracts.CommitmentTree.Hex(),
		"VERIFICATION_KEY_FILE":       vkey,
		"RECEIPT_POLL_INTERVAL":       "10ms", // the same poll as the direct path's
		"RATE_LIMIT_PER_IP":           "100000/1m",
		"RATE_LIMIT_PER_RECIPIENT":    "100000/1h",
		"RATE_LIMIT_TOTAL":            "100000/1m",
		"LOG_LEVEL":                   "warn",
	}
	cfg, err := relayer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		return "", nil, err
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	svc.Start(runCtx)
	done := make(chan struct{})
	go func() { platform.Serve(runCtx, ln, svc.Handler(), 10*time.Second); close(done) }()
	return "http://" + ln.Addr().String(), func() { cancel(); <-done; svc.Close() }, nil
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

func post(ctx context.Context, url string, req card.Request) error {
	status, body, err := card.PostToRelayer(ctx, url, req)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("relayer answered %d: %s", status, body)
	}
	var r struct{ Success bool }
	if json.Unmarshal(body, &r) != nil || !r.Success {
		return fmt.Errorf("relayer answered %s", body)
	}
	return nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
