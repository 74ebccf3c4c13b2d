package edge

import (
	"bytes"
	"context"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// The access line logAccess appends is byte for byte the line slog's JSON handler writes for the
// same record (the logger's own attributes, the trace, span and request ids), for every duration
// and status; a value slog would escape, a group, or a logger not of NewLogger go through slog.
func TestAccessLineIsSlogs(t *testing.T) {
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3, 0xfe}, SpanID: trace.SpanID{9, 0xab}, TraceFlags: trace.FlagsSampled})
	withIDs := context.WithValue(trace.ContextWithSpanContext(context.Background(), sc), ctxInfo, &requestInfo{id: "req-7.x_Y"})
	at := time.Date(2026, 11, 26, 10, 4, 5, 123456789, time.FixedZone("", 3600))
	for _, c := range []struct {
		name string
		ctx  context.Context
		l    func(*bytes.Buffer) *slog.Logger
	}{
		{"plain", withIDs, func(b *bytes.Buffer) *slog.Logger { return NewLogger(b, slog.LevelInfo, "registry") }},
		{"no ids", context.Background(), func(b *bytes.Buffer) *slog.Logger { return NewLogger(b, slog.LevelDebug, "registry") }},
		{"more attributes", withIDs, func(b *bytes.Buffer) *slog.Logger {
			return NewLogger(b, slog.LevelInfo, `re"g`).With("n", 7, "f", 0.5, "d", time.Second, "g", slog.GroupValue(slog.String("k", "<&>")), "e", "é\n")
		}},
	} {
		for _, us := range []int64{0, 1, 50, 41_200, 1_234_567, 86_400_000_125, 1<<42 - 1, 1 << 42, 1<<53 + 1, -1500} {
			for _, status := range []int{200, 304, 429, 503} {
				var got, want bytes.Buffer
				h := c.l(&got).Handler().(traceHandler)
				h.access.write(c.ctx, at, "GET", "/things/{id}", status, us)
				r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
				r.AddAttrs(slog.String("method", "GET"), slog.String("route", "/things/{id}"), slog.Int("status", status), slog.Float64("duration_ms", float64(us)/1000))
				if err := c.l(&want).Handler().Handle(c.ctx, r); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("%s, %d µs, %d:\n got %s\nwant %s", c.name, us, status, got.String(), want.String())
				}
			}
		}
	}

	// The duration in milliseconds as encoding/json writes the float: every duration to a fifth
	// of a second, then durations spread up to 2^42 µs and past it.
	var ms []byte
	check := func(us int64) {
		ms = appendMillis(ms[:0], us)
		if want := strconv.FormatFloat(float64(us)/1000, 'f', -1, 64); string(ms) != want {
			t.Fatalf("%d µs: %s ms, want %s", us, ms, want)
		}
	}
	for us := range int64(200_000) {
		check(us)
	}
	for us := int64(200_000); us < 1<<44; us = us*11/10 + 7 {
		check(us)
		check(us + 999)
	}

	// The time as RFC 3339 with nanoseconds: whole seconds, trailing zeros, one second in two
	// zones, years of fewer digits.
	var got []byte
	base := time.Date(2026, 3, 29, 0, 59, 59, 0, time.UTC)
	for _, ts := range []time.Time{
		base, base.Add(100 * time.Millisecond), base.Add(123456789), base.Add(999999999), base.Add(time.Second + 1),
		base.In(time.FixedZone("", -(9*3600 + 30*60))), base.Add(1).In(time.FixedZone("", 2*3600)), base.Add(20 * time.Microsecond).Local(),
		time.Date(7, 1, 2, 3, 4, 5, 6000, time.UTC), time.Date(12026, 1, 2, 3, 4, 5, 6, time.UTC), time.Now(), time.Now(), time.Now().UTC(),
	} {
		got = appendTime(got[:0], ts)
		if want := ts.Format(time.RFC3339Nano); string(got) != want {
			t.Errorf("time %s, want %s", got, want)
		}
	}

	// Through slog: a route with a quote, a logger with a group, a logger of slog's own.
	for _, c := range []struct {
		route string
		l     func(*bytes.Buffer) *slog.Logger
	}{
		{`/a"b\c`, func(b *bytes.Buffer) *slog.Logger { return NewLogger(b, slog.LevelInfo, "registry") }},
		{"/x", func(b *bytes.Buffer) *slog.Logger { return NewLogger(b, slog.LevelInfo, "registry").WithGroup("g") }},
		{"/x", func(b *bytes.Buffer) *slog.Logger { return slog.New(slog.NewJSONHandler(b, nil)) }},
	} {
		var got, want bytes.Buffer
		logAccess(withIDs, c.l(&got), time.Now(), "GET", c.route, 200, 1500*time.Microsecond)
		c.l(&want).LogAttrs(withIDs, slog.LevelInfo, "request", slog.String("method", "GET"), slog.String("route", c.route),
			slog.Int("status", 200), slog.Float64("duration_ms", 1.5))
		_, g, _ := strings.Cut(got.String(), `"level"`) // the times differ
		_, w, _ := strings.Cut(want.String(), `"level"`)
		if g == "" || g != w {
			t.Errorf("route %q:\n got %s\nwant %s", c.route, got.String(), want.String())
		}
	}

	// Below the logger's level, nothing.
	var none bytes.Buffer
	logAccess(withIDs, NewLogger(&none, slog.LevelWarn, "registry"), time.Now(), "GET", "/x", 200, time.Millisecond)
	if none.Len() != 0 {
		t.Errorf("an access line at warn: %s", none.String())
	}
}
