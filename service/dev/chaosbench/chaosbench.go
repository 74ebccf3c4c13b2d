// Package chaosbench runs the faucet, the relayer and the indexer against the dev chain through
// two JSON-RPC endpoints, each a devchain.FaultProxy that injects at random the faults hosted
// providers show (a send forwarded and its answer lost as 502, 429 or a dropped connection; an
// endpoint refusing; receipts answered null while headers are current; a fallback serving an
// older head), and checks at the end that money moved exactly once: every claimed address paid
// once, every nullifier one transaction, the wallets' nonces without gaps, no acknowledged claim
// lost, and the indexer's events equal to the chain's logs. It is what `go run ./cmd/chaosbench`
// runs.
package chaosbench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Config says how much to run and how faulty the endpoints are.
type Config struct {
	Claims, Reveals int
	FaultRate       float64 // the share of requests to each endpoint that get a fault
	Seed            uint64
	VKey            string // the relayer's verification key ("" for none)
	DataDir         string // the services' stores; "" for a temporary folder
}

// Result is what was injected, what moved, and what was checked.
type Result struct {
	Faults                      map[devchain.Fault]int // injected, both endpoints together
	Claims, Reveals             int                    // acknowledged (202, 200)
	ClaimRetries, RevealRetries int                    // requests answered 429/5xx and asked again
	FaucetTxs, OperatorTxs      uint64                 // mined from the faucet's and the operator's wallets
	Events                      int                    // events the indexer holds, equal to the chain's logs
}

