package relayer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// fakeChain is the checks' chainReader with answers set by the test. It stands in for the chain
// where the states and faults it answers are slow or awkward to produce on the dev chain all at
// once: a spent nullifier and an unknown root and a vault refusing the call for one request, a
// node away for one call and not the other. The dev-chain tests (faults_test.go, protect_test.go,
// replicas_test.go, …) run the same checks against the real chain.
type fakeChain struct {
	reads    atomic.Int32 // isSpent calls: how many times the checks ran
	spent    bool
	spentErr error
	root     contracts.RootAgeOutput
	rootErr  error
	refused  error // the vault's answer to the reveal's call (simulate and estimate alike)
}

func (f *fakeChain) isSpent(context.Context, common.Hash) (bool, error) {
	f.reads.Add(1)
	return f.spent, f.spentErr
}
func (f *fakeChain) rootAge(context.Context, common.Hash) (contracts.RootAgeOutput, error) {
	return f.root, f.rootErr
}
func (f *fakeChain) simulate(context.Context, ethereum.CallMsg) error { return f.refused }
func (f *fakeChain) estimateGas(context.Context, ethereum.CallMsg) (uint64, error) {
	return 300_000, f.refused
}

// nodeAnswer is an error the node answered with (a JSON-RPC error: chain.IsNodeAnswer).
type nodeAnswer string

func (e nodeAnswer) Error() string  { return string(e) }
func (e nodeAnswer) ErrorCode() int { return 3 }

var (
	testToken     = common.HexToAddress("0x00000000000000000000000000000000000000c0")
	testRecipient = common.HexToAddress("0x00000000000000000000000000000000000000aa")
)

