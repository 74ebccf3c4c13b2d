package faucet

import (
	"errors"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// Reason is why the faucet did not take a claim, in the faucet's own terms. The domain code
// returns a *ClaimError with one (or an *AlreadyClaimedError); api.go alone maps each to an HTTP
// status and code (reasons).
type Reason int

// The reasons.
const (
	ClaimRejected      Reason = iota + 1 // a transfer to the address would revert
	WalletEmpty                          // the wallet holds less than one claim
	AddressBusy                          // another claim for the address is being recorded
	ChainUnavailable                     // the chain did not answer
	WalletNotHeld                        // this replica lost its wallet's lock (Postgres restarted): it signs nothing until it has it again
	LimitsLost                           // the limits' Redis restarted empty: nothing is paid on its word for REDIS_WIPE_QUIET
	ZeroAddress                          // a claim for the zero address
	AlreadyClaimed                       // the address has a claim (an *AlreadyClaimedError, or another request's recorded first)
	PowOff                               // a challenge asked of a faucet that asks no proof of work
	PowRequired                          // a claim without the proof of work the faucet asks for
	PowInvalid                           // a challenge not this faucet's for the address, or a nonce that misses its target
	PowExpired                           // a challenge past its expiry
	PowUsed                              // a challenge that let a claim through already
	PowStale                             // a challenge whose work is below a share of the work asked now (powStaleShare)
	PowTriedOut                          // a challenge checked powTries times already
	PowInFlight                          // a challenge being checked for another request now
	PowBusy                              // every check's slot stayed taken for powQueueWait
	GateBalanceLow                       // the claimant holds less than GATE_MIN_BALANCE on the gate chain
	GateNonceLow                         // the claimant has sent fewer than GATE_MIN_NONCE transactions there
	GateUnavailable                      // the gate chain did not answer
	CaptchaRequired                      // a claim without the captcha the faucet asks for
	CaptchaInvalid                       // a captcha its provider refused
	CaptchaUnavailable                   // the captcha provider did not answer

	reasonsEnd // not a reason: one past the last, for the tests
)

// ClaimError is a claim the faucet did not take: its reason, a message for the caller, when to
// try again, and the cause (logged, never sent).
type ClaimError struct {
	Reason     Reason
	Message    string
	RetryAfter time.Duration
	Cause      error
}

func (e *ClaimError) Error() string { return e.Message }
func (e *ClaimError) Unwrap() error { return e.Cause }

// powLabels are the proof of work's refusals (checkSolution's) and their labels on
// vaultd_faucet_pow_refused_total.
var powLabels = map[Reason]string{
	PowRequired: "required", PowInvalid: "invalid", PowExpired: "expired", PowStale: "stale",
	PowTriedOut: "tried_out", PowInFlight: "in_flight", PowBusy: "busy",
}

func chainUnavailable(err error) *ClaimError {
	return &ClaimError{Reason: ChainUnavailable, Message: "the chain is unavailable, try again later", Cause: err}
}

// refusalOf is err as a claim's spans and its outcome metric name it: the code and message it
// is answered with, from the tables the edge answers from (reasons, and paid for the refusals
// shared with the relayer), so a span never names another code than the answer. The answer itself
// (Retry-After, the first claim of a 409) is built at the edge alone (api.go's httpError).
func refusalOf(err error) *edge.Error {
	if e, ok := paid.Error(err); ok {
		return e
	}
	var already *AlreadyClaimedError
	if errors.As(err, &already) || errors.Is(err, errExists) {
		return reasons.Error(AlreadyClaimed, err.Error(), nil)
	}
	var ce *ClaimError
	if errors.As(err, &ce) {
		return reasons.Error(ce.Reason, ce.Message, nil)
	}
	return edge.AsError(err)
}
