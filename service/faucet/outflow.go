package faucet

import "math/big"

// The outflow rule: a faucet with a spend budget (FAUCET_SPEND_LIMIT) pays less per claim as
// the window's budget goes, so that it slows rather than flips from open to empty. Up to half
// the budget spent, a claim gets FAUCET_AMOUNT; beyond, the amount falls in proportion to what
// is left, A × 2(1 − s) where s is the share spent, down to FAUCET_MIN_AMOUNT, where it stays
// until the budget is reached. Each claim then takes a share of what is left instead of a fixed
// sum: the window serves about 2.15 times as many claims as at a flat amount (with the default
// floor of a tenth; docs/faucet.md works it out), and the work of a proof of work rises with the
// share spent as well (work), so a flood pays more for less.

// outflowAmount is what one claim sends when spent of limit is gone in the window: full up to
// half of limit, then full × 2(limit − spent)/limit, never under floor. A nil limit is no budget.
func outflowAmount(full, floor, spent, limit *big.Int) *big.Int {
	if limit == nil || limit.Sign() <= 0 || spent == nil {
		return full
	}
	left := new(big.Int).Sub(limit, spent)
	if left.Sign() <= 0 {
		return floor
	}
	if new(big.Int).Lsh(left, 1).Cmp(limit) >= 0 { // at least half left
		return full
	}
	amount := new(big.Int).Mul(full, left)
	amount.Lsh(amount, 1).Quo(amount, limit)
	if amount.Cmp(floor) < 0 {
		return floor
	}
	return amount
}

// spentShare is the share of the window's budget gone (0 without a budget, at most 1).
func spentShare(spent, limit *big.Int) float64 {
	if limit == nil || limit.Sign() <= 0 || spent == nil {
		return 0
	}
	s, _ := new(big.Rat).SetFrac(spent, limit).Float64()
	return min(max(s, 0), 1)
}

// claimAmount is what a claim made now sends: the outflow rule on the window's spending as the
// gate last counted it (the fleet's, with a shared budget: Check read it just before).
func (f *Faucet) claimAmount() *big.Int {
	r := f.gate.Report()
	return outflowAmount(f.cfg.Wallet.Amount, f.cfg.Wallet.MinAmount, r.Spent, r.Budget.Limit)
}
