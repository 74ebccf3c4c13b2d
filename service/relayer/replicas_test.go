package relayer_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/paralleltest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// The replica tests run this test binary again as relayer processes (replicaEnv set): each is
// what cmd/relayer runs, configured by its environment, so that a replica can be SIGKILLed.
const replicaEnv = "VAULTD_RELAYER_REPLICA"

func TestMain(m *testing.M) {
	if os.Getenv(replicaEnv) == "1" {
		cfg, err := relayer.LoadConfig(os.Getenv)
		edge.Main("relayer", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
			svc, err := relayer.New(ctx, cfg, relayer.Options{Traces: tp}) // as cmd/relayer
			if err != nil {
				return err
			}
			defer svc.Close()
			return svc.Run(ctx)
		})
	}
	paralleltest.Default(4)    // the tests wait on blocks, receipts and timeouts
	os.Exit(sqldbtest.Main(m)) // stops the Postgres cluster if a test started one
}

// replica is one relayer process.
type replica struct {
	cmd    *exec.Cmd
	url    string
	client *relayerapi.ClientWithResponses
	logs   *bytes.Buffer
	exited chan struct{}
	// wallets are the cluster's: an answer naming another came from another test's server,
	// which held the port FreePort found before this replica's process bound it.
	wallets []common.Address
}

// waitSimulated waits until the relayer at url has simulated a reveal. A copy of a reveal that
// another replica is sending must get there before that transaction is mined: after it, the vault
// refuses the spent nullifier (409) and the copy never waits on the other's hold.
func waitSimulated(t *testing.T, url string) {
	t.Helper()
	edgetest.WaitFor(t, url+" to simulate the reveal", func() bool {
		v, ok := edgetest.SeriesValue(edgetest.Scrape(t, url), `vaultd_relayer_reveal_stage_duration_seconds_count{stage="simulate"}`)
		return ok && v >= 1
	})
}

// cluster is relayer processes on one dev chain sharing one Redis and one set of operator keys.
type cluster struct {
	t       *testing.T
	c       *devchain.Chain
	env     map[string]string
	wallets []common.Address // the operator keys' addresses
}

// newCluster funds n fresh operator keys and writes them to OPERATOR_PRIVATE_KEYS_FILE.
func newCluster(t *testing.T, c *devchain.Chain, n int, over map[string]string) *cluster {
	var lines []string
	var wallets []common.Address
	for range n {
		k := relayertest.FundedKey(t, c)
		wallets = append(wallets, crypto.PubkeyToAddress(k.PublicKey))
		lines = append(lines, hexutil.Encode(crypto.FromECDSA(k)))
	}
	file := filepath.Join(t.TempDir(), "operator-keys")
	if err := os.WriteFile(file, []byte("# the replicas' operator keys\n"+strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return clusterOf(t, c, wallets, map[string]string{"OPERATOR_PRIVATE_KEYS_FILE": file}, over)
}

// clusterOf is a cluster paying from wallets, whose keys keys (environment variables) gives.
func clusterOf(t *testing.T, c *devchain.Chain, wallets []common.Address, keys, over map[string]string) *cluster {
	url, _ := redistest.Server(t)
	cl := &cluster{t: t, c: c, wallets: wallets}
	get := relayertest.Env(t, c, over)
	cl.env = map[string]string{}
	for _, k := range []string{"RPC_URL", "COMMIT_REVEAL_VAULT_ADDRESS", "NULLIFIER_REGISTRY_ADDRESS", "COMMITMENT_TREE_ADDRESS",
		"VERIFICATION_KEY_FILE", "DATABASE_URL", "RECEIPT_POLL_INTERVAL", "BALANCE_POLL_INTERVAL", "RATE_LIMIT_PER_IP", "RATE_LIMIT_PER_RECIPIENT", "RATE_LIMIT_TOTAL"} {
		cl.env[k] = get(k)
	}
	maps.Copy(cl.env, keys)
	cl.env["REDIS_URL"] = url
	cl.env["OPERATOR_LEASE_TTL"] = "5s" // renewed every 1.7 s: a loaded machine runs a renewal late
	cl.env["LOG_LEVEL"] = "debug"
	maps.Copy(cl.env, over)
	return cl
}

// start runs one more replica; it is killed at the end of the test.
func (cl *cluster) start() *replica {
	t := cl.t
	port := edgetest.FreePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), replicaEnv+"=1", fmt.Sprintf("PORT=%d", port))
	for k, v := range cl.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	r := &replica{cmd: cmd, url: fmt.Sprintf("http://127.0.0.1:%d", port), logs: &bytes.Buffer{}, exited: make(chan struct{}), wallets: cl.wallets}
	cmd.Stdout, cmd.Stderr = &lockedWriter{w: r.logs}, &lockedWriter{w: r.logs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-r.exited
		if t.Failed() {
			t.Logf("replica %s logs:\n%s", r.url, r.logs)
		}
	})
	client, err := relayerapi.NewClientWithResponses(r.url)
	if err != nil {
		t.Fatal(err)
	}
	r.client = client
	return r
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// operator waits until the replica serves as a relayer (it may be a standby waiting for a key)
// and returns the wallet it pays from.
func (r *replica) operator(t *testing.T, within time.Duration) common.Address {
	t.Helper()
	var op common.Address
	r.await(t, "serving", within, func(h *relayerapi.Health) bool {
		op = common.HexToAddress(h.Operator)
		return h.Status != relayerapi.Standby && slices.Contains(r.wallets, op)
	})
	return op
}

