package relayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
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
type slowInserts struct{ entered, release chan struct{} }

func (s *slowInserts) hold(context.Context, uint32, uint32, bool) (bool, uint32, error) {
	s.entered <- struct{}{}
	<-s.release
	return true, 0, nil
}
func (s *slowInserts) add(context.Context, int) error { return nil }

// A reveal waiting on the shared count of inserts in flight holds no lock the other reveals
// need: a repeat of an in-flight reveal, which looks in r.sent, is answered meanwhile.
func TestAWaitOnTheInsertCountBlocksNoOtherReveal(t *testing.T) {
	t.Parallel()
	slow := &slowInserts{entered: make(chan struct{}, 1), release: make(chan struct{})}
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
	close(slow.release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
}
