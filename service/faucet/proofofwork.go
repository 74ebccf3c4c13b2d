package faucet

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
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

// The bounds on checking solutions. A check is one argon2id hash (FAUCET_POW_MEMORY_KIB of
// memory, milliseconds of a core) made before anything about the claim is read, and a challenge
// costs nothing to ask for; so the checks running at once are bounded (memory: Checks × the
// hash's memory), one challenge is checked by one request at a time, and a few times at most.
const (
	// powTries is how many wrong solutions one challenge may be checked against, on every
	// replica. An honest solver sends one right one; past them, tries answer POW_INVALID without
	// a hash.
	powTries = 3
	// powQueueWait is how long a claim waits for a check's turn before it is answered 503 with
	// Retry-After: the faucet's memory stays bounded, its other routes answered.
	powQueueWait = time.Second
	// powStaleShare: a solution passes while its challenge's work is at least 1/powStaleShare of
	// the work asked now, so that solutions banked while demand was low do not pay a flood's
	// claims at a fraction of its price.
	powStaleShare = 2
)

// checks bounds the solutions being checked: at most cap(slots) at once, one per challenge.
type checks struct {
	slots chan struct{}
	mu    sync.Mutex
	busy  map[[16]byte]bool // the challenges being checked
}

func newChecks(n int) *checks {
	return &checks{slots: make(chan struct{}, max(n, 1)), busy: map[[16]byte]bool{}}
}

// enter takes a check's turn for challenge id: refused at once when another request is
// checking the same challenge, after powQueueWait when every slot stayed taken. leave gives
// the turn back.
func (c *checks) enter(id [16]byte) (leave func(), err error) {
	c.mu.Lock()
	if c.busy[id] {
		c.mu.Unlock()
		return nil, &ClaimError{Reason: PowInFlight, RetryAfter: time.Second,
			Message: "this challenge's solution is being checked for another request; try again in a moment"}
	}
	c.busy[id] = true
	c.mu.Unlock()
	free := func() {
		c.mu.Lock()
		delete(c.busy, id)
		c.mu.Unlock()
	}
	wait := time.NewTimer(powQueueWait)
	defer wait.Stop()
	select {
	case c.slots <- struct{}{}:
		return func() { <-c.slots; free() }, nil
	case <-wait.C:
		free()
		return nil, &ClaimError{Reason: PowBusy, RetryAfter: time.Second,
			Message: "the faucet is checking as many proofs of work as it can at once; try again in a moment"}
	}
}

// checkSolution is the claim's proof of work, when the faucet asks for one. What costs nothing
// comes first: the challenge is this faucet's, for addr, not expired, its work not below a
// share of what is asked now; then the check waits its turn (checks), counts as one of the
// challenge's tries, and hashes once (what one try costs the claimant). A nonce that met the
// challenge before passes without a hash. Spending it is spendSolution's, once the claim is
// about to be recorded.
func (f *Faucet) checkSolution(ctx context.Context, addr common.Address, sol *Solution) (c pow.Challenge, err error) {
	if f.pow == nil {
		return pow.Challenge{}, nil
	}
	if sol == nil {
		return pow.Challenge{}, &ClaimError{Reason: PowRequired, Message: "this faucet asks for proof of work: solve a challenge from GET /api/faucet/challenge and send it as pow"}
	}
	defer func() {
		var ce *ClaimError
		if errors.As(err, &ce) && powLabels[ce.Reason] != "" {
			f.metrics.powRefused.WithLabelValues(powLabels[ce.Reason]).Inc()
		}
	}()
	c, err = f.pow.Check(sol.Challenge, addr)
	switch {
	case errors.Is(err, pow.ErrExpired):
		return c, &ClaimError{Reason: PowExpired, Message: err.Error()}
	case err != nil:
		return c, &ClaimError{Reason: PowInvalid, Message: err.Error()}
	}
	now, err := f.work(ctx)
	if err != nil {
		return c, err
	}
	// The work asked now is one figure for every replica only where the window's claims are
	// counted in one place (REDIS_URL, or a faucet alone): elsewhere a challenge from a quiet
	// replica would be stale at a busy one.
	if (f.redis != nil || !f.store.shared()) && c.Work*powStaleShare < now {
		return c, &ClaimError{Reason: PowStale, Message: fmt.Sprintf("the work asked rose to %d since this challenge (work %d) was issued: ask for a new one", now, c.Work)}
	}
	leave, err := f.powChecks.enter(c.ID)
	if err != nil {
		return c, err
	}
	defer leave()
	id := hexutil.Encode(c.ID[:])
	tries, passed, err := f.store.tryChallenge(ctx, id, sol.Nonce, c.Expires, time.Now())
	switch {
	case err != nil:
		return c, fmt.Errorf("count the challenge's tries: %w", err)
	case passed: // checked before, for a claim refused after its check
		return c, nil
	case tries > powTries:
		return c, &ClaimError{Reason: PowTriedOut, Message: fmt.Sprintf("this challenge was checked against %d wrong solutions already: ask for a new one", powTries)}
	}
	if err := f.verify(c, sol.Nonce); err != nil {
		return c, &ClaimError{Reason: PowInvalid, Message: err.Error()}
	}
	if err := f.store.passChallenge(ctx, id, sol.Nonce); err != nil {
		return c, fmt.Errorf("record the challenge's solution: %w", err)
	}
	return c, nil
}

// verify is one hash of c's puzzle, timed and counted as running.
func (f *Faucet) verify(c pow.Challenge, nonce uint64) error {
	f.metrics.powChecking.Inc()
	defer f.metrics.powChecking.Dec()
	start := time.Now()
	defer func() { f.metrics.powVerify.Observe(time.Since(start).Seconds()) }()
	return pow.Verify(c, nonce)
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

// unspendSolution gives the claim's challenge back when its claim was not made after all
// (nothing recorded, or withdrawn unsent), so that the client's retry with the same solution
// is not POW_USED. If it fails, the client only has to solve a new challenge.
func (f *Faucet) unspendSolution(ctx context.Context, c pow.Challenge) {
	if f.pow == nil {
		return
	}
	err := f.withStore(ctx, func(ctx context.Context) error { return f.store.unspendChallenge(ctx, hexutil.Encode(c.ID[:])) })
	if err != nil {
		f.log.Warn("could not give back the challenge of a claim that was not made", "err", err)
	}
}
