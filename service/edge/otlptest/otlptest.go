// Package otlptest is an OTLP/HTTP trace receiver for tests: what a collector (Jaeger, Tempo,
// the OpenTelemetry Collector) would receive from a service, decoded with the protocol's own
// protobuf types. A service under test exports to it through edge.NewTracerProvider with
// the receiver's Env, as it would to a collector.
package otlptest

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// Span is one received span, flattened: ids in hex, attributes as strings.
type Span struct {
	Service         string // the resource's service.name
	Resource        map[string]string
	TraceID, SpanID string
	ParentID        string // "" for a root
	Name            string
	Kind            tracepb.Span_SpanKind
	Attrs           map[string]string
	Status          tracepb.Status_StatusCode
	StatusMessage   string
	Events          []Event
	Links           []Link
	Start, End      time.Time
}

// Event is a span event: its name and attributes.
type Event struct {
	Name  string
	Attrs map[string]string
}

// Link is a span link: the trace and span it points at.
type Link struct{ TraceID, SpanID string }

// Receiver collects the spans exported to it.
type Receiver struct {
	URL string // its base URL; spans are POSTed to URL/v1/traces

	mu    sync.Mutex
	spans []Span
}

// Start runs a receiver on loopback until the test ends.
func Start(t testing.TB) *Receiver {
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/v1/traces" || req.Method != http.MethodPost {
		http.NotFound(w, req)
		return
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var in coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []Span
	for _, rs := range in.ResourceSpans {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				sp := Span{
					Service: res["service.name"], Resource: res,
					TraceID: hex.EncodeToString(s.TraceId), SpanID: hex.EncodeToString(s.SpanId), Name: s.Name, Kind: s.Kind,
					Attrs: attrs(s.Attributes), Status: s.GetStatus().GetCode(), StatusMessage: s.GetStatus().GetMessage(),
					Start: time.Unix(0, int64(s.StartTimeUnixNano)), End: time.Unix(0, int64(s.EndTimeUnixNano)),
				}
				if len(s.ParentSpanId) > 0 {
					sp.ParentID = hex.EncodeToString(s.ParentSpanId)
				}
				for _, e := range s.Events {
					sp.Events = append(sp.Events, Event{Name: e.Name, Attrs: attrs(e.Attributes)})
				}
				for _, l := range s.Links {
					sp.Links = append(sp.Links, Link{TraceID: hex.EncodeToString(l.TraceId), SpanID: hex.EncodeToString(l.SpanId)})
				}
				got = append(got, sp)
			}
		}
	}
	r.mu.Lock()
	r.spans = append(r.spans, got...)
	r.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[kv.Key] = value(kv.Value)
	}
	return m
}

func value(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *commonpb.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	case *commonpb.AnyValue_DoubleValue:
		return fmt.Sprint(x.DoubleValue)
	case *commonpb.AnyValue_ArrayValue:
		var parts []string
		for _, e := range x.ArrayValue.Values {
			parts = append(parts, value(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return ""
}

// Env is the environment that points a service's exporter here (and nothing else).
func (r *Receiver) Env() func(string) string {
	return func(k string) string {
		if k == "OTEL_EXPORTER_OTLP_ENDPOINT" {
			return r.URL
		}
		return ""
	}
}

// Provider is a tracer provider named service exporting here (edge.NewTracerProvider, as
// a service's main makes it, with env's settings on top of Env's), shut down when the test ends.
func (r *Receiver) Provider(t testing.TB, service string, env map[string]string) edge.TracerProvider {
	t.Helper()
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return r.Env()(k)
	}
	tp, err := edge.NewTracerProvider(context.Background(), service, getenv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp
}

// Spans are the spans received so far, after flushing tp (nil: none) so that what it ended is
// among them.
func (r *Receiver) Spans(t testing.TB, tp edge.TracerProvider) []Span {
	t.Helper()
	if tp != nil {
		if err := tp.ForceFlush(context.Background()); err != nil {
			t.Fatalf("flush the spans: %v", err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Reset forgets the spans received.
func (r *Receiver) Reset() {
	r.mu.Lock()
	r.spans = nil
	r.mu.Unlock()
}

// Trace is the spans of one trace.
type Trace []Span

// TraceOf is the trace of the spans with traceID, in start order.
func TraceOf(spans []Span, traceID string) Trace {
	var out Trace
	for _, s := range spans {
		if s.TraceID == traceID {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// Named is the first span called name, and whether there is one.
func (tr Trace) Named(name string) (Span, bool) {
	for _, s := range tr {
		if s.Name == name {
			return s, true
		}
	}
	return Span{}, false
}

// Children are the spans whose parent is s.
func (tr Trace) Children(s Span) Trace {
	var out Trace
	for _, c := range tr {
		if c.ParentID == s.SpanID {
			out = append(out, c)
		}
	}
	return out
}

// Under reports whether s descends from ancestor.
func (tr Trace) Under(s, ancestor Span) bool {
	byID := map[string]Span{}
	for _, x := range tr {
		byID[x.SpanID] = x
	}
	for p, ok := byID[s.ParentID]; ok; p, ok = byID[p.ParentID] {
		if p.SpanID == ancestor.SpanID {
			return true
		}
	}
	return false
}

// String draws the trace as an indented tree (for failure messages and the README).
func (tr Trace) String() string {
	var b strings.Builder
	ids := map[string]bool{}
	for _, s := range tr {
		ids[s.SpanID] = true
	}
	var draw func(parent string, depth int)
	draw = func(parent string, depth int) {
		for _, s := range tr {
			if s.ParentID == parent || (depth == 0 && parent == "" && !ids[s.ParentID]) {
				code := s.Attrs["vaultd.code"]
				if code != "" {
					code = " [" + code + "]"
				}
				fmt.Fprintf(&b, "%s%s (%s)%s\n", strings.Repeat("  ", depth), s.Name, s.Service, code)
				draw(s.SpanID, depth+1)
			}
		}
	}
	draw("", 0)
	return b.String()
}
