package serial_test

import (
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var ctx = context.Background()

// The bursts run beside one another and apart from the package's other tests (not in parallel
// with them): the first proves the forty reveals on both cores, and every burst then has its
// reveals verified all at once, which would make a neighbour's short timeouts lapse. Beside one
// another they share the cores with no short timeout: each is on its own dev chain, with
// RECEIPT_TIMEOUT at 2 minutes, RPC_TIMEOUT at 30 s (forty estimates at once on a saturated
// CI machine took over the default 5 s: 502 CHAIN_UNAVAILABLE, which is right for a node that
// slow, and not what these test) and 5 s leases.
func TestBursts(t *testing.T) {
	for name, burst := range map[string]func(*testing.T){
		"BeyondThePoolsQueueIsMinedWithoutReplacement": aBurstOfRevealsBeyondThePoolsQueueIsMinedWithoutReplacement,
		"OfPartialRevealsAgainstOneRootNeverReverts":   aBurstOfPartialRevealsAgainstOneRootNeverReverts,
		"OfPartialRevealsAcrossReplicasNeverReverts":   aBurstOfPartialRevealsAcrossReplicasNeverReverts,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			burst(t)
		})
	}
}

// burstSettings is a burst's relayer settings: over, and the margins every burst shares (see
// TestBursts), and the spend limit off: the reveals in flight at once, each reserved at its worst
// case (gas at MAX_FEE_PER_GAS), exceed the default, and a burst is about the node's pool or the
// root history, not the spend limit.
func burstSettings(over map[string]string) map[string]string {
	settings := map[string]string{"RECEIPT_TIMEOUT": "2m", "RPC_TIMEOUT": "30s", "OPERATOR_SPEND_LIMIT": "off"}
	maps.Copy(settings, over)
	return settings
}

// 20 distinct reveals at once all succeed, with distinct, contiguous nonces (partial reveals of
// the burst's cards, proved once for the package).
func TestConcurrentReveals(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, nil)
	const n = 20
	reqs := burstReveals(t, c)[:n]
	start, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil)
	var wg sync.WaitGroup
	results := make([]*relayerapi.RevealResponse, n)
	for i := range reqs {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = relayertest.Reveal(t, s, reqs[i]) }()
	}
	wg.Wait()
	nonces := map[uint64]bool{}
	for i, resp := range results {
		if resp.StatusCode() != 200 {
			t.Fatalf("reveal %d: %d %s", i, resp.StatusCode(), resp.Body)
		}
		tx, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(resp.JSON200.TxHash))
		if err != nil {
			t.Fatal(err)
		}
		nonces[tx.Nonce()] = true
	}
	for i := start; i < start+n; i++ {
		if !nonces[i] {
			t.Fatalf("nonces %v are not %d..%d", nonces, start, start+n-1)
		}
	}
	if end, _ := c.Client().NonceAt(ctx, c.Accounts.Operator.Address, nil); end != start+n {
		t.Fatalf("operator nonce %d after %d reveals from %d", end, n, start)
	}
}

// A burst of reveals larger than what a node's pool keeps of one account's transactions that
// cannot be executed yet is mined without a single replacement: the reveals reach the node in
// nonce order, so its pool holds every one of them. Sealing is paused while they arrive (each
// request waits for its receipt), so that every reveal must wait in the pool. The dev chain's
// pool keeps 8 such transactions here (go-ethereum's default is 64; the limit, not its size, is
// what matters), so that three times as many reveals exceed it with few proofs.
// The relayer runs on Redis, as a fleet does: each version is also recorded in the nullifier's
// hold there, and those records ending in any order sent the reveals out of order, when sends
// went as soon as recorded; the pool then held 106 of 150 (at 64), the rest to be replaced at
// REPLACE_AFTER.
func aBurstOfRevealsBeyondThePoolsQueueIsMinedWithoutReplacement(t *testing.T) {
	const queue = 8
	const n = 3 * queue
	c := devchaintest.StartConfig(t, devchain.Config{AccountQueue: queue})
	// The lease is not what this tests: at the harness's 1 s TTL a loaded machine can let it
	// lapse mid-burst.
	redisURL, _ := redistest.Server(t)
	s := relayertest.Start(t, c, burstSettings(map[string]string{"REDIS_URL": redisURL, "OPERATOR_LEASE_TTL": "5s"}))
	reqs := burstReveals(t, c)[:n] // partial reveals against one root: 24 inserts, within the 32 roots kept
	operator := c.Accounts.Operator.Address
	before, err := c.Client().PendingNonceAt(ctx, operator)
	if err != nil {
		t.Fatal(err)
	}
	c.PauseSealing()
	answers := make(chan *relayerapi.RevealResponse, n)
	for _, r := range reqs {
		go func() {
			resp, err := s.Client.RevealWithResponse(ctx, r)
			if err != nil {
				t.Error(err)
			}
			answers <- resp
		}()
	}
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pending, err := c.Client().PendingNonceAt(ctx, operator)
		if err == nil && pending == before+n {
			break
		}
		if time.Now().After(deadline) {
			c.ResumeSealing()
			t.Fatalf("the node's pool holds %d of the %d reveals after 90 s", pending-before, n)
		}
	}
	c.ResumeSealing()
	for range n {
		if r := <-answers; r == nil || r.StatusCode() != 200 {
			t.Fatalf("a reveal of the burst: %v", r)
		}
	}
	if m := edgetest.Scrape(t, s.URL); !strings.Contains(m, "\nvaultd_relayer_transaction_replacements_total 0\n") {
		t.Fatalf("replacements were sent for the burst:\n%s", edgetest.Grep(m, "vaultd_relayer_transaction_re"))
	}
}

