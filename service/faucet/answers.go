package faucet

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/paying"
)

// statuses is the one table from the faucet's reasons (errors.go, each with its code) to HTTP
// statuses.
var statuses = map[Reason]int{
	ClaimRejected:      http.StatusUnprocessableEntity,
	WalletEmpty:        http.StatusServiceUnavailable,
	AddressBusy:        http.StatusServiceUnavailable,
	ChainUnavailable:   http.StatusBadGateway,
	WalletNotHeld:      http.StatusServiceUnavailable,
	LimitsLost:         http.StatusServiceUnavailable,
	ZeroAddress:        http.StatusBadRequest,
	AlreadyClaimed:     http.StatusConflict,
	PowOff:             http.StatusNotFound,
	PowRequired:        http.StatusForbidden,
	PowInvalid:         http.StatusForbidden,
	PowExpired:         http.StatusForbidden,
	PowUsed:            http.StatusForbidden,
	PowStale:           http.StatusForbidden,
	PowTriedOut:        http.StatusForbidden,
	PowInFlight:        http.StatusTooManyRequests,
	PowBusy:            http.StatusServiceUnavailable,
	GateBalanceLow:     http.StatusForbidden,
	GateNonceLow:       http.StatusForbidden,
	GateUnavailable:    http.StatusBadGateway,
	CaptchaRequired:    http.StatusForbidden,
	CaptchaInvalid:     http.StatusForbidden,
	CaptchaUnavailable: http.StatusServiceUnavailable,
}

// paid is the faucet's answers to the refusals it shares with the relayer (the balance gate, an
// operator's pause, replace or cancel).
var paid = paying.Answers{BalanceLowCode: CodeFaucetBalanceLow}

// answer is the faucet's one way from an error to its HTTP answer, for its handlers' errors and
// its admissions' refusals alike: the shared wallet's refusals through paid; a claim the address
// has (an *AlreadyClaimedError, or another request's recorded first) as AlreadyClaimed; a
// *ClaimError by its reason's status (statuses) and code, with its Retry-After; an answer the edge
// built (a bad address) as it is; the shared parts' refusals (rate limits, a body too large)
// through edge.SharedAnswer; anything else is a fault: 500 INTERNAL, its cause logged once, by the
// edge that writes it.
func answer(err error) *edge.Error {
	if e, ok := paid.Error(err); ok {
		return e
	}
	var already *AlreadyClaimedError
	if errors.As(err, &already) {
		return edge.Refusal(statuses[AlreadyClaimed], AlreadyClaimed.Code(), already.Error(), nil)
	}
	if errors.Is(err, errExists) {
		return edge.Refusal(statuses[AlreadyClaimed], AlreadyClaimed.Code(), err.Error(), nil)
	}
	var ce *ClaimError
	if errors.As(err, &ce) {
		e := edge.Refusal(statuses[ce.Reason], ce.Reason.Code(), ce.Message, ce.Cause)
		if e.Code != edge.CodeInternal {
			e.RetryAfter = ce.RetryAfter
		}
		return e
	}
	return edge.AsError(err)
}
