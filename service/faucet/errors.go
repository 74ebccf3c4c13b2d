package faucet

import (
	"time"
)

// Reason is why the faucet did not take a claim, in the faucet's own terms. The domain code
// returns a *ClaimError with one (or an *AlreadyClaimedError); api.go alone maps each to an HTTP
// status and code (reasons).
type Reason int

// The reasons.
const (
	ClaimRejected    Reason = iota + 1 // a transfer to the address would revert
	WalletEmpty                        // the wallet holds less than one claim
	AddressBusy                        // another claim for the address is being recorded
	ChainUnavailable                   // the chain did not answer
	WalletNotHeld                      // this replica lost its wallet's lock (Postgres restarted): it signs nothing until it has it again
	LimitsLost                         // the limits' Redis restarted empty: nothing is paid on its word for REDIS_WIPE_QUIET
	ZeroAddress                        // a claim for the zero address
	AlreadyClaimed                     // the address has a claim (an *AlreadyClaimedError, or another request's recorded first)
	PowOff                             // a challenge asked of a faucet that asks no proof of work
	PowRequired                        // a claim without the proof of work the faucet asks for
	PowInvalid                         // a challenge not this faucet's for the address, or a nonce that misses its target
	PowExpired                         // a challenge past its expiry
	PowUsed                            // a challenge that let a claim through already

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

func chainUnavailable(err error) *ClaimError {
	return &ClaimError{Reason: ChainUnavailable, Message: "the chain is unavailable, try again later", Cause: err}
}
