package indexer

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Every reason the domain code can return has its code (errors.go) and its status (answers.go): a
// client error, or a 503 for streams the indexer has no room for and for its readiness (GetReady's
// body is a 503's, whatever the reason).
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	unavailable := map[Reason]bool{StreamsFull: true, ChainUnreachable: true, Lagging: true}
	for r := UnknownEvent; r < reasonsEnd; r++ {
		e := answer(&QueryError{Reason: r, Message: "m"})
		if r.Code() == "" || e.Code != r.Code() || e.Status < 400 || e.Status != statuses[r] || (e.Status >= 500) != unavailable[r] ||
			(unavailable[r] && e.Status != http.StatusServiceUnavailable) {
			t.Errorf("reason %d: no answer (%d %s)", r, e.Status, e.Code)
		}
	}
}

// answer is the indexer's one way out: every error it can meet, its readiness, the shared parts'
// refusals and an answer the edge built included, has its answer; an error it does not know, or a
// reason without a status, is a 500 that shows nothing of its cause.
func TestAnswerMapsEveryErrorTheIndexerMeets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err    error
		status int
		code   string
		retry  bool
	}{
		{&QueryError{Reason: StreamsFull, Message: "full", Retry: 5 * time.Second}, 503, edge.CodeUnavailable, true},
		{&QueryError{Reason: ChainUnreachable, Message: "the chain is unreachable"}, 503, edge.CodeChainUnavailable, false},
		{&QueryError{Reason: Lagging, Message: "20 blocks behind the head"}, 503, edge.CodeUnavailable, false},
		{ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "requests per client IP", time.Second), 429, edge.CodeRateLimited, true},
		{ratelimit.Unavailable(errors.New("redis down")), 503, edge.CodeUnavailable, true},
		{edge.InvalidRequest("toBlock must be a block number or latest"), 400, edge.CodeInvalidRequest, false},
		{errors.New("secret detail"), 500, edge.CodeInternal, false},
		{&QueryError{Reason: reasonsEnd, Message: "secret detail", Retry: time.Second}, 500, edge.CodeInternal, false},
	} {
		e := answer(c.err)
		if e.Status != c.status || e.Code != c.code || (e.RetryAfter > 0) != c.retry {
			t.Errorf("%v: answered %d %s (Retry-After %v), want %d %s", c.err, e.Status, e.Code, e.RetryAfter, c.status, c.code)
		}
		if e.Status == 500 && (e.Message != "internal error" || e.Cause == nil) {
			t.Errorf("%v: a fault answered %q, cause %v", c.err, e.Message, e.Cause)
		}
	}
}

// GetReady's 503s are answered by answer: CHAIN_UNAVAILABLE while the chain is unreachable,
// UNAVAILABLE (how far behind) while the indexer lags more than CONFIRMATIONS and healthyLag.
func TestGetReadyAnswersThroughAnswer(t *testing.T) {
	t.Parallel()
	ix := &Indexer{cfg: Config{Confirmations: 2}}
	a := &api{ix: ix}
	for _, c := range []struct {
		reached       bool
		head, indexed uint64
		code, message string
		ready         bool
	}{
		{false, 0, 0, edge.CodeChainUnavailable, "the chain is unreachable", false},
		{true, 100, 50, edge.CodeUnavailable, "50 blocks behind the head", false},
		{true, 100, 100 - 2 - healthyLag, "", "", true},
	} {
		ix.reached, ix.head, ix.indexed = c.reached, c.head, Block{Number: c.indexed}
		r, err := a.GetReady(context.Background(), indexerserver.GetReadyRequestObject{})
		if err != nil {
			t.Fatal(err)
		}
		switch r := r.(type) {
		case indexerserver.GetReady503JSONResponse:
			if c.ready || r.Body.Code != c.code || r.Body.Error != c.message {
				t.Errorf("head %d, indexed %d, reached %v: 503 %+v, want %s %q", c.head, c.indexed, c.reached, r.Body, c.code, c.message)
			}
		case indexerserver.GetReady200JSONResponse:
			if !c.ready {
				t.Errorf("head %d, indexed %d, reached %v: ready, want %s", c.head, c.indexed, c.reached, c.code)
			}
		default:
			t.Fatalf("%T", r)
		}
	}
}
