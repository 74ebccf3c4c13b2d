package faucet

import (
	"math/big"
	"testing"
)

// The outflow rule: the full amount up to half the budget spent, then in proportion to what is
// left, never under the floor; no budget, no change.
func TestOutflowAmount(t *testing.T) {
	t.Parallel()
	full, floor, limit := big.NewInt(100), big.NewInt(10), big.NewInt(400)
	for _, c := range []struct {
		spent *big.Int
		limit *big.Int
		want  int64
	}{
		{big.NewInt(0), nil, 100},     // no budget
		{big.NewInt(390), nil, 100},   // no budget, whatever was spent
		{big.NewInt(0), limit, 100},   // nothing spent
		{big.NewInt(200), limit, 100}, // half spent: still the full amount
		{big.NewInt(201), limit, 99},  // just past half: 100 × 2 × 199/400, rounded down
		{big.NewInt(300), limit, 50},  // three quarters
		{big.NewInt(350), limit, 25},
		{big.NewInt(380), limit, 10}, // 100 × 2 × 20/400 = 10: the floor, reached
		{big.NewInt(390), limit, 10}, // under the floor: the floor
		{big.NewInt(400), limit, 10}, // spent: the gate refuses; the amount stays the floor
		{big.NewInt(500), limit, 10},
	} {
		if got := outflowAmount(full, floor, c.spent, c.limit); got.Int64() != c.want {
			t.Errorf("outflowAmount(spent %v of %v) = %v, want %d", c.spent, c.limit, got, c.want)
		}
	}
	if s := spentShare(big.NewInt(300), limit); s != 0.75 {
		t.Errorf("spentShare(300 of 400) = %v", s)
	}
	if s := spentShare(big.NewInt(500), limit); s != 1 {
		t.Errorf("spentShare(500 of 400) = %v, want at most 1", s)
	}
	if s := spentShare(big.NewInt(500), nil); s != 0 {
		t.Errorf("spentShare without a budget = %v", s)
	}
}
