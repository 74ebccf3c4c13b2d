package platform

import (
	"net/http"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// ClientAdmission is a per-client-IP limit as an admission check (HandlerOptions.Admit): the
// request's client IP (ratelimit.ClientKey with v6Bits) is counted in w, and a request over it
// is a 429 naming what is limited; limited, when set, is told of each.
func ClientAdmission(w ratelimit.Window, v6Bits int, what string, limited func()) func(*http.Request) error {
	return func(r *http.Request) error {
		ok, retry, err := w.Allow(r.Context(), ratelimit.ClientKey(ClientIP(r.Context()), v6Bits))
		if err != nil {
			return ratelimit.Unavailable(err)
		}
		if !ok {
			if limited != nil {
				limited()
			}
			return ratelimit.Exceeded(w.Rate(), what, retry)
		}
		return nil
	}
}
