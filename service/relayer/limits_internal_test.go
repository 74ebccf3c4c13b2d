package relayer

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// A reveal refused by the total limit does not use up its recipient's allowance.
func TestRefusedRevealIsNotCountedForItsRecipient(t *testing.T) {
	t.Parallel()
	r := &Relayer{
		cfg:          Config{Limits: LimitsConfig{PerRecipient: Rate{N: 2, Window: time.Hour}, Total: Rate{N: 1, Window: time.Minute}}},
		metrics:      newMetrics(prometheus.NewRegistry()),
		perRecipient: ratelimit.New(Rate{N: 2, Window: time.Hour}),
		total:        ratelimit.New(Rate{N: 1, Window: time.Minute}),
	}
	ctx := context.Background()
	a := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if err := r.allowSend(ctx, a); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := r.allowSend(ctx, a); err == nil || !strings.Contains(err.Error(), "in total") {
			t.Fatalf("over the total limit: %v", err)
		}
	}
	r.total = ratelimit.New(Rate{N: 1, Window: time.Minute}) // as when the total window has passed; the recipient's has not
	if err := r.allowSend(ctx, a); err != nil {
		t.Fatalf("the recipient's second reveal: %v (refusals were counted against it)", err)
	}
}

// The learned gas limit only rises: from estimates, and when a mined reveal used more than 80 %
// of what it was given.
func TestGasBook(t *testing.T) {
	t.Parallel()
	var g gasBook
	if g.limit() != 0 {
		t.Fatal("a limit before any estimate")
	}
	g.raise(400_000)
	g.raise(300_000)
	if g.limit() != 400_000 {
		t.Fatalf("limit %d after raises to 400k and 300k", g.limit())
	}
	g.observe(300_000, 400_000) // 75 %: fine
	if g.limit() != 400_000 {
		t.Fatalf("limit moved to %d on a reveal that used 75 %%", g.limit())
	}
	g.observe(350_000, 400_000) // 87.5 %: too close
	if g.limit() != 455_000 {
		t.Fatalf("limit %d after a reveal used 350k of 400k, want 455k", g.limit())
	}
}

// slowInserts is an insertCounter whose hold does not answer until released: it stands in for a
// Redis slow to answer, which a real one cannot be made to be on cue.
type slowInserts struct{ entered, answer chan struct{} }

func (s *slowInserts) hold(context.Context, string, uint32, uint32, bool) (bool, uint32, error) {
	s.entered <- struct{}{}
	<-s.answer
	return true, 0, nil
}
func (s *slowInserts) count(context.Context, string) error   { return nil }
func (s *slowInserts) release(context.Context, string) error { return nil }

// A reveal waiting on the shared count of inserts in flight holds no lock the other reveals
// need: a repeat of an in-flight reveal, which looks in r.sent, is answered meanwhile.
func TestAWaitOnTheInsertCountBlocksNoOtherReveal(t *testing.T) {
	t.Parallel()
	slow := &slowInserts{entered: make(chan struct{}, 1), answer: make(chan struct{})}
	r := &Relayer{cfg: Config{ServiceConfig: wallet.ServiceConfig{Chain: chain.Config{RPCTimeout: time.Second}}}, inserts: slow, rootHistory: 30,
		running: map[common.Hash]*outcome{}, sent: map[common.Hash]*txmgr.Flight{}}
	held := make(chan error, 1)
	go func() {
		_, err := r.holdRoot(context.Background(), 1, true)
		held <- err
	}()
	<-slow.entered
	looked := make(chan struct{})
	go func() {
		r.mu.Lock()
		_ = r.sent[common.Hash{1}]
		r.mu.Unlock()
		close(looked)
	}()
	select {
	case <-looked:
	case <-time.After(10 * time.Second):
		t.Fatal("the reveals' lock was held while the count of inserts waited for Redis")
	}
	close(slow.answer)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
}

// The fleet's count of inserts in flight counts each insert once by its id: counted twice, once;
// given back before its count arrives, not at all; given back twice, once. A hold whose answer
// was lost after Redis counted it is given back by holdRoot. (The proxy drops that one answer: a
// fault a real Redis does not make on demand.)
func TestTheFleetsInsertsCountEachOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, _ := redistest.Server(t)
	client, err := ratelimit.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	f := &fleetInserts{client: client, owner: "ids", ttl: time.Minute}
	n := func() uint32 {
		t.Helper()
		_, n, err := f.hold(ctx, "", 0, 1000, false)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, step := range []func() error{
		func() error { return f.count(ctx, "a") },
		func() error { return f.count(ctx, "a") },
		func() error { return f.release(ctx, "b") },
		func() error { return f.count(ctx, "b") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if got := n(); got != 1 {
		t.Fatalf("%d inserts in flight, want a's alone", got)
	}
	for range 2 {
		if err := f.release(ctx, "a"); err != nil {
			t.Fatal(err)
		}
	}
	if got := n(); got != 0 {
		t.Fatalf("%d inserts in flight after a's release, sent twice, want 0", got)
	}

	lossy, err := ratelimit.Dial(redistest.DropFirstAnswer(t, url, "EVALSHA")) // the scripts are loaded
	if err != nil {
		t.Fatal(err)
	}
	defer lossy.Close()
	r := &Relayer{cfg: Config{ServiceConfig: wallet.ServiceConfig{Chain: chain.Config{RPCTimeout: time.Second}}}, rootHistory: 30,
		inserts: &fleetInserts{client: lossy, owner: "ids", ttl: time.Minute}, log: slog.New(slog.DiscardHandler)}
	if _, err := r.holdRoot(ctx, 1, true); err == nil {
		t.Fatal("a hold whose answer was lost answered")
	}
	if got := n(); got != 0 {
		t.Fatalf("%d inserts in flight after a hold whose answer was lost, want 0", got)
	}
}