// standby waits until the replica serves as a standby, every key leased by another.
func (r *replica) standby(t *testing.T, within time.Duration) {
	t.Helper()
	r.await(t, "a standby", within, func(h *relayerapi.Health) bool { return h.Status == relayerapi.Standby })
}

// await polls the replica's /health until cond holds of its answer, failing the test when the
// process exits or within passes. A replica process starting on a loaded machine takes
// seconds to listen: the tests give edgetest.ProcessStart or more.
func (r *replica) await(t *testing.T, what string, within time.Duration, cond func(*relayerapi.Health) bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if h, err := r.client.GetHealthWithResponse(ctx); err == nil && h.JSON200 != nil && cond(h.JSON200) {
			return
		}
		select {
		case <-r.exited:
			t.Fatalf("replica %s exited:\n%s", r.url, r.logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s not %s after %s:\n%s", r.url, what, within, r.logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *replica) reveal(req relayerapi.RevealRequest) (*relayerapi.RevealResponse, error) {
	return r.client.RevealWithResponse(ctx, req)
}

func nonces(t *testing.T, c *devchain.Chain, wallets []common.Address) (mined, pending map[common.Address]uint64) {
	t.Helper()
	mined, pending = map[common.Address]uint64{}, map[common.Address]uint64{}
	for _, a := range wallets {
		m, err := c.Client().NonceAt(ctx, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Client().PendingNonceAt(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		mined[a], pending[a] = m, p
	}
	return mined, pending
}

func total(m map[common.Address]uint64) (n uint64) {
	for _, v := range m {
		n += v
	}
	return n
}

// Three relayer processes lease three operator keys through one Redis: each pays from its own
// wallet (no shared nonce counter), and the total limit holds exactly across them: 9 distinct
// reveals at once against RATE_LIMIT_TOTAL=6 → 6 mined, 3 × 429, each from the wallet of the
// replica that answered it.
func TestReplicasLeaseOneKeyEachAndHoldTheTotalLimit(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs relayer processes")
	}
	c := devchaintest.Start(t)
	cl := newCluster(t, c, 3, map[string]string{"RATE_LIMIT_TOTAL": "6/1m"})
	var reqs []relayerapi.RevealRequest
	for i := range 9 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(10+i))
		reqs = append(reqs, req)
	}
	replicas := []*replica{cl.start(), cl.start(), cl.start()}
	operators := map[common.Address]*replica{}
	for _, r := range replicas {
		operators[r.operator(t, 30*time.Second)] = r
	}
	if len(operators) != 3 {
		t.Fatalf("3 replicas pay from %d distinct wallets, want 3", len(operators))
	}
	type answer struct {
		r    *replica
		resp *relayerapi.RevealResponse
	}
	answers := make(chan answer, len(reqs))
	for i, req := range reqs {
		go func() {
			r := replicas[i%3]
			resp, err := r.reveal(req)
			if err != nil {
				t.Error(err)
			}
			answers <- answer{r, resp}
		}()
	}
	ok, limited := map[*replica]uint64{}, 0
	for range reqs {
		a := <-answers
		switch {
		case a.resp == nil:
		case a.resp.StatusCode() == 200:
			ok[a.r]++
		case a.resp.StatusCode() == 429:
			relayertest.WantCode(t, "a reveal over the total limit", a.resp, 429, "RATE_LIMITED")
			limited++
		default:
			t.Errorf("a reveal: %d %s", a.resp.StatusCode(), a.resp.Body)
		}
	}
	mined, _ := nonces(t, c, cl.wallets)
	if n := ok[replicas[0]] + ok[replicas[1]] + ok[replicas[2]]; n != 6 || limited != 3 || total(mined) != 6 {
		t.Fatalf("%d mined answers, %d × 429, %d transactions; want exactly 6, 3, 6", n, limited, total(mined))
	}
	for op, r := range operators {
		if mined[op] != ok[r] {
			t.Errorf("wallet %s sent %d transactions, its replica answered %d reveals", op, mined[op], ok[r])
		}
	}
}

// Replicas with keys, on a chain with 1 s blocks, and a standby waiting for a key: five copies
// of one reveal spread over the replicas make one transaction; then one replica is SIGKILLed
// with three reveals in flight. The standby takes its key once the lease lapses and adopts its
// transactions; the clients send the killed replica's requests again elsewhere and get the one
// transaction's outcome; every reveal is mined exactly once, and the key's next transaction
// takes the next nonce (no gap, nothing replaced).
func TestAStandbyTakesOverAKilledReplicasKey(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs relayer processes")
	}
	c := devchaintest.Start(t)
	cl := newCluster(t, c, 3, nil)
	var reqs []relayerapi.RevealRequest
	for i := range 5 {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(20+i))
		reqs = append(reqs, req)
	}
	replicas := []*replica{cl.start(), cl.start(), cl.start()}
	operators := make([]common.Address, 3)
	for i, r := range replicas {
		operators[i] = r.operator(t, 30*time.Second)
	}
	standby := cl.start()
	// While every key is leased, the standby serves: alive for a liveness probe, not ready, and
	// it refuses reveals without sending anything.
	standby.standby(t, edgetest.ProcessStart)
	if h, err := standby.client.GetHealthWithResponse(ctx); err != nil {
		t.Fatal(err)
	} else if h.JSON200 == nil || h.JSON200.Version != buildversion.String() {
		t.Fatalf("the standby's /health %s: want version %q", h.Body, buildversion.String())
	}
	if r, err := standby.client.GetReadyWithResponse(ctx); err != nil || r.JSON503 == nil || r.JSON503.Code != relayer.CodeOperatorKeyUnavailable {
		t.Fatalf("the standby's /ready: %v %+v", err, r)
	}
	if r, err := standby.reveal(reqs[4]); err != nil || r.StatusCode() != 503 {
		t.Fatalf("a reveal at the standby: %v %+v", err, r)
	} else {
		relayertest.WantCode(t, "a reveal at the standby", r, 503, relayer.CodeOperatorKeyUnavailable)
	}
	c.SetBlockTime(time.Second)
	startMined, _ := nonces(t, c, cl.wallets)

	// Five copies of one reveal, over the three replicas: one transaction.
	copies := make(chan *relayerapi.RevealResponse, 5)
	for i := range 5 {
		go func() {
			resp, err := replicas[i%3].reveal(reqs[0])
			if err != nil {
				t.Error(err)
			}
			copies <- resp
		}()
	}
	hashes := map[string]bool{}
	for range 5 {
		resp := <-copies
		switch {
		case resp == nil:
		case resp.StatusCode() == 200:
			hashes[resp.JSON200.TxHash] = true
		case resp.StatusCode() == 409:
			relayertest.WantCode(t, "a copy after the mining", resp, 409, "NULLIFIER_USED")
		default:
			t.Fatalf("a copy: %d %s", resp.StatusCode(), resp.Body)
		}
	}
	mined, _ := nonces(t, c, cl.wallets)
	if len(hashes) != 1 || total(mined)-total(startMined) != 1 {
		t.Fatalf("five copies: %d hashes answered, %d transactions; want 1 and 1", len(hashes), total(mined)-total(startMined))
	}

	// Three reveals in flight at replica 0, then SIGKILL.
	victim, key := replicas[0], operators[0]
	_, before := nonces(t, c, cl.wallets)
	for _, req := range reqs[1:4] {
		go victim.reveal(req) // its answer is lost with the process
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, pending := nonces(t, c, cl.wallets)
		if pending[key] == before[key]+3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the victim's three reveals never reached the pool (pending nonce %d, was %d):\n%s", pending[key], before[key], victim.logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	victim.cmd.Process.Signal(syscall.SIGKILL)
	<-victim.exited

	// The clients try again at another replica: the one transaction's outcome each.
	for i, req := range reqs[1:4] {
		resp, err := replicas[1+i%2].reveal(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode() != 200 && resp.StatusCode() != 409 {
			t.Fatalf("a killed replica's reveal sent again: %d %s", resp.StatusCode(), resp.Body)
		}
		if resp.StatusCode() == 409 {
			relayertest.WantCode(t, "a killed replica's reveal sent again", resp, 409, "NULLIFIER_USED")
		}
	}
	// The standby serves from the victim's key.
	if op := standby.operator(t, 30*time.Second); op != key {
		t.Fatalf("the standby pays from %s, want the killed replica's %s", op, key)
	}
	resp, err := standby.reveal(reqs[4])
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode() != 200 {
		t.Fatalf("a reveal at the standby: %d %s", resp.StatusCode(), resp.Body)
	}
	tx, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(resp.JSON200.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	if from, _ := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx); from != key || tx.Nonce() != before[key]+3 {
		t.Fatalf("the standby's reveal: from %s nonce %d; want %s nonce %d (the next after the victim's)", from, tx.Nonce(), key, before[key]+3)
	}
	mined, pending := nonces(t, c, cl.wallets)
	if mined[key] != before[key]+4 || pending[key] != mined[key] {
		t.Fatalf("the victim's wallet: %d mined, %d pending; want %d and no more pending", mined[key], pending[key], before[key]+4)
	}
	if got := total(mined) - total(startMined); got != 5 {
		t.Fatalf("%d transactions for 5 reveals", got)
	}
	// Every reveal's nullifier is spent: with five transactions for five reveals, none reverted.
	for _, req := range reqs {
		resp, err := replicas[1].reveal(req)
		if err != nil {
			t.Fatal(err)
		}
		relayertest.WantCode(t, "every reveal, once mined", resp, 409, "NULLIFIER_USED")
	}
	// Any replica tells where each reveal stands, from the database they share: mined, the
	// killed replica's three included (settled by the standby that took its key over).
	for i, req := range reqs {
		n, _ := new(big.Int).SetString(req.PublicSignals[1], 0)
		var st *relayerapi.RevealStatus
		edgetest.WaitFor(t, "every reveal's status to be final", func() bool {
			resp, err := replicas[1+i%2].client.GetRevealWithResponse(ctx, common.BigToHash(n).Hex())
			st = resp.JSON200
			return err == nil && st != nil && st.State == "mined"
		})
		if st.TxHash == nil || st.BlockNumber == nil {
			t.Fatalf("reveal %d's status: %+v", i, st)
		}
	}
	h, err := http.Get(standby.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Body.Close()
	var metrics bytes.Buffer
	metrics.ReadFrom(h.Body)
	if !strings.Contains(metrics.String(), "vaultd_relayer_operator_lease_held 1") {
		t.Errorf("the standby's metrics do not show its lease held:\n%s", metrics.String())
	}
}

// A copy of a reveal sent to another replica while the first sends it waits for that
// transaction, and its wait links across processes to the request that held the nullifier:
// from either replica's trace (exported over OTLP as a collector receives them), the other is found.
func TestAWaitOnAnotherReplicaLinksToItsHold(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs relayer processes")
	}
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	cl := newCluster(t, c, 2, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rx.URL, "OTEL_BSP_SCHEDULE_DELAY": "100"})
	a, b := cl.start(), cl.start()
	a.operator(t, 30*time.Second)
	b.operator(t, 30*time.Second)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 9)
	c.PauseSealing()
	first := make(chan *relayerapi.RevealResponse, 1)
	go func() {
		resp, err := a.reveal(req)
		if err != nil {
			t.Error(err)
		}
		first <- resp
	}()
	nullifier := common.HexToHash(req.PublicSignals[1]).Hex()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := a.client.GetRevealWithResponse(ctx, nullifier)
		if err == nil && st.JSON200 != nil && st.JSON200.State == relayerapi.RevealStatusStatePending {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica a did not send the reveal: %v", st)
		}
	}
	second := make(chan *relayerapi.RevealResponse, 1)
	go func() {
		resp, err := b.reveal(req)
		if err != nil {
			t.Error(err)
		}
		second <- resp
	}()
	waitSimulated(t, b.url) // from there on b finds the hold taken and waits on it
	c.ResumeSealing()
	ra, rb := <-first, <-second
	if ra == nil || rb == nil || ra.StatusCode() != 200 || rb.StatusCode() != 200 || ra.JSON200.TxHash != rb.JSON200.TxHash {
		t.Fatalf("the two answers: %v / %v", ra, rb)
	}
	holdTrace := strings.Split(ra.HTTPResponse.Header.Get("traceresponse"), "-")[1]
	waitTrace := strings.Split(rb.HTTPResponse.Header.Get("traceresponse"), "-")[1]
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		// Each replica exports its spans in batches of its own: b's wait may arrive before a's hold.
		spans := rx.Spans(t, nil)
		tr := otlptest.TraceOf(spans, waitTrace)
		wait, waited := tr.Named("receipt")
		hold, held := otlptest.TraceOf(spans, holdTrace).Named("hold")
		if waited && held {
			if len(wait.Links) != 1 || wait.Links[0].TraceID != holdTrace {
				t.Fatalf("the wait on replica b links to %v, want replica a's trace %s:\n%s", wait.Links, holdTrace, tr)
			}
			if hold.SpanID != wait.Links[0].SpanID || hold.Resource["service.instance.id"] == wait.Resource["service.instance.id"] {
				t.Fatalf("the link names span %s, want a's hold %+v", wait.Links[0].SpanID, hold)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no receipt span in replica b's trace (%v), or no hold span in a's (%v):\n%s", waited, held, tr)
		}
	}
}

