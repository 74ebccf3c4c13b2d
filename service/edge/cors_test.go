package edge

import (
	"github.com/seed018cc74c/vaultd/service/kit/config"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
)

func corsHandler(t *testing.T, origins CORS) http.Handler {
	t.Helper()
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(testSpec), AdminKey: "0123456789abcdef", Metrics: reg, Gatherer: reg, CORS: origins,
		API: func(r chi.Router) {
			r.Post("/admin", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func serve(h http.Handler, method, path, origin string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(`{"a":1}`))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// A browser on an allowed origin gets its preflight answered and can read answers, errors
// included; other origins get no CORS headers; with none configured, nobody does.
func TestCORS(t *testing.T) {
	preflight := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}
	admin := map[string]string{"Authorization": "Bearer 0123456789abcdef"}

	h := corsHandler(t, CORS{"https://app.example.com"})
	rec := serve(h, "OPTIONS", "/admin", "https://app.example.com", preflight)
	if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(rec.Header().Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight from an allowed origin: %d %v", rec.Code, rec.Header())
	}
	rec = serve(h, "POST", "/admin", "https://app.example.com", admin)
	if rec.Code != 200 || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(rec.Header().Get("Access-Control-Expose-Headers"), "Retry-After") || !strings.Contains(rec.Header().Get("Access-Control-Expose-Headers"), "RateLimit-Policy") ||
		!strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Origin") {
		t.Fatalf("request from an allowed origin: %d %v", rec.Code, rec.Header())
	}
	rec = serve(h, "POST", "/admin", "https://app.example.com", nil) // an error is readable too
	if rec.Code != 401 || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Fatalf("error to an allowed origin: %d %v", rec.Code, rec.Header())
	}
	for _, origin := range []string{"https://evil.example.com", "http://app.example.com", ""} {
		rec = serve(h, "OPTIONS", "/admin", origin, preflight)
		if rec.Header().Get("Access-Control-Allow-Origin") != "" || rec.Code == 204 {
			t.Errorf("preflight from %q: %d %v", origin, rec.Code, rec.Header())
		}
		rec = serve(h, "POST", "/admin", origin, admin)
		if rec.Header().Get("Access-Control-Allow-Origin") != "" || rec.Code != 200 {
			t.Errorf("request from %q: %d %v", origin, rec.Code, rec.Header())
		}
	}

	rec = serve(corsHandler(t, CORS{"*"}), "OPTIONS", "/admin", "http://localhost:5173", preflight)
	if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("preflight with *: %d %v", rec.Code, rec.Header())
	}
	rec = serve(corsHandler(t, nil), "POST", "/admin", "http://localhost:5173", admin)
	if rec.Header().Get("Access-Control-Allow-Origin") != "" || rec.Header().Get("Vary") != "" {
		t.Fatalf("no CORS configured: %v", rec.Header())
	}
}

// A browser's EventSource reconnecting to a stream of another origin (the indexer's) sends
// Last-Event-ID, which is not a CORS-safelisted header: its preflight must allow it, or the
// reconnection fails and the events since the last one are never resumed.
func TestCORSAllowsLastEventID(t *testing.T) {
	h := corsHandler(t, CORS{"https://app.example.com"})
	rec := serve(h, "OPTIONS", "/admin", "https://app.example.com",
		map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "last-event-id"})
	allowed := strings.Split(rec.Header().Get("Access-Control-Allow-Headers"), ", ")
	if rec.Code != 204 || !slices.ContainsFunc(allowed, func(h string) bool { return strings.EqualFold(h, "Last-Event-ID") }) {
		t.Fatalf("preflight for Last-Event-ID: %d, Access-Control-Allow-Headers %q", rec.Code, rec.Header().Get("Access-Control-Allow-Headers"))
	}
}

func TestOriginsConfig(t *testing.T) {
	env := func(v string) *config.Env {
		return config.NewEnv(func(k string) string {
			if k == "CORS_ALLOWED_ORIGINS" {
				return v
			}
			return ""
		})
	}
	e := env(" https://App.Example.com , http://localhost:5173,* ")
	got := LoadOrigins(e, "CORS_ALLOWED_ORIGINS")
	if e.Err() != nil || strings.Join(got, " ") != "https://app.example.com http://localhost:5173 *" {
		t.Fatalf("parsed %q, %v", got, e.Err())
	}
	for _, bad := range []string{"app.example.com", "https://app.example.com/path", "ftp://x", "https://", "https://u:p@x"} {
		e := env(bad)
		LoadOrigins(e, "CORS_ALLOWED_ORIGINS")
		if e.Err() == nil || !strings.Contains(e.Err().Error(), "CORS_ALLOWED_ORIGINS") {
			t.Errorf("%q accepted (%v)", bad, e.Err())
		}
	}
}
