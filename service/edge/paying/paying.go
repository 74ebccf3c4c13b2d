// Package paying is the edge of the services that pay from a wallet (the relayer and the
// faucet): one table from the refusals of the kit they share (the balance gate, an operator's
// pause, an operator's replace or cancel) to HTTP answers. Each service consults it from its
// own error mapping, before its own table.
package paying

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// CodeSpendLimitReached is the answer of a gate whose spend limit is reached.
const CodeSpendLimitReached = "SPEND_LIMIT_REACHED"

// Answers are a paying service's answers to the shared refusals: BalanceLowCode (and, when set,
// BalanceLowMessage) is its own for a wallet under its minimum.
type Answers struct {
	BalanceLowCode    string
	BalanceLowMessage string
}

// Error is err's answer when it is one of the shared refusals; false otherwise.
func (a Answers) Error(err error) (*edge.Error, bool) {
	var closed *gate.ClosedError
	switch {
	case errors.As(err, &closed):
		e := &edge.Error{Status: http.StatusServiceUnavailable, Message: closed.Message, Cause: closed.Cause, RetryAfter: closed.RetryAfter}
		switch closed.Refusal {
		case gate.BalanceLow:
			e.Code = a.BalanceLowCode
			if a.BalanceLowMessage != "" {
				e.Message = a.BalanceLowMessage
			}
		case gate.BudgetSpent:
			e.Code = CodeSpendLimitReached
		case gate.BudgetUnknown:
			e.Code = edge.CodeUnavailable
		default:
			return edge.Internal(err), true
		}
		return e, true
	case errors.Is(err, pause.ErrPaused):
		return &edge.Error{Status: http.StatusServiceUnavailable, Code: edge.CodePaused, Message: err.Error(), RetryAfter: pause.RetryAfter}, true
	case errors.Is(err, txmgr.ErrNoFlight): // an operator's replace or cancel of a nonce with nothing in flight
		return &edge.Error{Status: http.StatusNotFound, Code: edge.CodeNotFound, Message: "nothing of this replica's wallet is in flight at that nonce"}, true
	case errors.Is(err, txmgr.ErrNotReplaceable): // at MAX_FEE_PER_GAS, or its cancel mined: a 202 would promise a replacement that cannot happen
		return &edge.Error{Status: http.StatusConflict, Code: edge.CodeNotReplaceable, Message: err.Error()}, true
	}
	return nil, false
}

// Named is err as a paying service's spans and outcome metric name it when it is one of the
// refusals the relayer and the faucet share (Error's, and the shared parts' of edge.SharedAnswer:
// the rate limits): by the code and message it is answered with, a fault when its answer is a
// 5xx; false otherwise. It is made from the answer, so the two cannot disagree.
func (a Answers) Named(err error) (tracing.Refusal, bool) {
	e, ok := a.Error(err)
	if !ok {
		e, ok = edge.SharedAnswer(err)
	}
	if !ok {
		return tracing.Refusal{}, false
	}
	return tracing.Refusal{Code: e.Code, Message: e.Message, Fault: e.Status >= http.StatusInternalServerError}, true
}
