package relayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// A reveal refused by the total limit does not use up its recipient's allowance.
func TestRefusedRevealIsNotCountedForItsRecipient(t *testing.T) {
	total := ratelimit.New(Rate{N: 1, Window: time.Minute})
	r := &Relayer{
		cfg:          Config{Limits: LimitsConfig{PerRecipient: Rate{N: 2, Window: time.Hour}, Total: Rate{N: 1, Window: time.Minute}}},
		metrics:      newMetrics(prometheus.NewRegistry()),
		perRecipient: ratelimit.New(Rate{N: 2, Window: time.Hour}),
		total:        total,
	}
	now := time.Now()
	total.SetClock(func() time.Time { return now })
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
	now = now.Add(2 * time.Minute) // the total window has passed; the recipient's has not
	if err := r.allowSend(ctx, a); err != nil {
		t.Fatalf("the recipient's second reveal: %v (refusals were counted against it)", err)
	}
}

// The learned gas limit only rises: from estimates, and when a mined reveal used more than 80 %
// of what it was given.
func TestGasBook(t *testing.T) {
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
