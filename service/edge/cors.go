package edge

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// CORS says which web origins may call a service from a browser: "*" for any, or exact origins
// ("https://app.example.com"). Empty: no CORS headers, for a web application served from the
// same origin or behind the same reverse proxy.
type CORS []string

// Errors are answered with the same headers, so a browser can read the error body. The allowed
// headers are those a client of the documents sends beyond the safelisted ones: Last-Event-ID is
// what an EventSource sends when it reconnects to the indexer's stream (openapi/indexer.yaml).
const (
	corsAllowMethods  = "GET, POST, PUT, PATCH, DELETE"
	corsAllowHeaders  = "Authorization, Content-Type, If-None-Match, Last-Event-ID, X-Request-Id, traceparent, tracestate"
	corsExposeHeaders = "ETag, Retry-After, X-Request-Id, RateLimit, RateLimit-Policy, traceresponse"
	corsMaxAge        = "600"
)

// LoadOrigins reads a comma-separated list of allowed origins (CORS_ALLOWED_ORIGINS): "*", or
// scheme://host[:port] with no path.
func LoadOrigins(e *config.Env, name string) CORS {
	var out CORS
	for _, part := range strings.Split(e.String(name, ""), ",") {
		part = strings.TrimSpace(part)
		switch {
		case part == "":
		case part == "*":
			out = append(out, part)
		default:
			u, err := url.Parse(part)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
				e.Fail("%s: %q is not an origin (scheme://host[:port]) or *", name, part)
				continue
			}
			out = append(out, u.Scheme+"://"+strings.ToLower(u.Host))
		}
	}
	return out
}

// allowed returns the Access-Control-Allow-Origin value for origin, or "" when it is not allowed.
func (c CORS) allowed(origin string) string {
	switch {
	case origin == "" || len(c) == 0:
		return ""
	case slices.Contains(c, "*"):
		return "*"
	case slices.Contains(c, strings.ToLower(origin)):
		return origin
	}
	return ""
}

// preflight answers a preflight request from an allowed origin (true: answered), and marks
// every answer to an allowed origin as readable. Requests from other origins pass unchanged (the
// browser then withholds the answer).
func (c CORS) preflight(w http.ResponseWriter, r *http.Request) bool {
	if len(c) == 0 {
		return false
	}
	allow := c.allowed(r.Header.Get("Origin"))
	h := w.Header()
	h.Add("Vary", "Origin")
	if allow == "" {
		return false
	}
	h.Set("Access-Control-Allow-Origin", allow)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		h.Add("Vary", "Access-Control-Request-Method")
		h.Add("Vary", "Access-Control-Request-Headers")
		h.Set("Access-Control-Allow-Methods", corsAllowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	return false
}