// checksRelayer is a relayer with everything a reveal's steps use up to its send: the fake chain,
// limits of one reveal per recipient and one in total, its own count of inserts, a pause switch
// on a real SQLite database, and a transaction manager that is never asked to send (the test
// pauses the relayer before a reveal could get there).
func checksRelayer(t *testing.T, reads chainReader) (*Relayer, *tracetest.SpanRecorder) {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	db, err := sqldb.Open("sqlite:" + filepath.Join(t.TempDir(), "relayer.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	reg := prometheus.NewRegistry()
	sw, err := pause.Open(context.Background(), db, "relayer", "test", "reveals", reg, log)
	if err != nil {
		t.Fatal(err)
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	spans := tracetest.NewSpanRecorder()
	one := Rate{N: 1, Window: time.Hour}
	r := &Relayer{
		cfg: Config{ServiceConfig: wallet.ServiceConfig{Chain: chain.Config{RPCTimeout: time.Second}}, Limits: LimitsConfig{PerRecipient: one, Total: one},
			Contracts: ContractsConfig{Vault: common.HexToAddress("0x00000000000000000000000000000000000000f0")}, Fees: funding.Config{Treasury: true}},
		chainID: 1337, reads: reads, metrics: newMetrics(reg), log: log,
		tracer:       sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)).Tracer("test"),
		perRecipient: ratelimit.New(one), total: ratelimit.New(one),
		inserts: &localInserts{}, rootHistory: 32, pause: sw,
		funding: funding.New(funding.Config{Treasury: true}, 1337, common.HexToAddress("0x00000000000000000000000000000000000000f0"), nil, nil),
		tx:      txmgr.New(nil, txmgr.KeySigner(key), 1337, txmgr.Config{}, nil, nil, log),
	}
	return r, spans
}

// checksRequest is a reveal with change that passes every check but the chain's (the fake's).
func checksRequest(t *testing.T) RevealRequest {
	t.Helper()
	id, err := tokenid.Compute(testToken, 1337)
	if err != nil {
		t.Fatal(err)
	}
	amount := big.NewInt(5)
	in := RevealRequest{nullifier: common.BigToHash(big.NewInt(7)), recipient: testRecipient, token: testToken, amount: amount}
	in.signals = zk.Signals{big.NewInt(11), big.NewInt(7), amount, new(big.Int).SetBytes(testRecipient.Bytes()), big.NewInt(13), id}
	return in
}

// stepsRun are the names of the reveal steps that ran, in the order they started.
func stepsRun(spans *tracetest.SpanRecorder) []string {
	var names []string
	for _, s := range spans.Ended() {
		if slices.ContainsFunc(revealSteps, func(st step) bool { return st.name == s.Name() }) {
			names = append(names, s.Name())
		}
	}
	return names
}

// A request that fails several checks at once is refused by the first in the order docs/relayer.md lists, then
// the relayer's: the chain being away before all, a spent nullifier before an unknown root (read
// concurrently), both before what parse found wrong with the proof or the recipient; and no
// check after the one that refused it runs.
func TestRevealChecksReportTheFirstFailureInOrder(t *testing.T) {
	t.Parallel()
	fake := &fakeChain{spent: true, rootErr: errors.New("connection refused"), refused: nodeAnswer("execution reverted")}
	r, spans := checksRelayer(t, fake)
	in := checksRequest(t)
	in.proofErr = reject(InvalidProof, "a coordinate is not below q")
	in.recipientErr = reject(InvalidRecipient, "bad checksum")
	in.amount = big.NewInt(6) // not the proof's
	ctx := context.Background()
	if _, err := r.pause.Set(ctx, true); err != nil { // the send, last, refuses too
		t.Fatal(err)
	}
	for _, want := range []struct {
		code, step string
		fix        func()
	}{
		{edge.CodeChainUnavailable, "check.chain", func() { fake.rootErr = nil }},
		{CodeNullifierUsed, "check.chain", func() { fake.spent = false }},
		{CodeUnknownRoot, "check.chain", func() { fake.root = contracts.RootAgeOutput{Known: true, Age: 32} }},
		{CodeInvalidProof, "check.proof", func() { in.proofErr = nil }},
		{CodeInvalidRecipient, "check.recipient", func() { in.recipientErr, in.recipient = nil, testToken }},
		{CodeRecipientNotAllowed, "check.recipient", func() { in.recipient = testRecipient }},
		{CodeSignalMismatch, "check.signals", func() { in.amount = big.NewInt(5) }},
		{CodeRevealRejected, "simulate", func() { fake.refused = nil }},
		{CodeRootExpiring, "check.root_age", func() { fake.root.Age = 3 }},
		{edge.CodePaused, "send", nil},
	} {
		spans.Reset()
		_, err := r.reveal(ctx, in)
		if got := answer(err).Code; got != want.code {
			t.Fatalf("refused with %s (%v), want %s", got, err, want.code)
		}
		ran := stepsRun(spans)
		if len(ran) == 0 || ran[len(ran)-1] != want.step {
			t.Fatalf("%s: the steps that ran: %v; want the last to be %s", want.code, ran, want.step)
		}
		if want.fix != nil {
			want.fix()
		}
	}
}

// A reveal stopped after a step that took something gives back exactly what was taken, and
// nothing it did not take: the insert its root hold counted, the nullifier's hold, its place
// under the limits.
func TestAStoppedRevealGivesBackWhatItTook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	known := func() *fakeChain { return &fakeChain{root: contracts.RootAgeOutput{Known: true, Age: 3}} }
	inFlight := func(r *Relayer) int {
		l := r.inserts.(*localInserts)
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.n
	}
	// allowed reports whether the recipient's and the total's allowance (one each) are whole.
	allowed := func(t *testing.T, r *Relayer) bool {
		t.Helper()
		if err := r.allowSend(ctx, testRecipient); err != nil {
			return false
		}
		r.uncountSend(ctx, testRecipient)
		return true
	}

	t.Run("refused by the limits", func(t *testing.T) {
		r, _ := checksRelayer(t, known())
		other := common.HexToAddress("0x00000000000000000000000000000000000000bb")
		if err := r.allowSend(ctx, other); err != nil { // the total's one reveal, taken by another recipient
			t.Fatal(err)
		}
		_, err := r.reveal(ctx, checksRequest(t))
		if got := answer(err).Code; got != edge.CodeRateLimited {
			t.Fatalf("refused with %s (%v), want RATE_LIMITED", got, err)
		}
		if n := inFlight(r); n != 0 {
			t.Errorf("%d inserts in flight after a reveal refused at its limits, want 0", n)
		}
		r.uncountSend(ctx, other) // the total's back: what is left is the recipient's own
		if !allowed(t, r) {
			t.Error("the recipient's allowance was used by a reveal the total limit refused")
		}
	})

	t.Run("refused at the send", func(t *testing.T) {
		r, _ := checksRelayer(t, known())
		if _, err := r.pause.Set(ctx, true); err != nil {
			t.Fatal(err)
		}
		_, err := r.reveal(ctx, checksRequest(t))
		if got := answer(err).Code; got != edge.CodePaused {
			t.Fatalf("refused with %s (%v), want PAUSED", got, err)
		}
		if n := inFlight(r); n != 0 {
			t.Errorf("%d inserts in flight after a reveal refused at its send, want 0", n)
		}
		if !allowed(t, r) {
			t.Error("the limits still count a reveal refused at its send")
		}
	})

	t.Run("refused at the root hold", func(t *testing.T) {
		fake := known()
		fake.root.Age = 31
		r, _ := checksRelayer(t, fake)
		if err := r.inserts.count(ctx, "other"); err != nil { // another reveal's insert in flight
			t.Fatal(err)
		}
		_, err := r.reveal(ctx, checksRequest(t))
		if got := answer(err).Code; got != CodeRootExpiring {
			t.Fatalf("refused with %s (%v), want ROOT_EXPIRING", got, err)
		}
		if n := inFlight(r); n != 1 {
			t.Errorf("%d inserts in flight after a reveal refused at its root hold, want the other reveal's 1", n)
		}
		if !allowed(t, r) {
			t.Error("the limits count a reveal refused before them")
		}
	})

	t.Run("refused at the send, with replicas", func(t *testing.T) {
		url, _ := redistest.Server(t)
		client, err := ratelimit.Dial(url)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		if err := client.Set(ctx, holds.Marker, "1", 0).Err(); err != nil { // not a Redis that lost its holds
			t.Fatal(err)
		}
		r, _ := checksRelayer(t, known())
		r.holds = holds.New(client, time.Minute, time.Hour, time.Second)
		r.inserts = &fleetInserts{client: client, owner: "test", ttl: time.Minute}
		if _, err := r.pause.Set(ctx, true); err != nil {
			t.Fatal(err)
		}
		in := checksRequest(t)
		_, err = r.reveal(ctx, in)
		if got := answer(err).Code; got != edge.CodePaused {
			t.Fatalf("refused with %s (%v), want PAUSED", got, err)
		}
		if _, held, _, err := r.holds.State(ctx, in.nullifier); err != nil || held {
			t.Errorf("the nullifier's hold is still held (%v) after a reveal refused at its send", err)
		}
		if ok, n, err := r.inserts.hold(ctx, "", 0, 32, false); err != nil || !ok || n != 0 {
			t.Errorf("%d inserts in flight across the replicas after a reveal refused at its send, want 0 (%v)", n, err)
		}
		if !allowed(t, r) {
			t.Error("the limits still count a reveal refused at its send")
		}
	})
}

