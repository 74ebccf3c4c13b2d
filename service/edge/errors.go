// Package edge is the HTTP edge every vaultd service shares, kept apart from the kit's libraries:
// serving and the middleware chain of docs/design.md, one JSON error shape from every layer, admin key
// checks, client IPs, Prometheus metrics, OpenTelemetry spans, JSON logs and graceful shutdown.
package edge

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Error codes shared by the services (docs/design.md, "Error codes"). A service may add its own.
const (
	CodeInvalidRequest       = "INVALID_REQUEST"
	CodeUnauthorized         = "UNAUTHORIZED"
	CodePaused               = "PAUSED" // an operator paused the replica (service/kit/pause, answered by paying)
	CodeNotFound             = "NOT_FOUND"
	CodeNotReplaceable       = "NOT_REPLACEABLE" // an operator's replace or cancel that no replacement can carry (answered by paying)
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodePayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	CodeRateLimited          = "RATE_LIMITED"
	CodeChainUnavailable     = "CHAIN_UNAVAILABLE"
	CodeUnavailable          = "UNAVAILABLE"
	CodeInternal             = "INTERNAL"
)

// Error is an error with its HTTP status and machine code. Message is shown to the caller, so it
// never holds internals or secrets; Cause is logged, never returned.
type Error struct {
	Status     int
	Code       string
	Message    string
	RetryAfter time.Duration // sent as Retry-After when > 0
	// Details are more members of the JSON body after error and code, as a service's document
	// declares them (the relayer's txHash): string values, never internals.
	Details map[string]string
	Cause   error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Code + ": " + e.Message + ": " + e.Cause.Error()
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with a formatted message.
func Errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidRequest is a 400 INVALID_REQUEST.
func InvalidRequest(format string, args ...any) *Error {
	return Errorf(http.StatusBadRequest, CodeInvalidRequest, format, args...)
}

// ChainUnavailable is a 502 CHAIN_UNAVAILABLE caused by err.
func ChainUnavailable(err error) *Error {
	return &Error{Status: http.StatusBadGateway, Code: CodeChainUnavailable, Message: "the chain is unavailable, try again later", Cause: err}
}

// Internal is a 500 INTERNAL caused by err; the cause is logged, never sent.
func Internal(err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error", Cause: err}
}

// ErrUnauthorized is the one answer for a missing or wrong admin key.
var ErrUnauthorized = &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: "missing or invalid admin key"}

// AsError is err as the edge writes it: an *Error (a service's answer, or one the edge built) is
// kept; the refusals of the edge's own parts (a body over its size limit, a rate limit of an
// admission) are answered by SharedAnswer; anything else is a 500. A service answers its errors
// itself, with its one function (HandlerOptions.Answer), before they reach here.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if e, ok := SharedAnswer(err); ok {
		return e
	}
	return Internal(err)
}

// SharedAnswer is err's answer when it is a refusal of a part every service shares: a rate limit
// reached (429 RATE_LIMITED), limits that cannot be checked (503 UNAVAILABLE), a body over its
// size limit (413 PAYLOAD_TOO_LARGE); false otherwise. Each service's one function consults it.
func SharedAnswer(err error) (*Error, bool) {
	var limited *ratelimit.ExceededError
	if errors.As(err, &limited) {
		return &Error{Status: http.StatusTooManyRequests, Code: CodeRateLimited, Message: limited.Error(), RetryAfter: limited.RetryAfter}, true
	}
	if errors.Is(err, ratelimit.ErrUnavailable) {
		return &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: err.Error(), RetryAfter: time.Second, Cause: err}, true
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: CodePayloadTooLarge,
			Message: "request body is larger than " + strconv.FormatInt(tooLarge.Limit, 10) + " bytes"}, true
	}
	return nil, false
}

type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// body is the JSON error body: {"error", "code"}, then the details in name order.
func (e *Error) body() []byte {
	b, _ := json.Marshal(errorBody{Error: e.Message, Code: e.Code})
	if len(e.Details) == 0 {
		return b
	}
	b = b[:len(b)-1]
	for _, k := range slices.Sorted(maps.Keys(e.Details)) {
		name, _ := json.Marshal(k)
		value, _ := json.Marshal(e.Details[k])
		b = append(append(append(append(b, ','), name...), ':'), value...)
	}
	return append(b, '}')
}

// WriteError writes err as the JSON error body with its status and headers, and logs it: at
// error level for faults of the service (500), at warn level for the other 5xx (the chain away,
// a closed balance gate: once per request, while their cause logs its one ERROR), at debug level
// for a caller's mistake.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e := AsError(err)
	logError(r, e)
	writeAnswer(w, r, e)
}

// writeAnswer writes e as the answer, and says so on the request's span, without a log line: the
// caller logged the incident.
func writeAnswer(w http.ResponseWriter, r *http.Request, e *Error) {
	// The request's span says how it was answered: its code, the refusal as an event (for a
	// refusal decided at the edge, validation say, it is the span that decided).
	refused(trace.SpanFromContext(r.Context()), e)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.FormatInt(int64((e.RetryAfter+time.Second-1)/time.Second), 10))
	}
	if e.Status == http.StatusUnauthorized {
		h.Set("WWW-Authenticate", `Bearer realm="vaultd"`)
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(append(e.body(), '\n'))
}

// EndStep ends the span of a step of a request; err, the step's error as the service answers it
// (its own mapping of its domain errors applied), makes it the span that decided the refusal:
// its code, a "refused" event, an error status for a 5xx (tracing.Refused).
func EndStep(span trace.Span, err error) {
	if err != nil {
		refused(span, AsError(err))
	}
	span.End()
}

func refused(span trace.Span, e *Error) {
	tracing.Refused(span, e.Code, e.Message, e.Status >= 500)
}

func logError(r *http.Request, e *Error) {
	level := slog.LevelDebug
	switch {
	case e.Status == http.StatusInternalServerError: // a fault of the service
		level = slog.LevelError
	case e.Status >= 500: // the chain away, a closed balance gate, a pending transaction: the
		// service works as designed, and what closed a gate logged its one alert already
		level = slog.LevelWarn
	}
	// The route's pattern, not the path: a path's values (a nullifier, an address) are the
	// caller's, not the log's.
	attrs := []slog.Attr{slog.Int("status", e.Status), slog.String("code", e.Code), slog.String("method", r.Method), slog.String("route", routePattern(r))}
	if e.Cause != nil {
		attrs = append(attrs, slog.String("cause", e.Cause.Error()))
	}
	Logger(r.Context()).LogAttrs(r.Context(), level, e.Message, attrs...)
}

// Refusal is the answer to a domain's refusal: its status from the service's table, the code the
// domain names it with, the domain's message and cause. A refusal without a status or a code (a
// reason missing from a table) is a fault of the service (500), never a guess.
func Refusal(status int, code, message string, cause error) *Error {
	if status < 400 || code == "" {
		return Internal(fmt.Errorf("no HTTP answer for %q (%d, %s): %w", code, status, message, cause))
	}
	return &Error{Status: status, Code: code, Message: message, Cause: cause}
}