// Run runs the whole chaos on a fresh dev chain, writes a report to out, and returns an error
// naming every broken promise.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	res := Result{Faults: map[devchain.Fault]int{}}
	if cfg.DataDir == "" {
		dir, err := os.MkdirTemp("", "chaosbench-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(dir)
		cfg.DataDir = dir
	}
	dev, err := devchain.Start(ctx, devchain.Config{Users: 8})
	if err != nil {
		return res, err
	}
	defer dev.Close()

	fmt.Fprintf(out, "chaosbench: preparing %d cards and proofs (not through the faults)...\n", cfg.Reveals)
	reqs, err := prepare(ctx, dev, cfg.Reveals)
	if err != nil {
		return res, err
	}

	first, err := devchain.NewFaultProxy(dev.RPCURL)
	if err != nil {
		return res, err
	}
	defer first.Close()
	second, err := devchain.NewFaultProxy(dev.RPCURL)
	if err != nil {
		return res, err
	}
	defer second.Close()
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x5eed))
	var rngMu sync.Mutex
	rule := func(method string) devchain.Fault {
		rngMu.Lock()
		defer rngMu.Unlock()
		if rng.Float64() >= cfg.FaultRate {
			return devchain.Pass
		}
		return pick(rng, method)
	}
	for _, p := range []*devchain.FaultProxy{first, second} {
		p.SetRule(rule)
		p.SetLostAnswerDelay(50 * time.Millisecond) // a forwarded send is often mined before its answer is lost
	}
	lagCtx, stopLag := context.WithCancel(ctx)
	defer stopLag()
	go func() { // the fallback is a few blocks behind now and then
		for i := 0; ; i++ {
			second.SetHeadLag(uint64(i%2) * 3)
			select {
			case <-lagCtx.Done():
				return
			case <-time.After(700 * time.Millisecond):
			}
		}
	}()
	rpcURL := first.URL + "," + second.URL

	faucetURL, relayerURL, indexerURL, stop, err := startServices(ctx, dev, cfg, rpcURL)
	if err != nil {
		return res, err
	}
	defer stop()
	fmt.Fprintf(out, "chaosbench: faucet, relayer and indexer on RPC_URL=<two fault proxies>, %.0f %% of requests faulted\n", cfg.FaultRate*100)

	faucetStart, err := dev.Client().NonceAt(ctx, dev.Accounts.Faucet.Address, nil)
	if err != nil {
		return res, err
	}
	operatorStart, err := dev.Client().NonceAt(ctx, dev.Accounts.Operator.Address, nil)
	if err != nil {
		return res, err
	}
	start := time.Now()
	var problems []string
	var wg sync.WaitGroup
	var claimErr, revealErr error
	var claimed []common.Address
	wg.Add(2)
	go func() {
		defer wg.Done()
		claimed, res.ClaimRetries, claimErr = claimAll(ctx, faucetURL, cfg.Claims)
	}()
	var revealed []card.Request
	go func() {
		defer wg.Done()
		revealed, res.RevealRetries, revealErr = revealAll(ctx, relayerURL, reqs)
	}()
	wg.Wait()
	if err := errors.Join(claimErr, revealErr); err != nil {
		return res, err
	}
	res.Claims, res.Reveals = len(claimed), len(revealed)
	if err := waitConfirmed(ctx, dev, faucetURL, claimed); err != nil {
		problems = append(problems, err.Error())
	}
	elapsed := time.Since(start)
	stopLag()
	for _, p := range []*devchain.FaultProxy{first, second} {
		res.Faults = sum(res.Faults, p.Counts())
		p.SetRule(nil)
		p.SetHeadLag(0)
	}

	// Exactly once: every address paid once, every reveal one transaction, no gap.
	amount := new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18))
	for _, a := range claimed {
		if b, err := dev.Client().BalanceAt(ctx, a, nil); err != nil || b.Cmp(amount) != 0 {
			problems = append(problems, fmt.Sprintf("claimed address %s holds %v (%v), want exactly one claim", a.Hex(), b, err))
		}
	}
	if res.FaucetTxs, err = txsSince(ctx, dev, dev.Accounts.Faucet.Address, faucetStart); err != nil {
		problems = append(problems, err.Error())
	} else if res.FaucetTxs != uint64(len(claimed)) {
		problems = append(problems, fmt.Sprintf("the faucet's wallet sent %d transactions for %d claims", res.FaucetTxs, len(claimed)))
	}
	for _, r := range revealed {
		want, _ := new(big.Int).SetString(r.Amount, 10)
		if b, err := tokenBalance(ctx, dev, dev.Tokens[0].Address, common.HexToAddress(r.Recipient)); err != nil || b.Cmp(want) != 0 {
			problems = append(problems, fmt.Sprintf("recipient %s holds %v (%v), want %s", r.Recipient, b, err, want))
		}
	}
	if res.OperatorTxs, err = txsSince(ctx, dev, dev.Accounts.Operator.Address, operatorStart); err != nil {
		problems = append(problems, err.Error())
	} else if res.OperatorTxs != uint64(len(revealed)) {
		problems = append(problems, fmt.Sprintf("the operator sent %d transactions for %d reveals", res.OperatorTxs, len(revealed)))
	}
	// History true: the indexer's events are the chain's logs.
	n, err := sameEvents(ctx, dev, indexerURL)
	res.Events = n
	if err != nil {
		problems = append(problems, err.Error())
	}

	fmt.Fprintf(out, "  %d claims acknowledged (%d requests asked again after 429/5xx), %d reveals answered 200 (%d asked again), in %s\n",
		res.Claims, res.ClaimRetries, res.Reveals, res.RevealRetries, elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "  faults injected: %s\n", faultList(res.Faults))
	fmt.Fprintf(out, "  money moved: the faucet's wallet %d transactions for %d claims, each address paid once; the operator %d transactions for %d reveals, each recipient paid once\n",
		res.FaucetTxs, res.Claims, res.OperatorTxs, res.Reveals)
	fmt.Fprintf(out, "  the indexer holds %d events, equal to the chain's logs\n", res.Events)
	if len(problems) > 0 {
		return res, fmt.Errorf("%d broken promises:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	fmt.Fprintln(out, "chaosbench: every promise held")
	return res, nil
}

// pick is the fault a request for method gets: sends lose their answers after being forwarded
// (or meet an endpoint that is down), receipts lag, anything else is refused or cut.
func pick(rng *rand.Rand, method string) devchain.Fault {
	switch method {
	case "eth_sendRawTransaction":
		return []devchain.Fault{devchain.LoseAnswer, devchain.Throttle, devchain.Drop, devchain.Refuse}[rng.IntN(4)]
	case "eth_getTransactionReceipt", "eth_getBlockReceipts":
		return []devchain.Fault{devchain.NullReceipt, devchain.NullReceipt, devchain.Refuse}[rng.IntN(3)]
	}
	return []devchain.Fault{devchain.Refuse, devchain.Throttle, devchain.Drop}[rng.IntN(3)]
}

func sum(a, b map[devchain.Fault]int) map[devchain.Fault]int {
	out := maps.Clone(a)
	for f, n := range b {
		out[f] += n
	}
	return out
}

func faultList(m map[devchain.Fault]int) string {
	var parts []string
	total := 0
	for f, n := range m {
		parts = append(parts, fmt.Sprintf("%s %d", f, n))
		total += n
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

// startServices starts the indexer, the faucet and the relayer in this process on rpcURL.
func startServices(ctx context.Context, dev *devchain.Chain, cfg Config, rpcURL string) (faucetURL, relayerURL, indexerURL string, stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, s := range slices.Backward(stops) {
			s()
		}
	}
	quiet := map[string]string{"RPC_URL": rpcURL, "LOG_LEVEL": "error", "RPC_TIMEOUT": "5s"}
	limits := map[string]string{"RATE_LIMIT_PER_IP": "1000000/1m", "RATE_LIMIT_PER_RECIPIENT": "1000000/1h", "RATE_LIMIT_TOTAL": "1000000/1m",
		"RECEIPT_POLL_INTERVAL": "50ms", "REPLACE_AFTER": "10s"}
	ienv := devstack.IndexerEnv(dev, filepath.Join(cfg.DataDir, "indexer.db"))
	maps.Copy(ienv, quiet)
	ienv["POLL_INTERVAL"] = "50ms"
	if indexerURL, err = launch(ctx, ienv, indexer.LoadConfig, func(ctx context.Context, c indexer.Config) (*indexer.Service, error) {
		return indexer.New(ctx, c, indexer.Options{})
	}, &stops); err != nil {
		return "", "", "", stop, err
	}

	fenv := devstack.FaucetEnv(dev, filepath.Join(cfg.DataDir, "faucet.db"))
	maps.Copy(fenv, quiet)
	maps.Copy(fenv, limits)
	fenv["FAUCET_SPEND_LIMIT"] = "off"
	if faucetURL, err = launch(ctx, fenv, faucet.LoadConfig, func(ctx context.Context, c faucet.Config) (*faucet.Service, error) {
		return faucet.New(ctx, c, faucet.Options{})
	}, &stops); err != nil {
		return "", "", "", stop, err
	}

	renv := devstack.RelayerEnv(dev, cfg.VKey, filepath.Join(cfg.DataDir, "relayer.db"))
	maps.Copy(renv, quiet)
	maps.Copy(renv, limits)
	maps.Copy(renv, map[string]string{"OPERATOR_SPEND_LIMIT": "off", "RECEIPT_TIMEOUT": "30s"})
	if relayerURL, err = launch(ctx, renv, relayer.LoadConfig, func(ctx context.Context, c relayer.Config) (*relayer.Service, error) {
		return relayer.New(ctx, c, relayer.Options{})
	}, &stops); err != nil {
		return "", "", "", stop, err
	}
	return faucetURL, relayerURL, indexerURL, stop, nil
}

// service is what each of vaultd's services is once built.
type service interface {
	Handler() http.Handler
	Start()
	Close()
}

// launch loads a service's configuration from env, builds it and serves it on loopback; its
// stop joins stops.
func launch[C any, S service](ctx context.Context, env map[string]string, load func(func(string) string) (C, error),
	build func(context.Context, C) (S, error), stops *[]func()) (string, error) {
	cfg, err := load(func(k string) string { return env[k] })
	if err != nil {
		return "", err
	}
	svc, err := build(ctx, cfg)
	if err != nil {
		return "", err
	}
	url, stop, err := edge.ServeLoopback(ctx, svc.Handler(), svc.Start, svc.Close)
	if err != nil {
		return "", err
	}
	*stops = append(*stops, stop)
	return url, nil
}

// prepare makes n cards from the dev users and proves each to a fresh recipient, on the dev
// chain itself.
func prepare(ctx context.Context, dev *devchain.Chain, n int) ([]card.Request, error) {
	keys, err := zk.DevKeys()
	if err != nil {
		return nil, err
	}
	cards := make([]card.Card, 0, n)
	for i := range n {
		from := dev.Accounts.Users[i%len(dev.Accounts.Users)].Key
		c, _, err := card.Create(ctx, dev.Client(), from, dev.Contracts.Vault, dev.Tokens[0].Address, big.NewInt(int64(1000+i)))
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	out := make([]card.Request, 0, n)
	for _, c := range cards {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		req, err := card.Prepare(ctx, dev.Client(), keys, c, crypto.PubkeyToAddress(k.PublicKey))
		if err != nil {
			return nil, err
		}
		out = append(out, req)
	}
	return out, nil
}

// retryable is an answer worth asking again: the service could not do it now.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// claimAll claims n fresh addresses, 8 at a time, and returns those acknowledged (202, or 409
// for a claim an earlier ask recorded).
func claimAll(ctx context.Context, faucetURL string, n int) ([]common.Address, int, error) {
	client, err := faucetapi.NewClientWithResponses(faucetURL)
	if err != nil {
		return nil, 0, err
	}
	addrs := make([]common.Address, n)
	for i := range addrs {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, 0, err
		}
		addrs[i] = crypto.PubkeyToAddress(k.PublicKey)
	}
	return askAll(addrs, 8, func(a common.Address) (int, bool, error) {
		r, err := client.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: a.Hex()})
		if err != nil {
			return 0, false, err
		}
		done := r.StatusCode() == http.StatusAccepted || r.StatusCode() == http.StatusConflict
		return r.StatusCode(), done, fmt.Errorf("claim for %s: %d %s", a.Hex(), r.StatusCode(), r.Body)
	})
}