// Forty partial reveals proved against one root and sent at once: each mined one inserts its
// change note, and the tree keeps 32 roots, so the relayer sends the first 32 and refuses the
// rest before paying (409 ROOT_EXPIRING: prove again against the current root). None reverts.
func aBurstOfPartialRevealsAgainstOneRootNeverReverts(t *testing.T) {
	c := devchaintest.Start(t)
	s := relayertest.Start(t, c, burstSettings(nil))
	burstAgainstOneRoot(t, c, []*relayertest.Server{s}, []common.Address{c.Accounts.Operator.Address})
}

// The same burst spread over two replicas sharing a Redis, each with its own key: the inserts
// in flight are counted for the fleet, so still 32 sent and 8 refused, none reverted (each
// replica counting only its own would send 40, and 8 would revert).
func aBurstOfPartialRevealsAcrossReplicasNeverReverts(t *testing.T) {
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	var keys []string
	var wallets []common.Address
	for range 2 {
		k := relayertest.FundedKey(t, c)
		keys, wallets = append(keys, hexutil.Encode(crypto.FromECDSA(k))), append(wallets, crypto.PubkeyToAddress(k.PublicKey))
	}
	// The leases are not what this tests: at the harness's 1 s TTL, a loaded CI machine once let
	// one lapse mid-burst (two reveals 503 OPERATOR_KEY_UNAVAILABLE).
	over := burstSettings(map[string]string{"REDIS_URL": url, "OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS": strings.Join(keys, ","),
		"OPERATOR_LEASE_TTL": "5s"})
	burstAgainstOneRoot(t, c, []*relayertest.Server{relayertest.Start(t, c, over), relayertest.Start(t, c, over)}, wallets)
}

