package relayer

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/paying"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// statuses is the one table from the codes of the relayer's reasons (errors.go) and of who pays
// (funding.Reason) to HTTP statuses.
var statuses = map[string]int{
	CodeNullifierUsed:          http.StatusConflict,
	CodeUnknownRoot:            http.StatusUnprocessableEntity,
	CodeInvalidProof:           http.StatusUnprocessableEntity,
	CodeInvalidRecipient:       http.StatusUnprocessableEntity,
	CodeSignalMismatch:         http.StatusUnprocessableEntity,
	CodeRevealRejected:         http.StatusUnprocessableEntity,
	CodeRootExpiring:           http.StatusConflict,
	edge.CodeChainUnavailable:  http.StatusBadGateway,
	CodeTxPending:              http.StatusGatewayTimeout,
	CodeTxReverted:             http.StatusUnprocessableEntity,
	CodeOperatorKeyUnavailable: http.StatusServiceUnavailable,
	CodeTxCancelled:            http.StatusServiceUnavailable,
	CodeRecipientNotAllowed:    http.StatusBadRequest,
	edge.CodeInvalidRequest:    http.StatusBadRequest,
	edge.CodeUnavailable:       http.StatusServiceUnavailable, // HoldsUnavailable

	funding.CodePaymentRequired:     http.StatusPaymentRequired,
	funding.CodeFeesNotAccepted:     http.StatusUnprocessableEntity,
	funding.CodeFeeReceiverMismatch: http.StatusUnprocessableEntity,
	funding.CodeTokenNotPriced:      http.StatusUnprocessableEntity,
	funding.CodeQuoteInvalid:        http.StatusUnprocessableEntity,
	funding.CodeQuoteExpired:        http.StatusPaymentRequired,
	funding.CodeFeeTooLow:           http.StatusPaymentRequired,
	funding.CodeAmountTooSmall:      http.StatusUnprocessableEntity,

	funding.CodeSponsorKeyUnknown:   http.StatusUnauthorized,
	funding.CodeSponsorRevoked:      http.StatusForbidden,
	funding.CodeSponsorBalanceLow:   http.StatusPaymentRequired,
	funding.CodeSponsorsNotAccepted: http.StatusUnprocessableEntity,
	funding.CodeVoucherInvalid:      http.StatusUnprocessableEntity,
	funding.CodeVoucherExpired:      http.StatusPaymentRequired,
	funding.CodeVoucherUsed:         http.StatusConflict,
	funding.CodeVoucherAllowanceLow: http.StatusPaymentRequired,

	funding.CodeIdempotencyKeyReused: http.StatusConflict,
}

// paid is the relayer's answers to the refusals it shares with the faucet (the balance gate, an
// operator's pause, replace or cancel).
var paid = paying.Answers{BalanceLowCode: CodeOperatorBalanceLow, BalanceLowMessage: outOfFunds}

// answer is the relayer's one way from an error to its HTTP answer, for its handlers' errors and
// its admissions' refusals alike: the shared wallet's refusals through paid; a *RevealError by its
// reason's status (statuses) and code, with its Retry-After and the transaction it sent; who pays'
// refusal (*funding.Refusal) by its reason's status and code; an operator's route naming no
// sponsor, 404; an answer the edge built (a bad parameter) as it is;
// the shared parts' refusals (rate limits, a body too large) through edge.SharedAnswer; anything
// else is a fault: 500 INTERNAL, its cause logged once, by the edge that writes it.
func answer(err error) *edge.Error {
	if e, ok := paid.Error(err); ok {
		return e
	}
	var re *RevealError
	if errors.As(err, &re) {
		code := re.Reason.Code()
		e := edge.Refusal(statuses[code], code, re.Message, re.Cause)
		if e.Code == edge.CodeInternal {
			return e
		}
		e.RetryAfter = re.Retry
		if re.TxHash != "" {
			e.Details = map[string]string{"txHash": re.TxHash}
		}
		return e
	}
	var unpaid *funding.Refusal
	if errors.As(err, &unpaid) {
		code := unpaid.Reason.Code()
		return edge.Refusal(statuses[code], code, unpaid.Message, nil)
	}
	if errors.Is(err, funding.ErrNoSponsor) {
		return edge.Errorf(http.StatusNotFound, edge.CodeNotFound, "no sponsor has that id")
	}
	return edge.AsError(err)
}
