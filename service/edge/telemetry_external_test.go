package edge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
)

const spec = `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example.org"}]
paths:
  /things/{id}:
    get:
      operationId: thing
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
`

// served is a handler exporting its spans to an OTLP receiver, logging to logs, on a real
// server on loopback; proxies are its TRUSTED_PROXIES.
func served(t *testing.T, env map[string]string, proxies []netip.Prefix, trustAll bool) (*otlptest.Receiver, edge.TracerProvider, *httptest.Server, *bytes.Buffer) {
	t.Helper()
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "things", env)
	logs := &bytes.Buffer{}
	reg := prometheus.NewRegistry()
	h, err := edge.NewHandler(edge.HandlerOptions{
		SpecYAML: []byte(spec), Tracer: tp.Tracer("test"), Metrics: reg, Gatherer: reg, Logger: edge.NewLogger(logs, slog.LevelInfo, "things"),
		TrustedProxies: edge.Proxies{Prefixes: proxies}, TrustTraceParent: trustAll,
		API: func(r chi.Router) {
			r.Get("/things/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return rx, tp, srv, logs
}

func get(t *testing.T, url string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// What a collector receives carries the service's name (OTEL_SERVICE_NAME over the default),
// its version and this process's instance id; the answer names its span in traceresponse; one
// access line at info names the method, route, status, duration, request and trace ids, and
// nothing of the caller or the path's values. Scrapes and probes make neither.
func TestTraceResponseAccessLineAndResource(t *testing.T) {
	rx, tp, srv, logs := served(t, map[string]string{"OTEL_SERVICE_NAME": "things-eu"}, nil, false)
	resp := get(t, srv.URL+"/things/secret-thing-id", map[string]string{"X-Request-Id": "req-7"})
	for _, path := range []string{"/metrics", "/health", "/ready"} {
		get(t, srv.URL+path, nil)
	}
	spans := rx.Spans(t, tp)
	if len(spans) != 1 {
		t.Fatalf("%d spans, want the request's alone (no scrape or probe): %v", len(spans), otlptest.Trace(spans))
	}
	s := spans[0]
	if s.Service != "things-eu" || s.Resource["service.version"] == "" || s.Resource["service.instance.id"] != edge.Instance() {
		t.Errorf("resource %v", s.Resource)
	}
	if want := "00-" + s.TraceID + "-" + s.SpanID + "-01"; resp.Header.Get("traceresponse") != want {
		t.Errorf("traceresponse %q, want %q", resp.Header.Get("traceresponse"), want)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want one access line: %s", len(lines), logs)
	}
	var line map[string]any
	json.Unmarshal([]byte(lines[0]), &line)
	if line["level"] != "INFO" || line["method"] != "GET" || line["route"] != "/things/{id}" || line["status"] != float64(200) ||
		line["request_id"] != "req-7" || line["trace_id"] != s.TraceID || line["duration_ms"] == nil {
		t.Errorf("access line %v", line)
	}
	if strings.Contains(lines[0], "127.0.0.1") || strings.Contains(lines[0], "secret-thing-id") {
		t.Errorf("the access line shows the caller or the path's value: %s", lines[0])
	}
}

// A caller's traceparent has no say on sampling unless it is trusted: an untrusted caller's
// request (flags 00 or 01) is traced in a new trace of the service's, sampled by the service's
// sampler and linked to the caller's span; from a trusted proxy, or with TRUST_TRACEPARENT, the
// request joins the caller's trace and its decision holds.
func TestTheEdgeSamplesOnItsOwnPolicy(t *testing.T) {
	const callerTrace, callerSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	unsampled := map[string]string{"traceparent": "00-" + callerTrace + "-" + callerSpan + "-00"}
	rx, tp, srv, _ := served(t, nil, nil, false)
	get(t, srv.URL+"/things/1", unsampled)
	spans := rx.Spans(t, tp)
	if len(spans) != 1 || spans[0].TraceID == callerTrace || spans[0].ParentID != "" ||
		len(spans[0].Links) != 1 || spans[0].Links[0].TraceID != callerTrace || spans[0].Links[0].SpanID != callerSpan {
		t.Fatalf("an untrusted caller's flags 00: %+v; want the request traced in a new trace linked to the caller's span", spans)
	}
	for name, c := range map[string]struct {
		proxies  []netip.Prefix
		trustAll bool
	}{
		"from a trusted proxy":   {proxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}},
		"with TRUST_TRACEPARENT": {trustAll: true},
	} {
		rx, tp, srv, _ := served(t, nil, c.proxies, c.trustAll)
		get(t, srv.URL+"/things/1", unsampled)
		if spans := rx.Spans(t, tp); len(spans) != 0 {
			t.Errorf("%s, flags 00 still traced: %v", name, spans)
		}
		get(t, srv.URL+"/things/1", map[string]string{"traceparent": "00-" + callerTrace + "-" + callerSpan + "-01"})
		if spans := rx.Spans(t, tp); len(spans) != 1 || spans[0].TraceID != callerTrace || spans[0].ParentID != callerSpan {
			t.Errorf("%s, flags 01: %+v; want the request in the caller's trace", name, spans)
		}
	}
}

// Under traceidratio the trace id decides sampling, so a caller choosing its ids cannot choose
// to be traced: of 200 requests whose trace ids are near zero (all sampled by any ratio were
// they kept), at 1 % only about 2 are traced, each in a trace of the service's own.
func TestACallersTraceIDDoesNotDecideSampling(t *testing.T) {
	for _, sampler := range []string{"traceidratio", "parentbased_traceidratio"} {
		rx, tp, srv, _ := served(t, map[string]string{"OTEL_TRACES_SAMPLER": sampler, "OTEL_TRACES_SAMPLER_ARG": "0.01"}, nil, false)
		for i := range 200 {
			get(t, srv.URL+"/things/1", map[string]string{"traceparent": fmt.Sprintf("00-%032x-00f067aa0ba902b7-01", i+1)})
		}
		spans := rx.Spans(t, tp)
		for _, s := range spans {
			if strings.HasPrefix(s.TraceID, "0000000000000000") {
				t.Errorf("%s: a span in the caller's trace %s", sampler, s.TraceID)
			}
		}
		// Binomial(200, 0.01): 20 or more happens with a probability under 1e-10.
		if len(spans) >= 20 {
			t.Errorf("%s at 1 %%: %d of 200 requests with trace ids near zero traced", sampler, len(spans))
		}
	}
}

// OTEL_SDK_DISABLED=true and OTEL_TRACES_SAMPLER=always_off export nothing (the answer still
// names a trace, for the logs); traceidratio takes its ratio; a sampler or ratio that is not one
// is refused.
func TestTracingSettings(t *testing.T) {
	for _, env := range []map[string]string{{"OTEL_SDK_DISABLED": "true"}, {"OTEL_TRACES_SAMPLER": "always_off"}, {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0"}} {
		rx, tp, srv, _ := served(t, env, nil, false)
		resp := get(t, srv.URL+"/things/1", nil)
		if spans := rx.Spans(t, tp); len(spans) != 0 || !strings.HasSuffix(resp.Header.Get("traceresponse"), "-00") {
			t.Errorf("%v: %d spans exported, traceresponse %q", env, len(spans), resp.Header.Get("traceresponse"))
		}
	}
	rx, tp, srv, _ := served(t, map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1"}, nil, false)
	get(t, srv.URL+"/things/1", nil)
	if spans := rx.Spans(t, tp); len(spans) != 1 {
		t.Errorf("ratio 1: %d spans", len(spans))
	}
	for _, env := range []map[string]string{{"OTEL_TRACES_SAMPLER": "sometimes"}, {"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, {"OTEL_SDK_DISABLED": "yes please"}} {
		if _, err := edge.NewTracerProvider(context.Background(), "x", func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
}

// /metrics speaks OpenMetrics when asked for it (as Prometheus asks), and then the request
// latency histogram carries the trace id of a request that fell in a bucket (an exemplar): a
// dashboard links from a slow bucket to its trace. The text format is still the default.
func TestMetricsCarryTraceExemplars(t *testing.T) {
	rx, tp, srv, _ := served(t, nil, nil, false)
	get(t, srv.URL+"/things/1", nil)
	spans := rx.Spans(t, tp)
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	scrape := func(accept string) (string, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.Header.Get("Content-Type"), b.String()
	}
	kind, body := scrape("application/openmetrics-text; version=1.0.0")
	want := `# {trace_id="` + spans[0].TraceID + `"}`
	var bucket string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "vaultd_http_request_duration_seconds_bucket{") && strings.Contains(line, `route="/things/{id}"`) && strings.Contains(line, want) {
			bucket = line
		}
	}
	if !strings.HasPrefix(kind, "application/openmetrics-text") || bucket == "" {
		t.Fatalf("OpenMetrics: %s, no bucket with the exemplar %s:\n%s", kind, want, body)
	}
	kind, body = scrape("")
	if !strings.HasPrefix(kind, "text/plain") || strings.Contains(body, "trace_id") {
		t.Fatalf("the default format: %s", kind)
	}
}

// A method a client makes up (net/http serves any token) is counted and traced as _OTHER: a
// client cannot make a metric series, or a span name, per request.
func TestMadeUpMethodsMakeNoSeries(t *testing.T) {
	rx, tp, srv, _ := served(t, nil, nil, false)
	for i := range 20 {
		req, _ := http.NewRequest(fmt.Sprintf("BREW%d", i), srv.URL+"/things/1", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	var series []string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "vaultd_http_requests_total{") {
			series = append(series, line)
		}
	}
	if len(series) != 1 || !strings.Contains(series[0], `method="_OTHER"`) || !strings.HasSuffix(series[0], " 20") || strings.Contains(b.String(), "BREW") {
		t.Fatalf("20 requests of made-up methods: %d series %q", len(series), series)
	}
	for _, s := range rx.Spans(t, tp) {
		if strings.Contains(s.Name, "BREW") {
			t.Fatalf("a span named %q", s.Name)
		}
	}
}

// Handlers of one document built at once share it, parsed once, and none writes to it: under
// `go test -race` (which needs cgo) a write by one handler's making is reported here.
func TestHandlersOfOneDocumentBuiltAtOnce(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			reg := prometheus.NewRegistry()
			h, err := edge.NewHandler(edge.HandlerOptions{SpecYAML: []byte(spec), Metrics: reg, Gatherer: reg,
				API: func(r chi.Router) {
					r.Get("/things/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) })
				}})
			if err != nil {
				t.Error(err)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://elsewhere.example/things/1", nil))
			if rec.Code != http.StatusOK {
				t.Errorf("GET /things/1 on another host than the document's server: %d %s", rec.Code, rec.Body)
			}
		})
	}
	wg.Wait()
}
