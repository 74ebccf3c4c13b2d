package registry

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Every reason the domain code can return has its code (errors.go) and its status (answers.go).
func TestEveryReasonHasItsHTTPAnswer(t *testing.T) {
	t.Parallel()
	for r := TokenNotFound; r < reasonsEnd; r++ {
		if e := answer(refuse(r, "m")); r.Code() == "" || e.Code != r.Code() || e.Status < 400 || e.Status != statuses[r] {
			t.Errorf("reason %d: no HTTP answer (%d %s)", r, e.Status, e.Code)
		}
	}
}

// answer is the registry's one way out: every error it can meet, an unknown icon, the shared
// parts' refusals and an answer the edge built included, has its answer; an error it does not
// know, or a reason without a status, is a 500 that shows nothing of its cause.
func TestAnswerMapsEveryErrorTheRegistryMeets(t *testing.T) {
	t.Parallel()
	cause := errors.New("rpc down")
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{&TokenError{Reason: ChainUnavailable, Message: "the chain is unavailable", Cause: cause}, 502, edge.CodeChainUnavailable},
		{refuse(IconNotFound, "no such icon"), 404, edge.CodeNotFound},
		{ratelimit.Exceeded(ratelimit.Rate{N: 1, Window: time.Minute}, "requests per client IP", time.Second), 429, edge.CodeRateLimited},
		{ratelimit.Unavailable(errors.New("redis down")), 503, edge.CodeUnavailable},
		{&http.MaxBytesError{Limit: 10}, 413, edge.CodePayloadTooLarge},
		{edge.InvalidRequest("the file part is empty"), 400, edge.CodeInvalidRequest},
		{errors.New("secret detail"), 500, edge.CodeInternal},
		{refuse(reasonsEnd, "secret detail"), 500, edge.CodeInternal},
	} {
		e := answer(c.err)
		if e.Status != c.status || e.Code != c.code {
			t.Errorf("%v: answered %d %s, want %d %s", c.err, e.Status, e.Code, c.status, c.code)
		}
		if e.Status == 500 && (e.Message != "internal error" || e.Cause == nil) {
			t.Errorf("%v: a fault answered %q, cause %v", c.err, e.Message, e.Cause)
		}
	}
	if e := answer(&TokenError{Reason: ChainUnavailable, Message: "m", Cause: cause}); !errors.Is(e, cause) {
		t.Fatalf("the cause does not travel with the answer: %#v", e)
	}
}

// A step's span names every error by the code it is answered with, and calls a fault what is
// answered 5xx: the domain's naming (named) and the edge's answer agree.
func TestRefusalsNameTheCodeTheyAreAnsweredWith(t *testing.T) {
	t.Parallel()
	errs := []error{errors.New("a fault"), refuse(reasonsEnd, "a reason without an answer")}
	for r := TokenNotFound; r < reasonsEnd; r++ {
		errs = append(errs, refuse(r, "m"))
	}
	for _, err := range errs {
		e, n := answer(err), named(err)
		if n.Code != e.Code || n.Message != e.Message || n.Fault != (e.Status >= 500) {
			t.Errorf("%v: named %+v, answered %d %s %q", err, n, e.Status, e.Code, e.Message)
		}
	}
}
