package relayer

import (
	"context"
	"errors"
	"time"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal runs as a list of steps in order (revealSteps): the checks docs/relayer.md lists
// under "Before anything is sent", in its order, then the relayer's own (the off-chain
// verification, the simulation, the root's age against the inserts in flight, the hold across
// replicas, a sponsor's reservation, the rate limits), then the send. Each step is a small function with its span. A step that takes something (an insert
// counted ahead of later reveals, the nullifier's hold, a sponsor's balance, a place under the
// limits) pushes how to give it back on the reveal's attempt, and one path gives back all that
// was taken, newest first, when a later step stops the reveal. Once sent, what was taken is the
// transaction's: given back when it settles (track; a sponsor's, sentStore.finish).

// attempt is one run of a reveal's steps: the request, what the steps learned, what they took.
type attempt struct {
	in     RevealRequest
	change bool // the reveal inserts a change note: a new leaf, so a new root ahead of later reveals

	root    contracts.RootAgeOutput // check 2: whether the proof's root is known, and its age
	data    []byte                  // the vault's reveal call
	gas     uint64                  // the gas limit it is sent with (simulate)
	simGas  uint64                  // the gas the simulation estimated it uses (0: not estimated: no fee, no change)
	release func()                  // gives back the insert the root hold counted (nothing without change)
	hold    *holds.Token            // the nullifier's hold across replicas (nil: one process)
	flight  *txmgr.Flight           // the transaction, once sent
	pay     funding.Payment         // who pays for it (checkFunding)

	undo []func(context.Context) // what the steps took, newest last (unwind)
}

// took remembers how to give back what a step took.
func (a *attempt) took(undo func(context.Context)) { a.undo = append(a.undo, undo) }

// unwind gives back what the steps took, newest first: the one undo path of a reveal stopped
// before its send.
func (a *attempt) unwind(ctx context.Context) {
	for i := len(a.undo) - 1; i >= 0; i-- {
		a.undo[i](ctx)
	}
	a.undo = nil
}

// step is one step of a reveal: its span's name (and its stage's, when timed), and when it applies.
type step struct {
	name  string
	timed bool                          // also a stage of vaultd_relayer_reveal_stage_duration_seconds
	skip  func(*Relayer, *attempt) bool // nil: it always applies
	run   func(*Relayer, context.Context, *attempt) error
}

// revealSteps are a reveal's steps, in the order they run (docs/relayer.md): a request failing
// several checks is refused by the first.
var revealSteps = []step{
	{name: "check.funding", run: (*Relayer).checkFunding},                                // who pays: before anything is read
	{name: "check.chain", timed: true, run: (*Relayer).checkChain},                       // 1 and 2, read concurrently
	{name: "check.proof", run: (*Relayer).checkProof},                                    // 3
	{name: "check.recipient", run: (*Relayer).checkRecipient},                            // 4
	{name: "check.signals", run: (*Relayer).checkSignals},                                // 5
	{name: "check.fee", run: (*Relayer).checkFee, skip: noFee},                           // a fee's receiver, quote and amount
	{name: "check.verify", timed: true, run: (*Relayer).verify, skip: noVerificationKey}, // 6
	{name: "simulate", timed: true, run: (*Relayer).simulateReveal},                      // 7
	{name: "check.fee_gas", run: (*Relayer).checkFeeGas, skip: noFee},                    // the fee covers the simulated gas
	{name: "check.root_age", run: (*Relayer).holdRootAge},
	{name: "hold", run: (*Relayer).hold, skip: oneProcess},
	// A sponsor's reservation: after the gas limit is known, and after the hold, so that one
	// attempt at a time holds a nullifier's (TestSponsorDebitedOnceAcrossReplicas).
	{name: "sponsor", run: (*Relayer).reserve, skip: notSponsored},
	{name: "limits", run: (*Relayer).countSend}, // per recipient, and in total
	{name: "send", timed: true, run: (*Relayer).send},
}

func noVerificationKey(r *Relayer, _ *attempt) bool { return r.vk == nil }    // no VERIFICATION_KEY_FILE
func oneProcess(r *Relayer, _ *attempt) bool        { return r.holds == nil } // no REDIS_URL: no replicas to hold from
func noFee(_ *Relayer, a *attempt) bool             { return a.in.offer.Fee == nil }

// errHeldElsewhere stops a reveal's steps at its hold: another replica is sending this
// nullifier's reveal, whose outcome this copy answers with (awaitOther).
var errHeldElsewhere = errors.New("another replica holds the nullifier")

// reveal runs a parsed request's steps. A copy that waited on another replica's hold, given back
// unsent, runs them again from the start: what the other replica sent may have ended on chain
// meanwhile (reverted, cancelled).
func (r *Relayer) reveal(ctx context.Context, in RevealRequest) (RevealResult, error) {
	for {
		res, err := r.runSteps(ctx, in)
		if !errors.Is(err, errHoldReleased) {
			return res, err
		}
	}
}

// runSteps runs the steps once; what they took is given back on any exit before the send.
func (r *Relayer) runSteps(ctx context.Context, in RevealRequest) (RevealResult, error) {
	a := &attempt{in: in, change: in.signals[zk.SignalChangeCommitment].Sign() != 0}
	defer a.unwind(ctx)
	for _, s := range revealSteps {
		if s.skip != nil && s.skip(r, a) {
			continue
		}
		err := r.runStep(ctx, s, a)
		if errors.Is(err, errHeldElsewhere) {
			return r.awaitOther(ctx, in.nullifier)
		}
		if err != nil {
			return RevealResult{}, err
		}
	}
	// Sent: what the steps took is the transaction's now, given back when it settles.
	a.undo = nil
	return r.follow(ctx, a)
}

// runStep runs one step in its span (and stage), which it ends with the step's refusal.
func (r *Relayer) runStep(ctx context.Context, s step, a *attempt) error {
	open := r.span
	if s.timed {
		open = r.stage
	}
	sctx, end := open(ctx, s.name)
	err := s.run(r, sctx, a)
	if errors.Is(err, errHeldElsewhere) {
		end(nil) // not a refusal: the copy is answered with the other replica's outcome
	} else {
		end(err)
	}
	return err
}

// stage is a step of a reveal timed in vaultd_relayer_reveal_stage_duration_seconds and traced
// (span).
func (r *Relayer) stage(ctx context.Context, name string) (context.Context, func(err error)) {
	start := time.Now()
	ctx, end := r.span(ctx, name)
	return ctx, func(err error) {
		edge.ObserveWithTrace(ctx, r.metrics.stage.WithLabelValues(name), time.Since(start).Seconds())
		end(err)
	}
}

// span is a step of a reveal traced as a child span: ended with the error that decided the
// reveal's refusal there, it carries its code and a "refused" event (an error status only for a
// fault: a 5xx). What the step learned goes on the span of the context it returns.
func (r *Relayer) span(ctx context.Context, name string) (context.Context, func(err error)) {
	ctx, span := r.tracer.Start(ctx, name)
	return ctx, func(err error) { tracing.EndStep(span, err, named) }
}
