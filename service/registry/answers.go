package registry

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// statuses is the one table from the registry's reasons (errors.go, each with its code) to HTTP
// statuses.
var statuses = map[Reason]int{
	TokenNotFound:    http.StatusNotFound,
	NotAContract:     http.StatusUnprocessableEntity,
	NotAToken:        http.StatusUnprocessableEntity,
	ChainUnavailable: http.StatusBadGateway,
	BadIcon:          http.StatusBadRequest,
	UnsupportedImage: http.StatusUnsupportedMediaType,
	IconTooLarge:     http.StatusRequestEntityTooLarge,
	IconDimensions:   http.StatusUnprocessableEntity,
	TokenListEmpty:   http.StatusNotFound,
	IconNotFound:     http.StatusNotFound,
	RelayerNotFound:  http.StatusNotFound,
	RelayerExists:    http.StatusConflict,
	ChainMismatch:    http.StatusUnprocessableEntity,
	InvalidRelayer:   http.StatusBadRequest,
}

// answer is the registry's one way from an error to its HTTP answer, for its handlers' errors, its
// icons' and its admissions' refusals alike: a *TokenError by its reason's status (statuses) and
// code; an answer the edge built (a bad address, a malformed upload) as it is; the shared parts'
// refusals (rate limits, a body too large) through edge.SharedAnswer; anything else is a fault:
// 500 INTERNAL, its cause logged once, by the edge that writes it.
func answer(err error) *edge.Error {
	var te *TokenError
	if errors.As(err, &te) {
		return edge.Refusal(statuses[te.Reason], te.Reason.Code(), te.Message, te.Cause)
	}
	return edge.AsError(err)
}
