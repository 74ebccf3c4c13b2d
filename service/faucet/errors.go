package faucet

import (
	"errors"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Reason is why the faucet did not take a claim, in the faucet's own terms. The domain code
// returns a *ClaimError with one (or an *AlreadyClaimedError); each reason knows its code (Code),
// and answers.go alone gives each its HTTP status (statuses).
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

// reasonCodes are the reasons' codes: what a claim's answer, its spans and its outcome metric
// name each with.
var reasonCodes = map[Reason]string{
	ClaimRejected: CodeClaimRejected, WalletEmpty: CodeFaucetBalanceLow, AddressBusy: edge.CodeUnavailable,
	ChainUnavailable: edge.CodeChainUnavailable, WalletNotHeld: edge.CodeUnavailable, LimitsLost: edge.CodeUnavailable,
	ZeroAddress: edge.CodeInvalidRequest, AlreadyClaimed: CodeAlreadyClaimed, PowOff: edge.CodeNotFound,
	PowRequired: CodePowRequired, PowInvalid: CodePowInvalid, PowExpired: CodePowExpired, PowUsed: CodePowUsed,
	PowStale: CodePowExpired, PowTriedOut: CodePowInvalid, PowInFlight: edge.CodeRateLimited, PowBusy: edge.CodeUnavailable,
	GateBalanceLow: CodeGateBalanceLow, GateNonceLow: CodeGateNonceLow, GateUnavailable: edge.CodeChainUnavailable,
	CaptchaRequired: CodeCaptchaRequired, CaptchaInvalid: CodeCaptchaInvalid, CaptchaUnavailable: edge.CodeUnavailable,
}

// Code is the reason's code ("" for a value that is no reason).
func (r Reason) Code() string { return reasonCodes[r] }

// faucetFaults are the reasons that are the faucet's doing or what it depends on, not the
// claimant's: a step that ends with one is an error in its span.
var faucetFaults = map[Reason]bool{
	WalletEmpty: true, AddressBusy: true, ChainUnavailable: true, WalletNotHeld: true, LimitsLost: true,
	PowBusy: true, GateUnavailable: true, CaptchaUnavailable: true,
}

// named is err as a claim's spans and its outcome metric name it: a *ClaimError by its reason's
// code, a claim that exists as ALREADY_CLAIMED; the refusals the faucet shares with the relayer
// (the balance gate, an operator's pause, the rate limits) as paid names them; anything else is a
// fault, INTERNAL. The answer's status and Retry-After are answers.go's (answer), which names
// every error as this does (TestRefusalsNameTheCodeTheyAreAnsweredWith).
func named(err error) tracing.Refusal {
	if r, ok := paid.Named(err); ok {
		return r
	}
	var (
		ce      *ClaimError
		already *AlreadyClaimedError
	)
	switch {
	case errors.As(err, &already) || errors.Is(err, errExists):
		return tracing.Refusal{Code: CodeAlreadyClaimed, Message: err.Error()}
	case errors.As(err, &ce) && ce.Reason.Code() != "":
		return tracing.Refusal{Code: ce.Reason.Code(), Message: ce.Message, Fault: faucetFaults[ce.Reason]}
	}
	return tracing.Refusal{Code: edge.CodeInternal, Message: "internal error", Fault: true}
}
