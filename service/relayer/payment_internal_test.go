package relayer

import (
	"context"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// With the treasury off, a reveal without a fee is refused before anything is read from the
// chain; with fees off, one with a fee is.
func TestFundingIsCheckedBeforeAnythingIsRead(t *testing.T) {
	t.Parallel()
	fake := &fakeChain{root: contracts.RootAgeOutput{Known: true, Age: 3}}
	r, spans := checksRelayer(t, fake)
	r.funding = funding.New(funding.Config{Fees: true}, r.chainID, r.cfg.Contracts.Vault, nil, nil)
	_, err := r.reveal(context.Background(), checksRequest(t))
	if got := answer(err); got.Code != funding.CodePaymentRequired || got.Status != 402 {
		t.Fatalf("no fee, no treasury: %d %s, want 402 %s", got.Status, got.Code, funding.CodePaymentRequired)
	}
	if ran := stepsRun(spans); len(ran) != 1 || ran[0] != "check.funding" || fake.reads.Load() != 0 {
		t.Fatalf("steps run %v, chain reads %d; want the funding's alone", ran, fake.reads.Load())
	}
	r.funding = funding.New(funding.Config{Treasury: true}, r.chainID, r.cfg.Contracts.Vault, nil, nil)
	in := checksRequest(t)
	in.offer.Fee = &funding.PaidFee{}
	if _, err := r.reveal(context.Background(), in); answer(err).Code != funding.CodeFeesNotAccepted || fake.reads.Load() != 0 {
		t.Fatalf("a fee where none is taken: %v, chain reads %d", err, fake.reads.Load())
	}
}
