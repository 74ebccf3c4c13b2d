package faucet

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/seed018cc74c/vaultd/service/faucet/pow"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Proof is what a claim carries beyond its address, as the faucet asks: a proof of work, a
// captcha's token.
type Proof struct {
	Work    *Solution // nil: none
	Captcha string    // "": none
}

// Solution is what a claim carries when the faucet asks for proof of work: the challenge's
// token and the nonce that solves it.
type Solution struct {
	Challenge string
	Nonce     uint64
}

// newIssuer is the faucet's challenge issuer, nil when it asks no proof of work.
func newIssuer(cfg PowConfig) (*pow.Issuer, error) {
	if cfg.Work == 0 {
		return nil, nil
	}
	secret := cfg.Secret
	if secret == nil { // alone: challenges live as long as this process
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	return pow.NewIssuer(secret, cfg.TTL), nil
}

// Challenge is a new proof-of-work challenge for addr. Its work follows demand: the base
// (FAUCET_POW_WORK) while few claims are made, up to sixteen times as much as the window's
// claims reach the total limit or its spending FAUCET_SPEND_LIMIT, whichever is nearer
// (pow.WorkFor).
func (f *Faucet) Challenge(ctx context.Context, addr common.Address) (pow.Challenge, error) {
	if f.pow == nil {
		return pow.Challenge{}, &ClaimError{Reason: PowOff, Message: "this faucet asks no proof of work: claim without one"}
	}
	if addr == (common.Address{}) {
		return pow.Challenge{}, &ClaimError{Reason: ZeroAddress, Message: "address is the zero address"}
	}
	work, err := f.work(ctx)
	if err != nil {
		return pow.Challenge{}, err
	}
	return f.pow.Issue(addr, pow.Params{Work: work, MemoryKiB: f.cfg.Pow.MemoryKiB, Passes: 1}), nil
}

// workFresh is how long the work asked stands before the window's claims are counted again: a
// flood of challenge requests costs one count a second, not one each.
const workFresh = time.Second

// work is the work a challenge asks now. The count is read without powMu held (never across a
// network call): callers that find the figure stale at the same moment each count once.
func (f *Faucet) work(ctx context.Context) (uint64, error) {
	f.powMu.Lock()
	work, at := f.powWork, f.powAt
	f.powMu.Unlock()
	if time.Since(at) < workFresh {
		return work, nil
	}
	n, err := f.total.Count(ctx, "")
	if err != nil {
		return 0, ratelimit.Unavailable(err)
	}
	r := f.gate.Report()
	work = pow.WorkFor(f.cfg.Pow.Work, max(float64(n)/float64(f.cfg.Limits.Total.N), spentShare(r.Spent, r.Budget.Limit)))
	f.powMu.Lock()
	f.powWork, f.powAt = work, time.Now()
	f.powMu.Unlock()
	f.metrics.powWork.Set(float64(work))
	return work, nil
}

// checkSolution is the claim's proof of work, when the faucet asks for one: the challenge is
// this faucet's, for addr, not expired (all cheap), then its hash meets the target (one
// argon2id, what one try costs the claimant). Spending it is spendSolution's, once the claim is
// about to be recorded.
func (f *Faucet) checkSolution(addr common.Address, sol *Solution) (pow.Challenge, error) {
	if f.pow == nil {
		return pow.Challenge{}, nil
	}
	if sol == nil {
		return pow.Challenge{}, &ClaimError{Reason: PowRequired, Message: "this faucet asks for proof of work: solve a challenge from GET /api/faucet/challenge and send it as pow"}
	}
	c, err := f.pow.Check(sol.Challenge, addr)
	if err == nil {
		start := time.Now()
		err = pow.Verify(c, sol.Nonce)
		f.metrics.powVerify.Observe(time.Since(start).Seconds())
	}
	switch {
	case err == nil:
		return c, nil
	case errors.Is(err, pow.ErrExpired):
		return c, &ClaimError{Reason: PowExpired, Message: err.Error()}
	default:
		return c, &ClaimError{Reason: PowInvalid, Message: err.Error()}
	}
}

// spendSolution records the claim's challenge as spent, on every replica: it lets this claim
// through and no other.
func (f *Faucet) spendSolution(ctx context.Context, c pow.Challenge) error {
	if f.pow == nil {
		return nil
	}
	fresh, err := f.store.spendChallenge(ctx, hexutil.Encode(c.ID[:]), c.Expires, time.Now())
	if err != nil {
		return fmt.Errorf("record the spent challenge: %w", err)
	}
	if !fresh {
		return &ClaimError{Reason: PowUsed, Message: pow.ErrSpent.Error()}
	}
	return nil
}
