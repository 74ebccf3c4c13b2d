package edge

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// TRUSTED_PROXIES may name the proxy by host name (a compose service's name) instead of
// trusting a whole private range: X-Forwarded-For is believed from the addresses the name
// resolves to, and only from them.
func TestATrustedProxyByHostName(t *testing.T) {
	e := config.NewEnv(func(k string) string {
		if k == "TRUSTED_PROXIES" {
			return "localhost, 10.9.0.0/16"
		}
		return ""
	})
	p := LoadProxies(e, "TRUSTED_PROXIES")
	if err := e.Err(); err != nil || len(p.Hosts) != 1 || len(p.Prefixes) != 1 {
		t.Fatalf("proxies %+v, %v", p, err)
	}
	trusted := newTrustedSet(p)
	for remote, want := range map[string]string{"127.0.0.1:5555": "203.0.113.9", "192.0.2.1:5555": "192.0.2.1", "10.9.1.1:80": "203.0.113.9"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = remote
		req.Header.Set("X-Forwarded-For", "203.0.113.9")
		var info requestInfo
		resolveClient(trusted, req, &info)
		if got := info.ip; got.String() != want {
			t.Errorf("from %s: client %s, want %s", remote, got, want)
		}
	}
	bad := config.NewEnv(func(k string) string { return map[string]string{"TRUSTED_PROXIES": "proxy, not a host!"}[k] })
	if LoadProxies(bad, "TRUSTED_PROXIES"); bad.Err() == nil || !strings.Contains(bad.Err().Error(), "not a host!") {
		t.Fatalf("a bad entry: %v", bad.Err())
	}
}

// A mistyped IP address in TRUSTED_PROXIES is a problem at startup, not a host name that never
// resolves (the real proxy would never be trusted, and every client would share its address);
// addresses, prefixes and real host names still load.
func TestATrustedProxyMistypedIsRefused(t *testing.T) {
	env := func(v string) *config.Env {
		return config.NewEnv(func(k string) string { return map[string]string{"TRUSTED_PROXIES": v}[k] })
	}
	for _, bad := range []string{"10.0.0.256", "192.168.1.300", "10.0.0", "10.0.0.1.5", "10.0.O.1", "8080"} {
		e := env("proxy, " + bad)
		LoadHTTPConfig(e, 8080)
		if err := e.Err(); err == nil || !strings.Contains(err.Error(), "TRUSTED_PROXIES") || !strings.Contains(err.Error(), strconv.Quote(bad)+" is not a valid IP address") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	e := env("10.0.0.255, 192.168.1.0/24, ::1, 2001:db8::/32, proxy, edge-1.internal, 1proxy.example.com, 10-0-0-1.nip.io")
	p := LoadHTTPConfig(e, 8080).TrustedProxies
	if err := e.Err(); err != nil || len(p.Prefixes) != 4 || len(p.Hosts) != 4 {
		t.Fatalf("valid entries: %+v, %v", p, err)
	}
}

// The tracing settings are checked with the rest of the configuration: a mistake in them is
// listed at start beside the others (a process exits 2 naming them all), not found after.
func TestTracingSettingsAreCheckedWithTheConfiguration(t *testing.T) {
	e := config.NewEnv(func(k string) string {
		return map[string]string{"PORT": "x", "OTEL_TRACES_SAMPLER": "bogus", "OTEL_SDK_DISABLED": "maybe"}[k]
	})
	LoadHTTPConfig(e, 8080)
	err := e.Err()
	for _, name := range []string{"PORT", "OTEL_TRACES_SAMPLER", "OTEL_SDK_DISABLED"} {
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("the configuration's problems %v do not name %s", err, name)
		}
	}
	e = config.NewEnv(func(k string) string {
		return map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"}[k]
	})
	if LoadHTTPConfig(e, 8080); e.Err() != nil {
		t.Fatalf("valid tracing settings: %v", e.Err())
	}
}

// Served (Serve), the client's address is the connection's peer, read once a connection, or
// what a trusted peer forwards: on every request of a keep-alive connection alike.
func TestClientIPThroughServe(t *testing.T) {
	for _, c := range []struct {
		name    string
		trusted []netip.Prefix
		xff     string
		want    string
	}{
		{"direct", nil, "", "127.0.0.1"},
		{"direct, a made-up header", nil, "198.51.100.9", "127.0.0.1"},
		{"through a trusted proxy", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, "198.51.100.9", "198.51.100.9"},
	} {
		reg := prometheus.NewRegistry()
		h, err := NewHandler(HandlerOptions{
			SpecYAML: []byte(testSpec), Metrics: reg, Gatherer: reg, TrustedProxies: Proxies{Prefixes: c.trusted},
			API: func(r chi.Router) {
				r.Get("/flags", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, ClientIP(r.Context()).String()) })
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { Serve(ctx, ln, h, time.Second); close(done) }()
		for i := range 3 { // one connection, kept alive
			req, _ := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/flags", nil)
			if c.xff != "" {
				req.Header.Set("X-Forwarded-For", c.xff)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) != c.want {
				t.Errorf("%s, request %d: client %q, want %s", c.name, i, body, c.want)
			}
		}
		cancel()
		<-done
	}
}
