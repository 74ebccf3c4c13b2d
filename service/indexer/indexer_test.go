package indexer_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var insertedTopic = contracts.NewCommitRevealVault().GetABI().Events["CommitmentInserted"].ID

// Every CommitmentInserted, Committed, Revealed and NullifierSpent is indexed in chain order
// with its decoded arguments, the same as the node's own log query; the three wrapped dev
// tokens' creation and registration are there too.
func TestIndexesTheVaultsEvents(t *testing.T) { eachStore(t, testIndexesTheVaultsEvents) }

func testIndexesTheVaultsEvents(t *testing.T) {
	c := devchaintest.StartConfig(t, devchain.Config{OnChainDeployment: true}) // its logs are indexed too
	s := startIndexer(t, c, t.TempDir(), nil)
	cards := commit(t, c, 0, 3)
	keys, _ := zk.DevKeys()
	req, err := card.Prepare(ctx, c.Client(), keys, cards[0], common.HexToAddress("0x00000000000000000000000000000000000000aa"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := card.Reveal(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, req); err != nil {
		t.Fatal(err)
	}
	caughtUp(t, s, c)

	got := list(t, s, "CommitmentInserted", 1000)
	want := chainLogs(t, c, c.Contracts.CommitmentTree, insertedTopic)
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("%d CommitmentInserted indexed, the node has %d, want 3", len(got), len(want))
	}
	for i, e := range got {
		w := want[i]
		var args map[string]string
		if err := json.Unmarshal(e.Args, &args); err != nil {
			t.Fatal(err)
		}
		if e.Event != "CommitmentInserted" || uint64(e.BlockNumber) != w.BlockNumber || e.BlockHash != w.BlockHash.Hex() ||
			e.TransactionHash != w.TxHash.Hex() || e.LogIndex != int(w.Index) || e.Address != c.Contracts.CommitmentTree.Hex() ||
			args["commitment"] != w.Topics[1].Hex() || args["leafIndex"] != []string{"0", "1", "2"}[i] || !strings.HasPrefix(args["root"], "0x") {
			t.Fatalf("event %d: %+v (args %s), the node's log: %+v", i, e, e.Args, w)
		}
	}
	for name, n := range map[string]int{"Committed": 3, "Revealed": 1, "NullifierSpent": 1, "TokenCreated": 3, "TokenRegistered": 3} {
		if got := list(t, s, name, 1000); len(got) != n {
			t.Errorf("%d %s, want %d", len(got), name, n)
		}
	}
	revealed := list(t, s, "Revealed", 10)[0]
	var args map[string]string
	json.Unmarshal(revealed.Args, &args)
	if args["recipient"] != common.HexToAddress("0xaa").Hex() || args["amount"] != "100" || args["caller"] != c.Accounts.Users[1].Address.Hex() {
		t.Fatalf("Revealed args %s", revealed.Args)
	}
	if !strings.Contains(scrape(t, s), `vaultd_indexer_events_total{event="CommitmentInserted"} 3`) {
		t.Fatal("events_total does not count them")
	}
}

// The indexer never needs eth_getLogs: behind a node whose every eth_getLogs answers [] (some
// providers do, past a range or a load), it still has every event; and it still does on a node without
// eth_getBlockReceipts.
func TestEmptyGetLogsAndNoBlockReceipts(t *testing.T) {
	eachStore(t, testEmptyGetLogsAndNoBlockReceipts)
}

func testEmptyGetLogsAndNoBlockReceipts(t *testing.T) {
	c := devchaintest.Start(t)
	empty := devchaintest.Faults(t, c.RPCURL)
	empty.SetReply("eth_getLogs", `"result":[]`, 0)
	noReceipts := devchaintest.Faults(t, c.RPCURL)
	noReceipts.SetRule(devchain.OnMethod("eth_getBlockReceipts", devchain.MethodMissing))
	a := startIndexer(t, c, t.TempDir(), map[string]string{"RPC_URL": empty.URL})
	b := startIndexer(t, c, t.TempDir(), map[string]string{"RPC_URL": noReceipts.URL})
	commit(t, c, 0, 2)
	caughtUp(t, a, c)
	caughtUp(t, b, c)
	for name, s := range map[string]*server{"behind empty eth_getLogs": a, "without eth_getBlockReceipts": b} {
		if got := list(t, s, "CommitmentInserted", 1000); len(got) != 2 {
			t.Errorf("%s: %d CommitmentInserted, want 2", name, len(got))
		}
	}
	asked := noReceipts.Calls("eth_getBlockReceipts") // by the fetchers of the first batch, at most
	commit(t, c, 0, 1)
	caughtUp(t, b, c)
	if got := list(t, b, "CommitmentInserted", 1000); len(got) != 3 {
		t.Errorf("without eth_getBlockReceipts: %d CommitmentInserted, want 3", len(got))
	}
	if empty.Calls("eth_getLogs") != 0 {
		t.Errorf("the indexer called eth_getLogs %d times", empty.Calls("eth_getLogs"))
	}
	if n := noReceipts.Calls("eth_getBlockReceipts"); n != asked || asked > 8 {
		t.Errorf("eth_getBlockReceipts asked %d times by the first batch, %d in all: asked again after the node said it has none", asked, n)
	}
}

// Pages of limit events continue with nextCursor, in chain order, with no event twice and none
// missed; the last page has no cursor; a range narrows them.
func TestPaging(t *testing.T) { eachStore(t, testPaging) }

func testPaging(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	commit(t, c, 0, 7)
	caughtUp(t, s, c)
	all := list(t, s, "CommitmentInserted", 1000)
	paged := list(t, s, "CommitmentInserted", 3)
	if len(all) != 7 || strings.Join(hexes(paged, "commitment"), ",") != strings.Join(hexes(all, "commitment"), ",") {
		t.Fatalf("paged %d events differ from one page of %d", len(paged), len(all))
	}
	from, to := all[2].BlockNumber, strconv.FormatInt(all[4].BlockNumber, 10)
	r, _ := s.client.ListEventsWithResponse(ctx, &indexerapi.ListEventsParams{Event: "CommitmentInserted", FromBlock: &from, ToBlock: &to})
	if len(r.JSON200.Events) != 3 || r.JSON200.Events[0].BlockNumber != from || r.JSON200.NextCursor != nil {
		t.Fatalf("blocks %d–%s: %s", from, to, r.Body)
	}
	if r.JSON200.IndexedTo.BlockNumber < all[6].BlockNumber {
		t.Fatalf("indexedTo %d is before the last event's block", r.JSON200.IndexedTo.BlockNumber)
	}
}

// Bad queries get 400 INVALID_REQUEST saying what is wrong; an unknown event names the known ones.
func TestBadQueries(t *testing.T) { eachStore(t, testBadQueries) }

func testBadQueries(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	for q, want := range map[string]string{
		"event=Transfer":                         "CommitmentInserted",
		"":                                       "event",
		"event=CommitmentInserted&fromBlock=-1":  "fromBlock",
		"event=CommitmentInserted&fromBlock=abc": "fromBlock",
		"event=CommitmentInserted&toBlock=earliest":        "toBlock",
		"event=CommitmentInserted&toBlock=-5":              "toBlock",
		"event=CommitmentInserted&fromBlock=9&toBlock=5":   "before fromBlock",
		"event=CommitmentInserted&limit=0":                 "limit",
		"event=CommitmentInserted&limit=10001":             "limit",
		"event=CommitmentInserted&cursor=bm90LWEtY3Vyc29y": "cursor",
	} {
		resp, err := http.Get(s.url + "/api/indexer?" + q)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error, Code string }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != 400 || e.Code != "INVALID_REQUEST" || !strings.Contains(e.Error, want) {
			t.Errorf("?%s: %d %+v, want 400 INVALID_REQUEST naming %q", q, resp.StatusCode, e, want)
		}
	}
}

// card redeem --indexer: the tree rebuilt from the indexer's CommitmentInserted events has the
// chain's root, and a reveal proved with it is accepted by the vault.
func TestCardRedeemedThroughTheIndexer(t *testing.T) { eachStore(t, testCardRedeemedThroughTheIndexer) }

func testCardRedeemedThroughTheIndexer(t *testing.T) {
	c := devchaintest.Start(t)
	s := startIndexer(t, c, t.TempDir(), nil)
	cards := commit(t, c, 0, 4)
	caughtUp(t, s, c)
	leaves, err := card.IndexerLeaves(s.url)
	if err != nil {
		t.Fatal(err)
	}
	fromIndexer, err := leaves(ctx, c.Contracts.CommitmentTree)
	if err != nil {
		t.Fatal(err)
	}
	fromChain, err := card.Tree(ctx, c.Client(), c.Contracts.CommitmentTree)
	if err != nil {
		t.Fatal(err)
	}
	root, err := contracts.NewCommitRevealVault().UnpackGetLastRoot(call(t, c, c.Contracts.CommitmentTree, contracts.NewCommitRevealVault().PackGetLastRoot()))
	if err != nil {
		t.Fatal(err)
	}
	if fromIndexer.Len() != 4 || fromIndexer.Root().Cmp(fromChain.Root()) != 0 || common.BigToHash(fromIndexer.Root()) != root {
		t.Fatalf("the indexer's tree: %d leaves, root %x; the chain's: root %x, getLastRoot %x", fromIndexer.Len(), fromIndexer.Root(), fromChain.Root(), root)
	}
	keys, _ := zk.DevKeys()
	req, err := card.PrepareFrom(ctx, c.Client(), keys, cards[2], common.HexToAddress("0x00000000000000000000000000000000000000bb"), leaves)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := card.Reveal(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, req); err != nil {
		t.Fatalf("a reveal proved on the indexer's tree: %v", err)
	}
}