// A copy of a reveal that finds its nullifier held by another replica waits for it, holding
// its root's place; given back unsent, it gives back what it took, runs its checks again from the
// start, and, refused at its send, gives back what it took the second time too.
func TestACopyWhoseHoldIsGivenBackIsCheckedAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, _ := redistest.Server(t)
	client, err := ratelimit.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if err := client.Set(ctx, holds.Marker, "1", 0).Err(); err != nil { // not a Redis that lost its holds
		t.Fatal(err)
	}
	fake := &fakeChain{root: contracts.RootAgeOutput{Known: true, Age: 3}}
	r, spans := checksRelayer(t, fake)
	r.cfg.Tx.ReceiptTimeout, r.cfg.Tx.ReceiptPoll = time.Hour, 5*time.Millisecond
	r.holds = holds.New(client, time.Minute, time.Hour, time.Second)
	r.inserts = &fleetInserts{client: client, owner: "test", ttl: time.Minute}
	if _, err := r.pause.Set(ctx, true); err != nil {
		t.Fatal(err)
	}
	in := checksRequest(t)
	other, err := r.holds.Hold(ctx, in.nullifier) // another replica's hold, nothing sent yet
	if err != nil || other == nil {
		t.Fatalf("the other replica's hold: %v %v", other, err)
	}
	done := make(chan error, 1)
	go func() { _, err := r.reveal(ctx, in); done <- err }()
	for deadline := time.Now().Add(time.Minute); !slices.Contains(stepsRun(spans), "hold"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the copy never tried to hold the nullifier")
		}
	}
	if ok, n, err := r.inserts.hold(ctx, "", 0, 32, false); err != nil || !ok || n != 1 {
		t.Errorf("%d inserts in flight while the copy waits on the other replica's hold, want its 1 (%v)", n, err)
	}
	r.holds.Release(ctx, in.nullifier, other) // the other replica gives it back unsent
	err = <-done
	if got := answer(err).Code; got != edge.CodePaused {
		t.Fatalf("refused with %s (%v), want PAUSED (at its send, after it held)", got, err)
	}
	if n := fake.reads.Load(); n != 2 {
		t.Errorf("the checks read the chain %d times, want 2 (again once the hold was given back)", n)
	}
	if _, held, _, err := r.holds.State(ctx, in.nullifier); err != nil || held {
		t.Errorf("the nullifier's hold is still held (%v) after the copy was refused at its send", err)
	}
	if ok, n, err := r.inserts.hold(ctx, "", 0, 32, false); err != nil || !ok || n != 0 {
		t.Errorf("%d inserts in flight after the copy was refused at its send, want 0 (%v)", n, err)
	}
}
