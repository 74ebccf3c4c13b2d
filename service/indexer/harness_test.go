package indexer_test

import (
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
)

var ctx = context.Background()

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" { // an indexer process for TestAKilledWritersReaderTakesOver
		cfg, err := indexer.LoadConfig(os.Getenv)
		edge.Main("indexer", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
			svc, err := indexer.New(ctx, cfg, indexer.Options{})
			if err != nil {
				return err
			}
			defer svc.Close()
			return svc.Run(ctx)
		})
	}
	os.Exit(sqldbtest.Main(m))
}

// backend is "postgres" while a Postgres-only test runs (those run alone, not in parallel).
// Otherwise a test's store is named by its test: "postgres" in eachStore's postgres half.
var backend = "sqlite"

// postgresByDir is the database of each indexer dir on Postgres.
var postgresByDir = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// eachStore runs test on SQLite, then on Postgres: the same tests on both stores. The test runs
// in parallel with other tests (each half has its own dev chain and database).
func eachStore(t *testing.T, test func(t *testing.T)) {
	t.Parallel()
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, test)
	}
}

// onPostgres reports whether t runs on Postgres: in eachStore's postgres half, or in a
// Postgres-only test.
func onPostgres(t testing.TB) bool {
	return backend == "postgres" || strings.Contains(t.Name()+"/", "/postgres/")
}

// databaseURL is the store of an indexer whose files go in dir: one database per dir.
func databaseURL(t testing.TB, dir string) string {
	if !onPostgres(t) {
		return "sqlite:" + filepath.Join(dir, "indexer.db")
	}
	postgresByDir.Lock()
	defer postgresByDir.Unlock()
	if u, ok := postgresByDir.m[dir]; ok {
		return u
	}
	u := sqldbtest.Postgres(t)
	postgresByDir.m[dir] = u
	return u
}

func env(t testing.TB, c *devchain.Chain, dir string, over map[string]string) func(string) string {
	m := devstack.IndexerEnv(c, "unused")
	m["DATABASE_URL"] = databaseURL(t, dir)
	m["POLL_INTERVAL"] = "20ms"
	m["RATE_LIMIT_PER_IP"] = "1000000/1m" // the tests poll from one address
	maps.Copy(m, over)
	return func(k string) string { return m[k] }
}

type server struct {
	svc    *indexer.Service
	url    string
	client *indexerapi.ClientWithResponses
	stop   func()
}

func startIndexer(t testing.TB, c *devchain.Chain, dir string, over map[string]string) *server {
	t.Helper()
	return startIndexerWith(t, c, dir, over, indexer.Options{})
}

func startIndexerWith(t testing.TB, c *devchain.Chain, dir string, over map[string]string, opts indexer.Options) *server {
	t.Helper()
	cfg, err := indexer.LoadConfig(env(t, c, dir, over))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := indexer.New(ctx, cfg, opts)
	if err != nil {
		t.Fatalf("indexer.New: %v", err)
	}
	u, stop := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	client, _ := indexerapi.NewClientWithResponses(u)
	return &server{svc: svc, url: u, client: client, stop: stop}
}

// caughtUp waits until the indexer has indexed the chain's head block (by hash).
func caughtUp(t testing.TB, s *server, c *devchain.Chain) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		head, err := c.Client().HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.client.GetHealthWithResponse(ctx)
		if err == nil && h.JSON200 != nil && h.JSON200.IndexedTo.BlockHash == head.Hash().Hex() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the indexer did not catch up with head %d %s: %v", head.Number, head.Hash(), h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// list asks for every event named name, page by page (limit per page), and returns them.
func list(t testing.TB, s *server, name string, limit int) []indexerapi.Event {
	t.Helper()
	var out []indexerapi.Event
	params := &indexerapi.ListEventsParams{Event: indexerapi.EventName(name), Limit: &limit}
	for {
		r, err := s.client.ListEventsWithResponse(ctx, params)
		if err != nil || r.JSON200 == nil {
			t.Fatalf("list %s: %v %v", name, err, r)
		}
		out = append(out, r.JSON200.Events...)
		if r.JSON200.NextCursor == nil {
			return out
		}
		params.Cursor = r.JSON200.NextCursor
	}
}

// chainLogs is what the node's own eth_getLogs says of the event's logs: the reference.
func chainLogs(t testing.TB, c *devchain.Chain, address common.Address, topic common.Hash) []types.Log {
	logs, err := nodeLogs(c, address, topic)
	if err != nil {
		t.Fatal(err)
	}
	return logs
}

// nodeLogs is chainLogs' question. Right after a reorg the node may answer it with an error
// while its log index drops the orphaned blocks (go-ethereum's filtermaps, rebuilt in the
// background, slower on a loaded machine): a test waiting on it asks again.
func nodeLogs(c *devchain.Chain, address common.Address, topic common.Hash) ([]types.Log, error) {
	return c.Client().FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{address}, Topics: [][]common.Hash{{topic}}})
}

// commit makes n cards from dev user i (each an approve and a commit).
func commit(t testing.TB, c *devchain.Chain, user, n int) []card.Card {
	t.Helper()
	var out []card.Card
	for k := range n {
		cd, _, err := card.Create(ctx, c.Client(), c.Accounts.Users[user].Key, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(int64(100+k)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cd)
	}
	return out
}

func hexes(events []indexerapi.Event, arg string) []string { return hexesOf(events, arg) }

// hexesOf is one argument of every event, lowercased.
func hexesOf(events []indexerapi.Event, arg string) []string {
	var out []string
	for _, e := range events {
		var args map[string]any
		json.Unmarshal(e.Args, &args)
		out = append(out, strings.ToLower(args[arg].(string)))
	}
	return out
}

func scrape(t testing.TB, s *server) string { return edgetest.Scrape(t, s.url) }

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	edgetest.WaitFor(t, what, cond)
}

// newIndexer builds (and closes) an indexer service, for its start-up errors.
func newIndexer(t testing.TB, c *devchain.Chain, dir string, over map[string]string) (*indexer.Service, error) {
	cfg, err := indexer.LoadConfig(env(t, c, dir, over))
	if err != nil {
		return nil, err
	}
	svc, err := indexer.New(ctx, cfg, indexer.Options{})
	if err == nil {
		svc.Close()
	}
	return svc, err
}

// call makes an eth_call to `to` with data.
func call(t testing.TB, c *devchain.Chain, to common.Address, data []byte) []byte {
	out, err := c.Client().CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reorg replaces the chain after block ancestor with another branch: a block on ancestor with a
// transaction of the deployer's and what the node put back in its pool from the orphaned blocks
// (other contents, another timestamp: a new hash at every height). A real reorg of the dev chain.
func reorg(t testing.TB, c *devchain.Chain, ancestor common.Hash) {
	t.Helper()
	c.PauseSealing()
	if err := c.Fork(ancestor); err != nil {
		t.Fatal(err)
	}
	c.PauseSealing() // until the new branch's first transaction is in the pool
	self := c.Accounts.Deployer.Address
	if _, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &self, big.NewInt(1), nil); err != nil {
		t.Fatal(err)
	}
	c.ResumeSealing()
}
