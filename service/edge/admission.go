package edge

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Admission is a check run first on every request of a route (HandlerOptions.Admit): an error
// refuses the request; a Quota with a Policy is told to the client in RateLimit headers, on the
// answer and on the refusal alike (SetRateLimit).
type Admission func(*http.Request) (ratelimit.Quota, error)

// ClientAdmission is a per-client-IP limit as an admission (its policy is "ip"): the request's
// client IP (ratelimit.ClientKey with v6Bits) is counted in w, and a request over it is a 429
// naming what is limited; limited, when set, is told of each.
func ClientAdmission(w ratelimit.Window, v6Bits int, what string, limited func()) Admission {
	return func(r *http.Request) (ratelimit.Quota, error) {
		d, err := w.Allow(r.Context(), ratelimit.ClientKey(ClientIP(r.Context()), v6Bits))
		if err != nil {
			return ratelimit.Quota{}, ratelimit.Unavailable(err)
		}
		q := ratelimit.Quota{Policy: "ip", Rate: w.Rate(), Decision: d}
		if !d.OK {
			if limited != nil {
				limited()
			}
			return q, ratelimit.Exceeded(w.Rate(), what, d.Reset)
		}
		return q, nil
	}
}

// SetRateLimit tells the client its quota in the headers of the IETF's RateLimit draft
// (draft-ietf-httpapi-ratelimit-headers): RateLimit-Policy: "ip";q=5;w=60 (5 per 60 s) and
// RateLimit: "ip";r=4;t=30 (4 left; the oldest request counted leaves the window in 30 s). It
// runs on every request of a limited route: plain concatenation, no formatting.
func SetRateLimit(h http.Header, q ratelimit.Quota) {
	setRateLimit(h, q, new([1]string))
}

// setRateLimit is SetRateLimit with the RateLimit header's value held in value (a request's
// own: admit's), which the header's slice is.
func setRateLimit(h http.Header, q ratelimit.Quota, value *[1]string) {
	if q.Policy == "" {
		return
	}
	policy, ok := policies.Load(policyKey{q.Policy, q.Rate})
	if !ok {
		value := `"` + q.Policy + `";q=` + strconv.Itoa(q.Rate.N) + ";w=" + strconv.FormatInt(ceilSeconds(q.Rate.Window), 10)
		policy, _ = policies.LoadOrStore(policyKey{q.Policy, q.Rate}, []string{value}[:1:1])
	}
	h["Ratelimit-Policy"] = policy.([]string)
	var buf [64]byte // appended on the stack: the value is the one allocation
	b := append(append(append(buf[:0], '"'), q.Policy...), `";r=`...)
	b = strconv.AppendInt(b, int64(q.Remaining), 10)
	b = strconv.AppendInt(append(b, ";t="...), ceilSeconds(q.Reset), 10)
	value[0] = string(b)
	h["Ratelimit"] = value[:]
}

// policies are the RateLimit-Policy values, one a limit, shared by every answer (their
// capacity is their length: adding a value to one copies it).
var policies sync.Map // policyKey → []string

type policyKey struct {
	policy string
	rate   ratelimit.Rate
}

func ceilSeconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }
