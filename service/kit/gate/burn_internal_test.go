package gate

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// Spending 1 unit a minute from 1,000 leaves 1,000 minutes; a funding is not spending; with no
// spending, or too short a history, there is no estimate (+Inf); spending older than the hour
// is forgotten.
func TestTimeToEmpty(t *testing.T) {
	t.Parallel()
	var b burnRate
	t0 := time.Unix(0, 0)
	balance := int64(1060)
	var tte float64
	for m := 0; m <= 60; m++ {
		tte = b.observe(t0.Add(time.Duration(m)*time.Minute), big.NewInt(balance))
		if m == 0 && !math.IsInf(tte, 1) {
			t.Fatalf("an estimate from one read: %v", tte)
		}
		balance--
	}
	// 60 spent over 60 minutes, 1,000 left: 1,000 minutes.
	if want := 1000.0 * 60; math.Abs(tte-want) > 1 {
		t.Fatalf("time to empty %v s, want %v", tte, want)
	}
	// A funding of 10,000: still 1 a minute, now 11,000 left.
	tte = b.observe(t0.Add(61*time.Minute), big.NewInt(balance+10_000))
	if want := float64(balance+10_000) * 60; math.Abs(tte-want)/want > 0.02 {
		t.Fatalf("after a funding: %v s, want about %v", tte, want)
	}
	// Two quiet hours: the spending left the window.
	if tte = b.observe(t0.Add(200*time.Minute), big.NewInt(balance+10_000)); !math.IsInf(tte, 1) {
		t.Fatalf("after two quiet hours: %v, want +Inf", tte)
	}
	// Reads every second keep at most one mark per step.
	for s := range 600 {
		b.observe(t0.Add(200*time.Minute+time.Duration(s)*time.Second), big.NewInt(balance))
	}
	if len(b.samples) > int(burnWindow/burnStep)+2 {
		t.Fatalf("%d marks kept", len(b.samples))
	}
}
