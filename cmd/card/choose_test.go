package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/registry"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/card/choice"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// TestMain runs the test binary as a relayer when a test starts it so (relayerChild): a relayer
// in a process of its own, which a test can SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("CARD_TEST_RELAYER") == "1" {
		os.Exit(relayerChild())
	}
	os.Exit(m.Run())
}

// relayerChild serves a relayer configured by the environment and prints its URL.
func relayerChild() int {
	cfg, err := relayer.LoadConfig(os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	ctx := context.Background()
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: relayer.New:", err)
		return 1
	}
	svc.Start()
	if err := svc.WaitOperator(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	fmt.Println("URL http://" + ln.Addr().String())
	edge.Serve(ctx, ln, svc.Handler(), time.Second)
	return 0
}

// relayers is the shared set: five relayers on one dev chain, each with an operator key of its
// own, listed in a registry's directory.
type relayers struct {
	c        *devchain.Chain
	manifest string
	token    common.Address
	registry string
	cheap    *relayertest.Server // fees at a 5 % margin
	dear     *relayertest.Server // fees at 1000 %: ten times cheap's at one fee per gas
	paused   *relayertest.Server
	vault    *relayertest.Server // another vault on the same chain
	runway   *relayertest.Server // a spend limit of 1 wei: no reveal left
	chain    *relayertest.Server // a relayer of another chain (1338), given by URL: a directory lists none
	operator map[string]common.Address
}

const feePrice = "1000000" // wei per base unit of the token

func startRelayers(t *testing.T) *relayers {
	ctx := context.Background()
	c := devchaintest.Start(t)
	rs := &relayers{c: c, manifest: filepath.Join(t.TempDir(), "devnet.json"), token: c.Tokens[0].Address, operator: map[string]common.Address{}}
	if err := c.WriteManifest(rs.manifest); err != nil {
		t.Fatal(err)
	}
	other, err := c.DeployVault(ctx, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	const admin = "an admin key for the tests"
	start := func(name string, over map[string]string) *relayertest.Server {
		k := relayertest.FundedKey(t, c)
		rs.operator[name] = crypto.PubkeyToAddress(k.PublicKey)
		env := map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(k)), "RELAYER_FUNDING": "treasury,fee",
			"RELAYER_TOKEN_PRICES": rs.token.Hex() + "=" + feePrice, "ADMIN_API_KEY": admin}
		for k, v := range over {
			env[k] = v
		}
		return relayertest.Start(t, c, env)
	}
	rs.cheap = start("cheap", map[string]string{"RELAYER_FEE_MARGIN": "5"})
	// Each quote prices the fee per gas of the block it read (its base fee and the node's
	// suggested tip, both moving with each block of the dev chain); two quotes read blocks apart
	// on a loaded machine once put dear at 100 % below cheap. At 1000 %, the most a relayer
	// takes, the fee per gas would have to move tenfold between them.
	rs.dear = start("dear", map[string]string{"RELAYER_FEE_MARGIN": "1000"})
	rs.paused = start("paused", nil)
	rs.vault = start("other-vault", map[string]string{"COMMIT_REVEAL_VAULT_ADDRESS": other.Vault.Hex(),
		"NULLIFIER_REGISTRY_ADDRESS": other.NullifierRegistry.Hex(), "COMMITMENT_TREE_ADDRESS": other.CommitmentTree.Hex()})
	rs.runway = start("no-runway", map[string]string{"OPERATOR_SPEND_LIMIT": "0.000000000000000001/1h"})
	other1338, err := devchaintest.StartWith(t, 1338)
	if err != nil {
		t.Fatal(err)
	}
	k := relayertest.FundedKey(t, other1338)
	rs.chain = relayertest.Start(t, other1338, map[string]string{"OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(k))})
	if r, err := rs.paused.Client.PauseWithResponse(ctx, bearer(admin)); err != nil || r.JSON200 == nil {
		t.Fatalf("pause: %v", err)
	}

	dir := t.TempDir()
	cfg, err := registry.LoadConfig(func(k string) string {
		return map[string]string{"RPC_URL": c.RPCURL, "ADMIN_API_KEY": admin, "DATA_FILE": filepath.Join(dir, "tokens.json"),
			"ICONS_DIR": filepath.Join(dir, "icons"), "RATE_LIMIT_PER_IP": "1000000/1m"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(ctx, cfg, registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs.registry, _ = edgetest.Serve(t, reg.Handler(), func() {}, reg.Close)
	api, err := registryapi.NewClientWithResponses(rs.registry, registryapi.WithRequestEditorFn(bearer(admin)))
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*relayertest.Server{"cheap": rs.cheap, "dear": rs.dear, "paused": rs.paused, "other-vault": rs.vault, "no-runway": rs.runway} {
		vault := c.Contracts.Vault
		if s == rs.vault {
			vault = other.Vault
		}
		op := rs.operator[name].Hex()
		r, err := api.AddRelayerWithResponse(ctx, registryapi.RelayerInput{Name: name, Url: s.URL, ChainId: registryapi.RelayerChainID(c.ChainID),
			Vault: vault.Hex(), Operator: op, FeeReceiver: op})
		if err != nil || r.StatusCode() != http.StatusCreated {
			t.Fatalf("list %s: %v %s", name, err, r.Body)
		}
	}
	return rs
}

func bearer(key string) func(context.Context, *http.Request) error {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
}

// newCard commits amount of the token into the vault and returns the card.
func (rs *relayers) newCard(t *testing.T, amount int64) card.Card {
	t.Helper()
	cd, _, err := card.Create(context.Background(), rs.c.Client(), relayertest.User(rs.c, 0), rs.c.Contracts.Vault, rs.token, big.NewInt(amount))
	if err != nil {
		t.Fatal(err)
	}
	return cd
}

// Several relayers on one chain, one set for every case (docs/choosing.md): the cheapest ready
// one is chosen and the paused, the other vault's, the one out of runway and one of another
// chain (given by URL beside the directory) are dropped with their reasons; a misbehaving client's two sends of one reveal pay once; the chosen one down
// before it answers: the next pays; killed after it sent: the chain says the outcome and no
// second relayer sends; all down: an error naming each one's problem, nothing sent.
func TestRedeemChoosesAmongRelayers(t *testing.T) {
	rs := startRelayers(t)
	ctx := context.Background()
	const amount = 1_000_000_000
	keys := relayertest.Keys(t)

	var upTook time.Duration
	t.Run("the cheapest ready relayer pays, the others are dropped with their reasons", func(t *testing.T) {
		cd := rs.newCard(t, amount)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		var out, errOut bytes.Buffer
		before := tokenBalanceOf(t, rs.c, rs.token, rs.operator["cheap"])
		began := time.Now()
		err := run(ctx, []string{"redeem", "--devnet", rs.manifest, "--secret", cd.String(), "--recipient", recipient.Hex(),
			"--registry", rs.registry, "--relayer", rs.chain.URL, "--max-fee", "1000000000"}, &out, &errOut)
		upTook = time.Since(began)
		t.Logf("card redeem --registry: %s\n%s", upTook.Round(time.Millisecond), errOut.String())
		if err != nil {
			t.Fatalf("redeem: %v", err)
		}
		said := errOut.String()
		for _, want := range []string{
			"chosen: cheap (" + rs.cheap.URL + ")", "then: dear (" + rs.dear.URL + ")",
			"dropped paused: paused", "dropped other-vault: vault", "dropped no-runway: runway", "dropped " + rs.chain.URL + ": chain",
			"paid by cheap (" + rs.cheap.URL + ")", "the relayer's fee: ",
		} {
			if !strings.Contains(said, want) {
				t.Errorf("stderr does not say %q", want)
			}
		}
		fee := new(big.Int).Sub(tokenBalanceOf(t, rs.c, rs.token, rs.operator["cheap"]), before)
		if got := tokenBalanceOf(t, rs.c, rs.token, recipient); fee.Sign() <= 0 || new(big.Int).Add(got, fee).Cmp(big.NewInt(amount)) != 0 {
			t.Fatalf("the recipient got %s and cheap %s of %d", got, fee, amount)
		}
	})

	t.Run("two relayers sent the same reveal at once pay once", func(t *testing.T) {
		cd := rs.newCard(t, amount)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		req, err := card.Prepare(ctx, rs.c.Client(), keys, cd, recipient) // the treasury pays: one proof fits both
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for i, s := range []*relayertest.Server{rs.cheap, rs.dear} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i], _, _ = card.PostToRelayer(ctx, s.URL, req)
			}()
		}
		wg.Wait()
		if got := tokenBalanceOf(t, rs.c, rs.token, recipient); got.Cmp(big.NewInt(amount)) != 0 {
			t.Fatalf("the recipient holds %s, want %d once (answers %v)", got, amount, statuses)
		}
		if ok := btoi(statuses[0] == 200) + btoi(statuses[1] == 200); ok != 1 {
			t.Fatalf("answers %v: want one 200", statuses)
		}
		t.Logf("the two relayers answered %v", statuses)
	})

	t.Run("the chosen relayer down before it answers: the next pays", func(t *testing.T) {
		cd := rs.newCard(t, amount)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		part := big.NewInt(amount / 2)
		change, err := card.ChangeOf(cd, part)
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		want := choice.Want{ChainID: cd.ChainID, Vault: cd.Vault, Pay: choice.Fee, Token: cd.Token, Amount: part, Partial: true}
		ch := choice.Choose(ctx, choice.URLs(rs.cheap.URL, rs.dear.URL), want, choice.Options{})
		if len(ch.Ranked) != 2 || ch.Ranked[0].URL != rs.cheap.URL {
			t.Fatalf("ranked %+v, dropped %v", ch.Ranked, ch.Dropped)
		}
		rs.cheap.Stop() // its listener closed: the reveal's connection is refused
		out, err := choice.Send(ctx, ch, revealOf(rs.c, keys, cd, recipient, part, change), choice.SendOptions{})
		downTook := time.Since(began)
		if err != nil {
			t.Fatalf("send: %v", err)
		}
		if len(out.Attempts) != 2 || out.Attempts[0].MayHaveSent || !strings.Contains(out.Attempts[0].Answer, "refused the connection") || out.PaidBy == nil || out.PaidBy.URL != rs.dear.URL {
			t.Fatalf("attempts %v, paid by %+v", out.Attempts, out.PaidBy)
		}
		t.Logf("the chosen relayer down cost %s (%s); time to tokens %s with the first choice down, %s with it up",
			out.Attempts[0].Took.Round(time.Millisecond), out.Attempts[0].Answer, downTook.Round(time.Millisecond), upTook.Round(time.Millisecond))
		fee := new(big.Int).Sub(part, tokenBalanceOf(t, rs.c, rs.token, recipient))
		if fee.String() != out.PaidBy.Quote.Fee {
			t.Fatalf("the recipient paid a fee of %s, dear quoted %s", fee, out.PaidBy.Quote.Fee)
		}
		// The change proved for cheap is the one dear's reveal inserted: the card kept is spendable.
		leaf, _ := change.Note()
		tree, err := card.Tree(ctx, rs.c.Client(), rs.c.Contracts.CommitmentTree)
		if err != nil {
			t.Fatal(err)
		}
		if tree.Leaf(tree.Len()-1).Cmp(leaf.Leaf()) != 0 {
			t.Fatal("the change inserted is not the change card kept")
		}
	})

	t.Run("the chosen relayer killed after it sent: the chain says the outcome, no other sends", func(t *testing.T) {
		killed := startKilledAfterSend(t, rs.c)
		cd := rs.newCard(t, amount)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		want := choice.Want{ChainID: cd.ChainID, Vault: cd.Vault, Pay: choice.Treasury}
		ch := choice.Choose(ctx, choice.URLs(killed.url, rs.dear.URL), want, choice.Options{})
		if len(ch.Ranked) != 2 {
			t.Fatalf("ranked %+v, dropped %v", ch.Ranked, ch.Dropped)
		}
		if ch.Ranked[0].URL != killed.url { // both free: the draw put it second; this case is about its being first
			ch.Ranked[0], ch.Ranked[1] = ch.Ranked[1], ch.Ranked[0]
		}
		dearNonce, _ := rs.c.Client().NonceAt(ctx, rs.operator["dear"], nil)
		out, err := choice.Send(ctx, ch, revealOf(rs.c, keys, cd, recipient, nil, nil), choice.SendOptions{Poll: 50 * time.Millisecond})
		if err != nil {
			t.Fatalf("send: %v", err)
		}
		if !killed.wasKilled() {
			t.Fatal("the relayer was not killed")
		}
		t.Logf("attempts: %v", out.Attempts)
		if len(out.Attempts) != 1 || !out.Attempts[0].MayHaveSent || out.PaidBy == nil || out.PaidBy.URL != killed.url {
			t.Fatalf("attempts %v, paid by %+v", out.Attempts, out.PaidBy)
		}
		if got := tokenBalanceOf(t, rs.c, rs.token, recipient); got.Cmp(big.NewInt(amount)) != 0 {
			t.Fatalf("the recipient holds %s, want %d", got, amount)
		}
		if n, _ := rs.c.Client().NonceAt(ctx, rs.operator["dear"], nil); n != dearNonce {
			t.Fatalf("dear sent %d transactions", n-dearNonce)
		}
	})

	t.Run("every relayer down: an error naming each, nothing sent", func(t *testing.T) {
		cd := rs.newCard(t, amount)
		recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
		closed := "http://" + closedPort(t)
		var out, errOut bytes.Buffer
		err := run(ctx, []string{"redeem", "--devnet", rs.manifest, "--secret", cd.String(), "--recipient", recipient.Hex(),
			"--relayer", rs.cheap.URL, "--relayer", closed, "--relayer", rs.paused.URL, "--max-fee", "1000000000"}, &out, &errOut)
		t.Logf("every relayer down: %v", err)
		var failed *choice.Failed
		if !errors.As(err, &failed) || len(failed.Dropped) != 3 || out.Len() != 0 {
			t.Fatalf("redeem: %v (printed %q)", err, out.String())
		}
		for _, want := range []string{rs.cheap.URL + ": unreachable", closed + ": unreachable", rs.paused.URL + ": paused", "nothing was sent"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error does not say %q: %v", want, err)
			}
		}
		note, _ := cd.Note()
		if sp, err := card.Spent(ctx, rs.c.Client(), cd.Vault, common.BigToHash(note.Nullifier()), 0); err != nil || sp != nil {
			t.Fatalf("the card after every relayer failed: %+v %v", sp, err)
		}
	})
}

// revealOf is the reveal of amount of cd (nil: all of it) to recipient, proved from the chain's
// logs with change (nil for a whole reveal) each time.
func revealOf(c *devchain.Chain, keys *zk.Keys, cd card.Card, recipient common.Address, amount *big.Int, change *card.Card) choice.Reveal {
	return choice.Reveal{Client: c.Client(), Card: cd, Prove: func(ctx context.Context, fee *zk.Fee) (card.Request, error) {
		return card.PrepareKeeping(ctx, c.Client(), keys, cd, recipient, card.ChainLeaves(c.Client()), amount, fee, change)
	}}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// killedRelayer is a relayer in a process of its own whose RPC goes through a proxy that
// SIGKILLs it as soon as the node has taken its eth_sendRawTransaction: it sent, and never
// answers.
type killedRelayer struct {
	url    string
	mu     sync.Mutex
	killed bool
}

func (k *killedRelayer) wasKilled() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.killed
}

func startKilledAfterSend(t *testing.T, c *devchain.Chain) *killedRelayer {
	t.Helper()
	key := relayertest.FundedKey(t, c)
	kr := &killedRelayer{}
	var cmd *exec.Cmd
	proxy := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		resp, err := http.Post(c.RPCURL, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if bytes.Contains(body, []byte("eth_sendRawTransaction")) {
			kr.mu.Lock()
			cmd.Process.Kill() // SIGKILL: it sent, and answers nothing
			kr.killed = true
			kr.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(answer)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve(ln)
	t.Cleanup(func() { proxy.Close() })

	dir := t.TempDir()
	env := devstack.RelayerEnv(c, "../../gen/zk/devkeys/verification_key.json", filepath.Join(dir, "relayer.db"))
	env["RPC_URL"] = "http://" + ln.Addr().String()
	env["OPERATOR_PRIVATE_KEY"] = hexutil.Encode(crypto.FromECDSA(key))
	env["RECEIPT_POLL_INTERVAL"], env["BALANCE_POLL_INTERVAL"] = "20ms", "200ms"
	env["CARD_TEST_RELAYER"] = "1"
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "URL ") {
		t.Fatalf("the relayer's process said %q: %v", line, err)
	}
	kr.url = strings.TrimSpace(strings.TrimPrefix(line, "URL "))
	return kr
}
