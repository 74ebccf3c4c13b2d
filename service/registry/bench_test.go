package registry_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/registry"
)

var (
	fiftyOnce   sync.Once
	fiftyTokens []devchain.Token
	fiftyErr    error
)

// fifty returns 50 tokens on the test chain: the dev tokens and 46 more from the factory.
func fifty(t testing.TB) []devchain.Token {
	t.Helper()
	fiftyOnce.Do(func() {
		fiftyTokens = append(fiftyTokens, testChain.Tokens...)
		for i := len(fiftyTokens); i < 50; i++ {
			tok, err := testChain.CreateToken(context.Background(), fmt.Sprintf("Bench Token %02d", i), fmt.Sprintf("vB%02d", i), uint8(6+i%13))
			if err != nil {
				fiftyErr = err
				return
			}
			fiftyTokens = append(fiftyTokens, tok)
		}
	})
	if fiftyErr != nil {
		t.Fatal(fiftyErr)
	}
	return fiftyTokens
}

// registryWith starts a registry holding the first n of the 50 tokens, every one with an icon
// URL, category and chain, so list entries are of realistic size.
func registryWith(t testing.TB, n int) *server {
	s := startServer(t, "", nil)
	for i, tok := range fifty(t)[:n] {
		resp := upsert(t, s, registryapi.TokenInput{Address: tok.Address.Hex(), SortOrder: ptr(int32(i)), Category: ptr("stablecoin"),
			UnderlyingChain: ptr("ethereum"), Icon: ptr(fmt.Sprintf("https://cdn.example.com/icons/%s.png", tok.Symbol))})
		if resp.StatusCode() != 201 {
			t.Fatalf("upsert %s: %d %s", tok.Symbol, resp.StatusCode(), resp.Body)
		}
	}
	return s
}

// discardWriter is a ResponseWriter that keeps nothing, so measuring a handler measures only
// the handler.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

func handlerCost(t testing.TB, s *server) testing.BenchmarkResult {
	h := s.svc.Handler()
	req, _ := http.NewRequest("GET", "/tokens", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	return testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		w := &discardWriter{h: http.Header{}}
		for b.Loop() {
			clear(w.h)
			h.ServeHTTP(w, req)
		}
	})
}

// A GET /tokens allocates nothing that grows with the token count: the body is precomputed, so
// the full middleware path costs the same number of allocations and bytes for 4 tokens as for
// 50 (whose body is about 12 KiB longer).
func TestListAllocationsDoNotGrowWithTokenCount(t *testing.T) {
	if testing.Short() {
		t.Skip("deploys 46 tokens")
	}
	few, many := handlerCost(t, registryWith(t, 4)), handlerCost(t, registryWith(t, 50))
	t.Logf("4 tokens: %d allocs, %d B per request; 50 tokens: %d allocs, %d B per request",
		few.AllocsPerOp(), few.AllocedBytesPerOp(), many.AllocsPerOp(), many.AllocedBytesPerOp())
	if many.AllocsPerOp() > few.AllocsPerOp() || many.AllocedBytesPerOp() > few.AllocedBytesPerOp()+256 {
		t.Fatalf("allocations grow with the token count")
	}
}

// BenchmarkListTokens serves GET /tokens with 50 tokens through the registry's full middleware
// path and, in the same run, the same bytes from a bare net/http handler, both over loopback with
// keep-alive clients. The registry sub-benchmark reports registry throughput / bare throughput
// as "throughput-ratio" (target ≥ 0.67) and logs both costs.
//
//	go test ./service/registry -run '^$' -bench ListTokens
func BenchmarkListTokens(b *testing.B) {
	s := registryWith(b, 50)
	body, _ := s.svc.Registry.List(false)
	bare := serveBare(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	var bareNs float64
	b.Run("bare", func(b *testing.B) { bareNs = hammer(b, bare+"/tokens") })
	b.Run("registry", func(b *testing.B) {
		regNs := hammer(b, s.url+"/tokens")
		if bareNs > 0 {
			ratio := bareNs / regNs
			b.ReportMetric(ratio, "throughput-ratio")
			b.Logf("bare %v/req, registry %v/req: the registry reaches %.2f of bare throughput (target >= 0.67); body %d bytes",
				time.Duration(bareNs), time.Duration(regNs), ratio, len(body))
		}
	})
}

// hammer GETs url from parallel keep-alive clients b.N times and returns the wall time per request.
func hammer(b *testing.B, url string) float64 {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	b.ReportAllocs()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Get(url)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	return float64(time.Since(start).Nanoseconds()) / float64(b.N)
}

func serveBare(t testing.TB, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { edge.Serve(ctx, ln, h, time.Second); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// productionOptions are the tracer provider the environment gives with nothing set
// (parentbased_always_on, no exporter) and a logger at info into a LogWriter, as cmd/registry
// runs.
func productionOptions(t testing.TB) registry.Options {
	tp, err := edge.NewTracerProvider(context.Background(), "registry", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	logs := edge.NewLogWriter(io.Discard, 100*time.Millisecond)
	t.Cleanup(func() { logs.Close() })
	return registry.Options{Traces: tp, Logger: edge.NewLogger(logs, slog.LevelInfo, "registry")}
}

// A GET /tokens with the production defaults (a sampled span, its exemplar, the access line, the
// rate limit's headers) allocates at most 15 objects: the edge's layers before routing are one
// handler sharing one copy of the request, one context value and one status recorder with the
// router, a request without a traceparent is not searched for one, the metrics' series are
// bound once, a bucket takes an exemplar at most once a second, the access line is appended
// into a pooled buffer, the per-IP limit makes no span that records nothing and keeps the
// RateLimit header's value in the request's own, the list's header values are shared.
// BenchmarkEdge measures the time.
func TestListAllocatesLittle(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates too")
	}
	s := startServerWith(t, "", nil, productionOptions(t))
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	h := s.svc.Handler()
	req, _ := http.NewRequest("GET", "/tokens", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	w := &discardWriter{h: http.Header{}}
	allocs := testing.AllocsPerRun(1000, func() {
		clear(w.h)
		h.ServeHTTP(w, req)
	})
	if allocs > 15 {
		t.Fatalf("%v allocations per GET /tokens, want at most 15", allocs)
	}
}
