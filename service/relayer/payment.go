package relayer

import (
	"context"
	"errors"

	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// The reveal's steps that ask its funding who pays (package funding): the payment found before
// anything is read (checkFunding), a fee's terms and gas (checkFee, checkFeeGas), a sponsor's
// reservation once the gas limit is known (reserve). What is reserved is given back by the
// reveal's undo when it stops before its send, and settled with its outcome (sentStore.finish).

// checkFunding refuses, before the chain is read, a reveal the relayer's funding does not pay
// for (funding.Check), and keeps the payment that pays for it.
func (r *Relayer) checkFunding(ctx context.Context, a *attempt) error {
	in := a.in
	pay, err := r.funding.Check(ctx, funding.Reveal{Nullifier: in.nullifier, Token: in.token, Amount: in.amount, Partial: a.change}, in.offer)
	if errors.Is(err, funding.ErrOnePayer) {
		return reject(InvalidInput, "%v", err)
	}
	a.pay = pay
	return err
}

// checkFee is a fee's terms (funding.Payment.Terms), after check 5 found the proof binds the fee
// and its receiver.
func (r *Relayer) checkFee(ctx context.Context, a *attempt) error { return a.pay.Terms(ctx) }

// checkFeeGas is a fee's last check, after the simulation (check 7): the fee covers the gas the
// reveal was estimated to use.
func (r *Relayer) checkFeeGas(ctx context.Context, a *attempt) error {
	return a.pay.CoversGas(ctx, a.simGas)
}

func notSponsored(_ *Relayer, a *attempt) bool { return a.pay.By() != funding.Sponsor }

// reserve holds the reveal's worst case of its sponsor's balance, given back by the reveal's
// undo when it stops before its send, and settled once its transaction is mined.
func (r *Relayer) reserve(ctx context.Context, a *attempt) error {
	worst, err := r.tx.WorstCost(ctx, a.gas)
	if err != nil {
		return chainUnavailable(err)
	}
	err = a.pay.Reserve(ctx, worst)
	if errors.Is(err, funding.ErrInProgress) {
		return reject(NullifierUsed, "%v: GET /reveal/{nullifier} tells its outcome", err)
	}
	if err != nil {
		return err
	}
	a.took(func(ctx context.Context) {
		if err := a.pay.Release(ctx); err != nil {
			r.log.Warn("could not give back a sponsor's reservation for a reveal not sent; it is held until the same reveal is asked again", "err", err)
		}
	})
	return nil
}
