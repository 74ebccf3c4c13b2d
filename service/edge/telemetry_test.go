package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// A request gets a server span named by its route, continuing a trusted caller's traceparent, and a
// log line written while serving it carries the trace and request ids.
func TestSpansAndLogCorrelation(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp, err := NewTracerProvider(context.Background(), "test", func(string) string { return "" }, sdktrace.NewSimpleSpanProcessor(exp))
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	logger := NewLogger(&logs, slog.LevelInfo, "test")
	reg := prometheus.NewRegistry()
	h, err := NewHandler(HandlerOptions{
		SpecYAML: []byte(testSpec), Tracer: tp.Tracer("test"), Metrics: reg, Gatherer: reg, TrustTraceParent: true,
		API: func(r chi.Router) {
			r.Get("/boom", func(w http.ResponseWriter, r *http.Request) {
				logger.InfoContext(r.Context(), "inside the handler")
				w.WriteHeader(204)
			})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/boom", nil)
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	req.Header.Set("X-Request-Id", "req-1")
	h.ServeHTTP(httptest.NewRecorder(), req)

	spans := exp.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want 1", len(spans))
	}
	s := spans[0]
	if s.Name != "GET /boom" || s.SpanContext.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || s.Parent.SpanID().String() != "00f067aa0ba902b7" {
		t.Fatalf("span %q trace %s parent %s", s.Name, s.SpanContext.TraceID(), s.Parent.SpanID())
	}
	attrs := map[string]string{}
	for _, a := range s.Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if attrs["http.route"] != "/boom" || attrs["http.response.status_code"] != "204" || attrs["vaultd.request_id"] != "req-1" {
		t.Fatalf("span attributes %v", attrs)
	}
	var line map[string]any // the handler's line (the access line follows it)
	if err := json.Unmarshal([]byte(strings.SplitN(logs.String(), "\n", 2)[0]), &line); err != nil {
		t.Fatalf("log is not JSON: %q", logs.String())
	}
	if line["trace_id"] != "4bf92f3577b34da6a3ce929d0e0e4736" || line["request_id"] != "req-1" || line["service"] != "test" {
		t.Fatalf("log line %v lacks the trace, request id or service", line)
	}
}

// On shutdown a request in flight is finished, not dropped.
func TestServeDrainsInFlightRequests(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		time.Sleep(300 * time.Millisecond)
		w.Write([]byte("done"))
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, 5*time.Second) }()

	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		var b strings.Builder
		buf := make([]byte, 16)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		resp.Body.Close()
		got <- b.String()
	}()
	<-entered
	cancel()
	if body := <-got; body != "done" {
		t.Fatalf("in-flight request got %q", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// With OTEL_EXPORTER_OTLP_ENDPOINT set, spans are exported over OTLP/HTTP to it.
func TestOTLPExportWhenConfigured(t *testing.T) {
	var mu sync.Mutex
	posts := 0
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			mu.Lock()
			posts++
			mu.Unlock()
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	tp, err := NewTracerProvider(context.Background(), "test", os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	_, span := tp.Tracer("test").Start(context.Background(), "work")
	span.End()
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	tp.Shutdown(context.Background())
	mu.Lock()
	exported := posts
	mu.Unlock()
	if exported == 0 {
		t.Fatal("no span reached the OTLP endpoint")
	}

	// Without the variable there is no exporter: spans are made but go nowhere.
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	quiet, _ := NewTracerProvider(context.Background(), "test", os.Getenv)
	_, s := quiet.Tracer("test").Start(context.Background(), "work")
	s.End()
	quiet.ForceFlush(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if posts != exported {
		t.Fatal("a provider without OTEL_EXPORTER_OTLP_ENDPOINT exported spans")
	}
}

// With no exporter a span records nothing, yet it has ids (a child shares its trace), the
// sampler's decision, a remote caller's trace, and a new root when asked: what logs, headers,
// exemplars and outgoing calls read from it.
func TestSpansWithNowhereToGoRecordNothingButCarryIds(t *testing.T) {
	on, err := NewTracerProvider(context.Background(), "test", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	tracer := on.Tracer("test")
	ctx, root := tracer.Start(context.Background(), "root")
	_, child := tracer.Start(ctx, "child")
	rc, cc := root.SpanContext(), child.SpanContext()
	if root.IsRecording() || child.IsRecording() {
		t.Fatal("a span with no exporter is recorded")
	}
	if !rc.IsValid() || !rc.IsSampled() || cc.TraceID() != rc.TraceID() || cc.SpanID() == rc.SpanID() || !cc.IsSampled() {
		t.Fatalf("root %v, child %v: want valid sampled ids, the child in the root's trace with its own span id", rc, cc)
	}
	_, again := tracer.Start(ctx, "new root", trace.WithNewRoot())
	if again.SpanContext().TraceID() == rc.TraceID() {
		t.Fatal("WithNewRoot kept the parent's trace")
	}
	remote := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, Remote: true})
	_, fromRemote := tracer.Start(trace.ContextWithRemoteSpanContext(context.Background(), remote), "served")
	if sc := fromRemote.SpanContext(); sc.TraceID() != remote.TraceID() || sc.IsSampled() {
		t.Fatalf("a span under an unsampled remote parent: %v, want its trace, unsampled (parentbased_always_on)", sc)
	}

	off, err := NewTracerProvider(context.Background(), "test", func(k string) string {
		return map[string]string{"OTEL_TRACES_SAMPLER": "always_off"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, s := off.Tracer("test").Start(context.Background(), "x"); !s.SpanContext().IsValid() || s.SpanContext().IsSampled() {
		t.Fatalf("always_off: %v, want valid ids, not sampled", s.SpanContext())
	}
}
