package indexer

import (
	"errors"
	"net/http"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// statuses is the one table from the indexer's reasons (errors.go, each with its code) to HTTP
// statuses.
var statuses = map[Reason]int{
	UnknownEvent:  http.StatusBadRequest,
	BadRange:      http.StatusBadRequest,
	BadCursor:     http.StatusBadRequest,
	CursorReorged: http.StatusConflict,

	StreamsPerClient: http.StatusTooManyRequests,
	StreamsFull:      http.StatusServiceUnavailable,

	// GetReady's 503s
	ChainUnreachable: http.StatusServiceUnavailable,
	Lagging:          http.StatusServiceUnavailable,
}

// answer is the indexer's one way from an error to its HTTP answer, for its handlers' errors, its
// readiness and its admissions' refusals alike: a *QueryError by its reason's status (statuses)
// and code, with its Retry-After; an answer the edge built (a bad toBlock) as it is; the shared
// parts' refusals (rate limits) through edge.SharedAnswer; anything else is a fault: 500
// INTERNAL, its cause logged once, by the edge that writes it.
func answer(err error) *edge.Error {
	var qe *QueryError
	if errors.As(err, &qe) {
		e := edge.Refusal(statuses[qe.Reason], qe.Reason.Code(), qe.Message, nil)
		if e.Code != edge.CodeInternal {
			e.RetryAfter = qe.Retry
		}
		return e
	}
	return edge.AsError(err)
}