// burstAgainstOneRoot sends forty partial reveals proved against one root at once, spread over
// servers, and checks that 32 were sent (from wallets) and mined, the rest refused with
// ROOT_EXPIRING, none reverted.
func burstAgainstOneRoot(t *testing.T, c *devchain.Chain, servers []*relayertest.Server, wallets []common.Address) {
	reqs := burstReveals(t, c)
	n := len(reqs)

	nonces := func(pending bool) (sum uint64) {
		for _, w := range wallets {
			var n uint64
			var err error
			if pending {
				n, err = c.Client().PendingNonceAt(ctx, w)
			} else {
				n, err = c.Client().NonceAt(ctx, w, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			sum += n
		}
		return sum
	}
	before := nonces(false)
	c.PauseSealing()
	answers := make(chan *relayerapi.RevealResponse, n)
	for i, r := range reqs {
		go func() {
			resp, err := servers[i%len(servers)].Client.RevealWithResponse(ctx, r)
			if err != nil {
				t.Error(err)
			}
			answers <- resp
		}()
	}
	var got []*relayerapi.RevealResponse
	edgetest.WaitFor(t, "every reveal sent or refused", func() bool {
		for len(answers) > 0 {
			got = append(got, <-answers)
		}
		return int(nonces(true)-before)+len(got) == n
	})
	sent := nonces(true) - before
	c.ResumeSealing()
	for len(got) < n {
		got = append(got, <-answers)
	}
	codes := map[string]int{}
	for _, r := range got {
		var body struct{ Code string }
		json.Unmarshal(r.Body, &body)
		if r.StatusCode() == 200 {
			body.Code = "200"
		}
		codes[body.Code]++
	}
	if sent != 32 || codes["200"] != 32 || codes["ROOT_EXPIRING"] != n-32 {
		t.Fatalf("%d sent, answers %v; want 32 sent and mined, %d refused with ROOT_EXPIRING, none reverted", sent, codes, n-32)
	}
	if mined := nonces(false) - before; mined != 32 {
		t.Fatalf("%d transactions mined, want 32", mined)
	}
}

// burstReveals commits the burst's forty cards to c and returns their partial reveals, all
// proved against the tree that holds them (one root): proved once for the package, so a test
// that needs many reveals sent at once takes them from here rather than proving its own.
func burstReveals(t *testing.T, c *devchain.Chain) []relayerapi.RevealRequest {
	t.Helper()
	cards := make([]card.Card, 40)
	for i := range cards {
		cards[i] = burstCard(t, c, i)
	}
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.CommitmentTree)
	if err != nil {
		t.Fatal(err)
	}
	return burstRequests(t, cards, tree)
}

// burstCard commits the i-th card of a burst to c, from a dev user's account. Its secrets are
// fixed by i: each burst commits the same cards in the same order to a fresh dev chain, so
// every burst's tree is the same, and so are its proofs (burstRequests).
func burstCard(t *testing.T, c *devchain.Chain, i int) card.Card {
	t.Helper()
	chainID, err := c.Client().ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cd := card.Card{ChainID: chainID.Uint64(), Vault: c.Contracts.Vault, Token: c.Tokens[0].Address, Amount: big.NewInt(int64(1000 + i)),
		Secret: big.NewInt(int64(1_000_001 + i)), NullifierSecret: big.NewInt(int64(2_000_001 + i))}
	key := relayertest.User(c, i)
	if _, err := card.Send(ctx, c.Client(), key, cd.Token, contracts.NewWrappedToken().PackApprove(cd.Vault, cd.Amount)); err != nil {
		t.Fatal(err)
	}
	commit := contracts.NewCommitRevealVault().PackCommit(cd.Token, cd.Amount, common.BigToHash(zk.Commitment(cd.Secret, cd.NullifierSecret)))
	if _, err := card.Send(ctx, c.Client(), key, cd.Vault, commit); err != nil {
		t.Fatal(err)
	}
	return cd
}

// burst holds the partial reveals of the burst's cards, proved once for the package against the
// tree every burst's dev chain holds (proving forty took each burst test 40 s of CPU on a loaded
// machine).
var burst struct {
	once sync.Once
	root *big.Int
	reqs []relayerapi.RevealRequest
}

// burstRequests returns the partial reveals of cards proved against tree, two provers at a
// time, the first time; later, the same reveals, after checking that tree is the one they were
// proved against.
func burstRequests(t *testing.T, cards []card.Card, tree *zk.Tree) []relayerapi.RevealRequest {
	t.Helper()
	burst.once.Do(func() {
		reqs := make([]relayerapi.RevealRequest, len(cards))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 2)
		for i := range cards {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				reqs[i] = partialRequest(t, cards[i], tree)
			})
		}
		wg.Wait()
		if !t.Failed() {
			burst.root, burst.reqs = tree.Root(), reqs
		}
	})
	if burst.reqs == nil {
		t.Fatal("the burst's reveals were not proved (the test proving them failed)")
	}
	if root := tree.Root(); root.Cmp(burst.root) != 0 {
		t.Fatalf("this dev chain's tree has root %#x, the burst's reveals were proved against %#x: its cards or its deployment differ from the first burst's", root, burst.root)
	}
	reqs := make([]relayerapi.RevealRequest, len(burst.reqs))
	for i, r := range burst.reqs {
		reqs[i] = relayertest.Clone(r)
	}
	return reqs
}

// partialRequest proves the reveal of half of cd against tree, with a change note.
func partialRequest(t testing.TB, cd card.Card, tree *zk.Tree) relayerapi.RevealRequest {
	note, err := cd.Note()
	if err != nil {
		t.Fatal(err)
	}
	index := -1
	for i := range tree.Len() {
		if tree.Leaf(i).Cmp(note.Leaf()) == 0 {
			index = i
		}
	}
	secret, nullifierSecret, err := card.NewSecrets()
	if err != nil {
		t.Fatal(err)
	}
	recipient := crypto.PubkeyToAddress(relayertest.FreshKey(t).PublicKey)
	half := new(big.Int).Div(cd.Amount, big.NewInt(2))
	proof, signals, err := relayertest.Keys(t).Prove(zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: half, Recipient: recipient,
		ChangeSecret: secret, ChangeNullifierSecret: nullifierSecret})
	if err != nil {
		t.Fatal(err)
	}
	return card.ToAPI(card.Request{Proof: proof.JSON(), PublicSignals: signals.Hex(), Recipient: recipient.Hex(), TokenAddress: cd.Token.Hex(), Amount: half.String()})
}