// revealAll sends every reveal, 4 at a time (a repeat gets the first transaction's outcome), and
// returns those answered 200.
func revealAll(ctx context.Context, relayerURL string, reqs []card.Request) ([]card.Request, int, error) {
	return askAll(reqs, 4, func(req card.Request) (int, bool, error) {
		r, err := card.PostReveal(ctx, relayerURL, req)
		if err != nil {
			return 0, false, err
		}
		return r.StatusCode(), r.StatusCode() == http.StatusOK && r.JSON200.Success,
			fmt.Errorf("reveal to %s: %d %s", req.Recipient, r.StatusCode(), r.Body)
	})
}

// askAll asks for each item, workers at a time, again (after 100 ms, up to 100 times) while the
// answer is 429 or a 5xx or there is none; it returns the items answered done, how many asks
// were repeated, and why the others were not.
func askAll[T any](items []T, workers int, ask func(T) (status int, done bool, err error)) ([]T, int, error) {
	var mu sync.Mutex
	var out []T
	var failed []error
	var retries atomic.Int64
	work := make(chan T)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for item := range work {
				for attempt := 0; ; attempt++ {
					status, done, err := ask(item)
					if done || (status != 0 && !retryable(status)) || attempt == 100 {
						mu.Lock()
						if done {
							out = append(out, item)
						} else {
							failed = append(failed, err)
						}
						mu.Unlock()
						break
					}
					retries.Add(1)
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	for _, item := range items {
		work <- item
	}
	close(work)
	wg.Wait()
	return out, int(retries.Load()), errors.Join(failed...)
}

// waitConfirmed waits until every claim is confirmed (two minutes at most), and names those
// that are not, with what the faucet and the chain say of them.
func waitConfirmed(ctx context.Context, dev *devchain.Chain, faucetURL string, addrs []common.Address) error {
	client, err := faucetapi.NewClientWithResponses(faucetURL)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	var problems []error
	for _, a := range addrs {
		for {
			r, err := client.GetClaimStatusWithResponse(ctx, &faucetapi.GetClaimStatusParams{Address: a.Hex()})
			if err == nil && r.JSON200 != nil && r.JSON200.Status == faucetapi.ClaimStatusConfirmed {
				break
			}
			if time.Now().After(deadline) {
				chainSays := "no transaction hash"
				if err == nil && r.JSON200 != nil && r.JSON200.TxHash != nil {
					rc, rerr := dev.Client().TransactionReceipt(ctx, common.HexToHash(*r.JSON200.TxHash))
					chainSays = fmt.Sprintf("receipt of its newest hash: %v (%v)", rc != nil, rerr)
				}
				body := ""
				if r != nil {
					body = string(r.Body)
				}
				problems = append(problems, fmt.Errorf("the acknowledged claim of %s is not confirmed after two minutes: %s; %s", a.Hex(), strings.TrimSpace(body), chainSays))
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return errors.Join(problems...)
}

// txsSince is how many transactions from has mined since its nonce was start; it is an error
// if any is still waiting in the pool.
func txsSince(ctx context.Context, dev *devchain.Chain, from common.Address, start uint64) (uint64, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		mined, err := dev.Client().NonceAt(ctx, from, nil)
		if err != nil {
			return 0, err
		}
		pending, err := dev.Client().PendingNonceAt(ctx, from)
		if err != nil {
			return 0, err
		}
		if pending == mined {
			return mined - start, nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s has %d transactions waiting in the pool a minute after the run", from.Hex(), pending-mined)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tokenBalance reads an ERC-20 balance.
func tokenBalance(ctx context.Context, dev *devchain.Chain, token, holder common.Address) (*big.Int, error) {
	data := append([]byte{0x70, 0xa0, 0x82, 0x31}, common.LeftPadBytes(holder.Bytes(), 32)...) // balanceOf(address)
	out, err := dev.Client().CallContract(ctx, ethereum.CallMsg{To: &token, Data: data}, nil)
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetBytes(out), nil
}

// sameEvents waits for the indexer to reach the head, then compares its events of the vault's
// contracts with the chain's own logs (eth_getLogs), event by event; it returns how many.
func sameEvents(ctx context.Context, dev *devchain.Chain, indexerURL string) (int, error) {
	client, err := indexerapi.NewClientWithResponses(indexerURL)
	if err != nil {
		return 0, err
	}
	head, err := dev.Client().BlockNumber(ctx)
	if err != nil {
		return 0, err
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		h, err := client.GetHealthWithResponse(ctx)
		if err == nil && h.JSON200 != nil && uint64(h.JSON200.IndexedTo.BlockNumber) >= head {
			break
		}
		if time.Now().After(deadline) {
			return 0, errors.New("the indexer did not reach the head within a minute")
		}
	}
	tree, vault := contracts.NewCommitRevealVault().GetABI(), contracts.NewCommitRevealVault().GetABI()
	nullifiers := contracts.NewCommitRevealVault().GetABI()
	checks := []struct {
		name    string
		address common.Address
		topic   common.Hash
	}{
		{"CommitmentInserted", dev.Contracts.CommitmentTree, tree.Events["CommitmentInserted"].ID},
		{"Committed", dev.Contracts.Vault, vault.Events["Committed"].ID},
		{"Revealed", dev.Contracts.Vault, vault.Events["Revealed"].ID},
		{"NullifierSpent", dev.Contracts.NullifierRegistry, nullifiers.Events["NullifierSpent"].ID},
	}
	total := 0
	var problems []error
	for _, c := range checks {
		logs, err := dev.Client().FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: new(big.Int).SetUint64(head),
			Addresses: []common.Address{c.address}, Topics: [][]common.Hash{{c.topic}}})
		if err != nil {
			return total, err
		}
		want := map[string]bool{}
		for _, l := range logs {
			want[key(l)] = true
		}
		limit := 10000
		to := fmt.Sprint(head)
		r, err := client.ListEventsWithResponse(ctx, &indexerapi.ListEventsParams{Event: indexerapi.EventName(c.name), Limit: &limit, ToBlock: &to})
		if err != nil || r.JSON200 == nil {
			return total, fmt.Errorf("list %s: %v", c.name, err)
		}
		got := map[string]bool{}
		for _, e := range r.JSON200.Events {
			got[fmt.Sprintf("%d/%s/%d/%s", e.BlockNumber, strings.ToLower(e.BlockHash), e.LogIndex, strings.ToLower(e.TransactionHash))] = true
		}
		if !maps.Equal(got, want) {
			problems = append(problems, fmt.Errorf("%s: the indexer holds %d events, the chain %d logs, and they differ", c.name, len(got), len(want)))
		}
		total += len(got)
	}
	return total, errors.Join(problems...)
}

func key(l types.Log) string {
	return fmt.Sprintf("%d/%s/%d/%s", l.BlockNumber, strings.ToLower(l.BlockHash.Hex()), l.Index, strings.ToLower(l.TxHash.Hex()))
}
