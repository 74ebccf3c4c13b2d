package relayer

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/paying"
)

// statuses is the one table from the relayer's reasons (errors.go, each with its code) to HTTP
// statuses.
var statuses = map[Reason]int{
	NullifierUsed:    http.StatusConflict,
	UnknownRoot:      http.StatusUnprocessableEntity,
	InvalidProof:     http.StatusUnprocessableEntity,
	InvalidRecipient: http.StatusUnprocessableEntity,
	SignalMismatch:   http.StatusUnprocessableEntity,
	RevealRejected:   http.StatusUnprocessableEntity,
	RootExpiring:     http.StatusConflict,
	ChainUnavailable: http.StatusBadGateway,
	TxPending:        http.StatusGatewayTimeout,
	TxReverted:       http.StatusUnprocessableEntity,

	OperatorKeyUnavailable: http.StatusServiceUnavailable,
	TxCancelled:            http.StatusServiceUnavailable,
	RecipientNotAllowed:    http.StatusBadRequest,
	InvalidInput:           http.StatusBadRequest,
	ClaimsUnavailable:      http.StatusServiceUnavailable,

	PaymentRequired:     http.StatusPaymentRequired,
	FeesNotAccepted:     http.StatusUnprocessableEntity,
	FeeReceiverMismatch: http.StatusUnprocessableEntity,
	TokenNotPriced:      http.StatusUnprocessableEntity,
	QuoteInvalid:        http.StatusUnprocessableEntity,
	QuoteExpired:        http.StatusPaymentRequired,
	FeeTooLow:           http.StatusPaymentRequired,
	AmountTooSmall:      http.StatusUnprocessableEntity,

	SponsorKeyUnknown:   http.StatusUnauthorized,
	SponsorRevoked:      http.StatusForbidden,
	SponsorBalanceLow:   http.StatusPaymentRequired,
	SponsorsNotAccepted: http.StatusUnprocessableEntity,
	VoucherInvalid:      http.StatusUnprocessableEntity,
	VoucherExpired:      http.StatusPaymentRequired,
	VoucherUsed:         http.StatusConflict,
	VoucherAllowanceLow: http.StatusPaymentRequired,

	IdempotencyKeyReused: http.StatusConflict,
}

// paid is the relayer's answers to the refusals it shares with the faucet (the balance gate, an
// operator's pause, replace or cancel).
var paid = paying.Answers{BalanceLowCode: CodeOperatorBalanceLow, BalanceLowMessage: outOfFunds}

// answer is the relayer's one way from an error to its HTTP answer, for its handlers' errors and
// its admissions' refusals alike: the shared wallet's refusals through paid; a *RevealError by its
// reason's status (statuses) and code, with its Retry-After and the transaction it sent; an
// operator's route naming no sponsor, 404; an answer the edge built (a bad parameter) as it is;
// the shared parts' refusals (rate limits, a body too large) through edge.SharedAnswer; anything
// else is a fault: 500 INTERNAL, its cause logged once, by the edge that writes it.
func answer(err error) *edge.Error {
	if e, ok := paid.Error(err); ok {
		return e
	}
	var re *RevealError
	if errors.As(err, &re) {
		e := edge.Refusal(statuses[re.Reason], re.Reason.Code(), re.Message, re.Cause)
		if e.Code == edge.CodeInternal {
			return e
		}
		e.RetryAfter = re.Retry
		if re.TxHash != "" {
			e.Details = map[string]string{"txHash": re.TxHash}
		}
		return e
	}
	if errors.Is(err, errNoSponsor) {
		return edge.Errorf(http.StatusNotFound, edge.CodeNotFound, "no sponsor has that id")
	}
	return edge.AsError(err)
}