// New wires and waits for nothing: with the only operator key leased by another replica it
// returns at once, and its handler answers as a standby before Start; Start returns at once too
// and leases in the background; the key is taken once its holder lets it go.
func TestNewWaitsForNoKey(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	k := relayertest.FundedKey(t, c)
	over := relayertest.LeasedKey(k, url, map[string]string{"OPERATOR_LEASE_TTL": "5s"}) // a renewal run late must not let b take k early
	a := relayertest.Start(t, c, over)                                                   // holds k
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, over))
	if err != nil {
		t.Fatal(err)
	}
	built := make(chan *relayer.Service, 1)
	go func() {
		b, err := relayer.New(ctx, cfg, relayer.Options{})
		if err != nil {
			t.Error(err)
		}
		built <- b
	}()
	var b *relayer.Service
	select {
	case b = <-built:
	case <-time.After(30 * time.Second):
		t.Fatal("relayer.New waited while another replica holds the only key")
	}
	if b == nil {
		t.FailNow()
	}
	defer b.Close()
	rec := httptest.NewRecorder()
	b.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"standby"`) {
		t.Fatalf("health before Start: %d %s", rec.Code, rec.Body)
	}
	b.Start()
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	if err := b.WaitOperator(short); err == nil {
		t.Fatal("b set up an operator while a holds the only key")
	}
	a.Stop() // releases k
	long, cancelLong := context.WithTimeout(ctx, 30*time.Second)
	defer cancelLong()
	if err := b.WaitOperator(long); err != nil {
		t.Fatalf("b did not take the key a let go: %v", err)
	}
}

// Relayers of one vault sharing a Postgres database need REDIS_URL (without it nothing keeps
// two of them from working on one reveal at once, each reserving its sponsor's charge): a
// second relayer on the database without it refuses to start, saying so; once the first has
// stopped, it starts.
func TestRelayersSharingADatabaseNeedRedis(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	first := relayertest.Start(t, c, map[string]string{"DATABASE_URL": db})
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"DATABASE_URL": db, "OPERATOR_PRIVATE_KEY": hexutil.Encode(crypto.FromECDSA(relayertest.FundedKey(t, c)))}))
	if err != nil {
		t.Fatal(err)
	}
	if svc, err := relayer.New(t.Context(), cfg, relayer.Options{}); err == nil || !strings.Contains(err.Error(), "need the same REDIS_URL") {
		if err == nil {
			svc.Close()
		}
		t.Fatalf("a second relayer on the database without REDIS_URL: %v", err)
	}
	first.Stop()
	svc, err := relayer.New(t.Context(), cfg, relayer.Options{})
	if err != nil {
		t.Fatalf("the second relayer once the first stopped: %v", err)
	}
	svc.Close()
}
