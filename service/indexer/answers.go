package indexer

import (
	"errors"
	"log/slog"
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

// answerError is the strict server's ResponseErrorHandlerFunc: a handler's error, or the error
// that ended writing its answer (a stream's), answered by answer and logged by the edge, once,
// at ERROR for a fault. A client that has left (its request's context done: it went away before
// its answer, or mid-stream) is answered nothing, having nothing to read it, and logged at debug
// only: leaving is no fault of the service. Its request's context is done then whatever the
// error says (the context's own error, a write to its closed connection: net/http cancels the
// context when one fails).
func answerError(w http.ResponseWriter, r *http.Request, err error) {
	if ctx := r.Context(); ctx.Err() != nil {
		edge.Logger(ctx).LogAttrs(ctx, slog.LevelDebug, "the client left before its answer was complete",
			slog.String("method", r.Method), slog.String("cause", err.Error()))
		return
	}
	edge.WriteError(w, r, answer(err))
}
