package deploy_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/ops/deploy"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// harness is a dev chain, a funded deployer of its own, and a client of the chain's endpoint.
type harness struct {
	chain  *devchain.Chain
	key    *ecdsa.PrivateKey
	from   common.Address
	client *chain.Client
	dir    string
}

func newHarness(t *testing.T) *harness {
	c := devchaintest.Start(t)
	return harnessOn(t, c, c.RPCURL)
}

func harnessOn(t *testing.T, c *devchain.Chain, rpcURL string) *harness {
	t.Helper()
	key, err := devchain.FundedKey(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	client, err := chain.Dial(rpcURL, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return &harness{chain: c, key: key, from: crypto.PubkeyToAddress(key.PublicKey), client: client, dir: t.TempDir()}
}

func devOptions(t *testing.T, mintTo ...common.Address) deploy.Options {
	t.Helper()
	vk, err := zk.DevVerificationKey()
	if err != nil {
		t.Fatal(err)
	}
	return deploy.Options{VerificationKey: vk, DevKeys: true, DevTokens: true, MintTo: mintTo, Log: testLog{t}, Poll: 20 * time.Millisecond}
}

// run runs the deployment with the journal at out's and the file at out (when present).
func (h *harness) run(ctx context.Context, t *testing.T, opts deploy.Options, out string) (deploy.Deployment, deploy.Report, error) {
	t.Helper()
	journal, err := deploy.OpenJournal(deploy.JournalPath(out))
	if err != nil {
		t.Fatal(err)
	}
	existing, err := deploy.ReadDeployment(out)
	if err != nil {
		t.Fatal(err)
	}
	d, rep, err := deploy.Run(ctx, h.client, h.key, opts, journal, existing)
	if err == nil {
		if err := deploy.Write(out, d, opts); err != nil {
			t.Fatal(err)
		}
	}
	return d, rep, err
}

// nonce is how many transactions the deployer has had mined.
func (h *harness) nonce(t *testing.T) uint64 {
	t.Helper()
	n, err := h.client.NonceAt(context.Background(), h.from)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// A deployment deploys everything, works (a card committed and revealed on it), stays within
// its gas budgets, and run again sends nothing.
func TestDeployThenAgainSendsNothing(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	user := h.chain.Accounts.Users[0]
	existingToken := h.chain.Tokens[1] // the dev chain's own vUSDC, registered in the new vault too
	opts := devOptions(t, user.Address)
	opts.Tokens = []common.Address{existingToken.Address}
	out := filepath.Join(h.dir, "deployment.json")

	d, rep, err := h.run(ctx, t, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	// 2 libraries, verifier, vault, 1 registration, factory, and per dev token: create, register, mint.
	if want := 4 + 1 + 1 + 3*3; len(rep.Steps) != want || rep.Sent() != want {
		t.Fatalf("%d steps, %d sent; want %d of each", len(rep.Steps), rep.Sent(), want)
	}
	if n := h.nonce(t); n != uint64(rep.Sent()) {
		t.Fatalf("the deployer sent %d transactions, the run says %d", n, rep.Sent())
	}
	for _, s := range rep.Steps {
		if s.GasUsed == 0 || s.GasUsed > s.Budget {
			t.Errorf("%s used %d gas; its budget is %d (service/ops/deploy gasBudget)", s.Name, s.GasUsed, s.Budget)
		}
	}
	t.Logf("deployment: %d gas in %d transactions", rep.GasUsed(), rep.Sent())
	if !d.DevKeys || d.ChainID != h.chain.ChainID || d.StartBlock == 0 || len(d.Tokens) != 4 || d.Contracts["vault"] == (common.Address{}) {
		t.Fatalf("deployment %+v", d)
	}

	// The file is what the services read, with no key in it, and the verifying key beside it.
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(raw)), "privatekey") {
		t.Fatalf("the deployment file holds a key: %s", raw)
	}
	if _, err := zk.ReadVerificationKeyFile(filepath.Join(h.dir, "verification_key.json")); err != nil {
		t.Fatal(err)
	}

	// It works: a dev token minted to the user is committed and revealed with the dev keys.
	weth := d.Tokens[1].Address // after the registered vUSDC
	if d.Tokens[1].Symbol != "vWETH" {
		t.Fatalf("tokens %+v", d.Tokens)
	}
	c, _, err := card.Create(ctx, h.chain.Client(), user.Key, d.Contracts["vault"], weth, big.NewInt(5e17))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	to := h.chain.Accounts.Users[2].Address
	req, err := card.Prepare(ctx, h.chain.Client(), keys, c, to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := card.Reveal(ctx, h.chain.Client(), h.chain.Accounts.Users[1].Key, d.Contracts["vault"], req); err != nil {
		t.Fatal(err)
	}

	// Run again: everything is found on the chain, nothing is sent, the same file comes out.
	before := h.nonce(t)
	again, rep, err := h.run(ctx, t, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sent() != 0 || h.nonce(t) != before {
		t.Fatalf("the second run sent %d transactions", rep.Sent())
	}
	a, _ := json.Marshal(d)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatalf("the second run found\n%s\nthe first made\n%s", b, a)
	}

	// Without the journal, the file's addresses are checked on chain and kept; the mints, which
	// leave nothing to check, are the only steps sent again.
	if err := os.Remove(deploy.JournalPath(out)); err != nil {
		t.Fatal(err)
	}
	_, rep, err = h.run(ctx, t, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sent() != 3 {
		t.Fatalf("without the journal, %d transactions were sent; want the 3 mints", rep.Sent())
	}

	// A file whose vault is not this deployer's (the dev chain's own) is refused, and nothing is sent.
	var f map[string]any
	json.Unmarshal(raw, &f)
	f["contracts"].(map[string]any)["vault"] = h.chain.Contracts.Vault.Hex()
	bad, _ := json.Marshal(f)
	if err := os.WriteFile(out, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	before = h.nonce(t)
	_, _, err = h.run(ctx, t, opts, out)
	if err == nil || !strings.Contains(err.Error(), "the deployment file has it at "+h.chain.Contracts.Vault.Hex()) {
		t.Fatalf("a file with another's vault: %v", err)
	}
	if h.nonce(t) != before {
		t.Fatal("a refused file sent transactions")
	}
}

// A run that died with a transaction sent and not mined goes on following it: nothing is sent twice.
func TestResumeFollowsWhatWasSent(t *testing.T) {
	h := newHarness(t)
	out := filepath.Join(h.dir, "deployment.json")
	opts := devOptions(t)
	opts.DevTokens = false

	h.chain.PauseSealing()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, _, err := h.run(ctx, t, opts, out); done <- err }()
	waitFor(t, func() bool {
		j, err := deploy.OpenJournal(deploy.JournalPath(out))
		return err == nil && j.Steps["library PoseidonT3"] != nil
	})
	time.Sleep(100 * time.Millisecond) // sent, and waiting for it to be mined
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the run ended without its first transaction mined")
	}
	h.chain.ResumeSealing()

	_, rep, err := h.run(context.Background(), t, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Steps[0].Sent || rep.Sent() != 3 {
		t.Fatalf("the resumed run sent the first step again (%v) or %d transactions; want 3", rep.Steps[0].Sent, rep.Sent())
	}
	if n := h.nonce(t); n != 4 {
		t.Fatalf("the deployer sent %d transactions for 4 steps", n)
	}
}

// A transaction recorded but never received by the node (the run died between the two, or the
// send was refused on the way) is sent again from its recorded bytes, under its nonce.
func TestRecordedButNeverSentIsSentAgain(t *testing.T) {
	c := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, c.RPCURL)
	h := harnessOn(t, c, proxy.URL)
	out := filepath.Join(h.dir, "deployment.json")
	opts := devOptions(t)
	opts.DevTokens = false

	var refuse atomic.Bool
	refuse.Store(true)
	proxy.SetRule(func(method string) devchain.Fault {
		if method == "eth_sendRawTransaction" && refuse.Load() {
			return devchain.Refuse // never reaches the node
		}
		return devchain.Pass
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, _, err := h.run(ctx, t, opts, out); done <- err }()
	waitFor(t, func() bool { return proxy.Counts()[devchain.Refuse] > 0 })
	cancel()
	<-done
	j, err := deploy.OpenJournal(deploy.JournalPath(out))
	if err != nil || j.Steps["library PoseidonT3"] == nil {
		t.Fatalf("the journal does not hold the refused transaction: %v", err)
	}
	recorded := j.Steps["library PoseidonT3"].Hash
	refuse.Store(false)

	_, rep, err := h.run(context.Background(), t, opts, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Steps[0].Tx != recorded {
		t.Fatalf("the first step's transaction is %s; the recorded one was %s", rep.Steps[0].Tx, recorded)
	}
	if n := h.nonce(t); n != 4 {
		t.Fatalf("the deployer sent %d transactions for 4 steps", n)
	}
}

// Preflight refuses, before any gas is spent, a deprecated chain, a node without the BN254
// precompiles, and a deployer who cannot pay; each error names what is missing.
func TestPreflightRefuses(t *testing.T) {
	ctx := context.Background()
	t.Run("deprecated chain id", func(t *testing.T) {
		c, err := devchaintest.StartWith(t, chain.DeprecatedChainID)
		if err != nil {
			t.Fatal(err)
		}
		h := harnessOn(t, c, c.RPCURL)
		_, _, err = h.run(ctx, t, devOptions(t), filepath.Join(h.dir, "deployment.json"))
		if err == nil || !strings.Contains(err.Error(), "deprecated") || h.nonce(t) != 0 {
			t.Fatalf("chain 47474: %v (nonce %d)", err, h.nonce(t))
		}
	})

	c := devchaintest.Start(t)
	t.Run("missing precompiles", func(t *testing.T) {
		// A stand-in: every EVM go-ethereum runs has the precompiles, so the proxy answers the
		// three probes with nothing, as a node without them does.
		proxy := devchaintest.Faults(t, c.RPCURL)
		proxy.SetReply("eth_call", `"result":"0x"`, 3)
		h := harnessOn(t, c, proxy.URL)
		_, _, err := h.run(ctx, t, devOptions(t), filepath.Join(h.dir, "deployment.json"))
		for _, name := range []string{"ecAdd", "ecMul", "ecPairing"} {
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("without the precompiles: %v", err)
			}
		}
		if h.nonce(t) != 0 {
			t.Fatal("sent transactions")
		}
	})
	t.Run("unfunded deployer", func(t *testing.T) {
		h := harnessOn(t, c, c.RPCURL)
		poor, _ := crypto.GenerateKey()
		h.key, h.from = poor, crypto.PubkeyToAddress(poor.PublicKey)
		_, _, err := h.run(ctx, t, devOptions(t), filepath.Join(h.dir, "deployment.json"))
		if err == nil || !strings.Contains(err.Error(), "fund it") || h.nonce(t) != 0 {
			t.Fatalf("an unfunded deployer: %v", err)
		}
	})
	t.Run("a token that is not a contract", func(t *testing.T) {
		h := harnessOn(t, c, c.RPCURL)
		opts := devOptions(t)
		opts.Tokens = []common.Address{common.HexToAddress("0x00000000000000000000000000000000000000aa")}
		_, _, err := h.run(ctx, t, opts, filepath.Join(h.dir, "deployment.json"))
		if err == nil || !strings.Contains(err.Error(), "--tokens 0x00000000000000000000000000000000000000AA") || h.nonce(t) != 0 {
			t.Fatalf("a token that is not a contract: %v", err)
		}
	})
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The vault's chain has two ids, 5445 and 5446 (docs/design.md, Chains): a node answering either is deployed onto, and
// the choice is printed.
func TestBothChainIDsAreTakenAndSaid(t *testing.T) {
	for _, id := range []uint64{5445, 5446} {
		c, err := devchaintest.StartWith(t, id)
		if err != nil {
			t.Fatal(err)
		}
		h := harnessOn(t, c, c.RPCURL)
		var log strings.Builder
		opts := devOptions(t)
		opts.DevTokens, opts.Log = false, &log
		d, _, err := h.run(context.Background(), t, opts, filepath.Join(h.dir, "deployment.json"))
		if err != nil {
			t.Fatalf("chain %d: %v", id, err)
		}
		want := fmt.Sprintf("preflight: chain id %d (the vault's chain is both 5445 and 5446; this deployment is for %d", id, id)
		if d.ChainID != id || !strings.Contains(log.String(), want) {
			t.Fatalf("chain %d: deployed for %d, said:\n%s", id, d.ChainID, log.String())
		}
	}
}
