package relayer

import (
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"
)

// A reveal refused by the total limit does not use up its recipient's allowance.
func TestRefusedRevealIsNotCountedForItsRecipient(t *testing.T) {
	r := &Relayer{
		cfg:          Config{Limits: LimitsConfig{PerRecipient: Rate{N: 2, Window: time.Hour}, Total: Rate{N: 1, Window: time.Minute}}},
		metrics:      newMetrics(prometheus.NewRegistry()),
		perRecipient: newLimiter(Rate{N: 2, Window: time.Hour}),
		total:        newLimiter(Rate{N: 1, Window: time.Minute}),
	}
	now := time.Now()
	r.total.now = func() time.Time { return now }
	a := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if err := r.allowSend(a); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := r.allowSend(a); err == nil || !strings.Contains(err.Error(), "in total") {
			t.Fatalf("over the total limit: %v", err)
		}
	}
	now = now.Add(2 * time.Minute) // the total window has passed; the recipient's has not
	if err := r.allowSend(a); err != nil {
		t.Fatalf("the recipient's second reveal: %v (refusals were counted against it)", err)
	}
}
