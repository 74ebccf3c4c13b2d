package edge

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// logAccess writes a request's access line at info: method, route, status, duration, and (from
// the context) the trace, span and request ids. To a logger of NewLogger it writes the very
// bytes slog's JSON handler would, at time t (when the request was answered, read once for the
// line and the duration), appended into a pooled buffer (slog builds a record, asks for its
// caller's program counter and encodes the float through encoding/json: a third of the
// handler's cost for GET /tokens); to any other logger, or with a value slog would escape, it
// logs through slog.
func logAccess(ctx context.Context, l *slog.Logger, t time.Time, method, route string, status int, d time.Duration) {
	if !l.Enabled(ctx, slog.LevelInfo) {
		return
	}
	if h, ok := l.Handler().(traceHandler); ok && h.access != nil && plain(method) && plain(route) && plain(RequestID(ctx)) {
		h.access.write(ctx, t, method, route, status, d.Microseconds())
		return
	}
	l.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("method", method), slog.String("route", route),
		slog.Int("status", status), slog.Float64("duration_ms", float64(d.Microseconds())/1000))
}

// plain reports whether JSON takes s as it is: printable ASCII, no quote, no backslash.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// accessEncoder writes access lines for a traceHandler with no group: attrs are the logger's
// own attributes (With) as slog encoded them, each with its leading comma.
type accessEncoder struct {
	out   io.Writer // safe for concurrent writes (NewLogger)
	attrs []byte
}

var accessBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (e *accessEncoder) write(ctx context.Context, t time.Time, method, route string, status int, us int64) {
	buf := accessBufs.Get().(*[]byte)
	b := e.appendLine((*buf)[:0], ctx, t, method, route, status, us)
	_, _ = e.out.Write(b)
	*buf = b
	accessBufs.Put(buf)
}

// appendLine appends the line slog's JSON handler writes for
// LogAttrs(ctx, slog.LevelInfo, "request", method, route, status, duration_ms) at time t, with
// traceHandler's ids: the same keys in the same order, the time in RFC 3339 with nanoseconds, the
// duration (us microseconds) in milliseconds as encoding/json writes the float (appendMillis).
func (e *accessEncoder) appendLine(b []byte, ctx context.Context, t time.Time, method, route string, status int, us int64) []byte {
	b = append(b, `{"time":"`...)
	b = appendTime(b, t)
	b = append(b, `","level":"INFO","msg":"request"`...)
	b = append(b, e.attrs...)
	b = append(b, `,"method":"`...)
	b = append(b, method...)
	b = append(b, `","route":"`...)
	b = append(b, route...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"duration_ms":`...)
	b = appendMillis(b, us)
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		tid, sid := sc.TraceID(), sc.SpanID()
		b = append(b, `,"trace_id":"`...)
		b = hex.AppendEncode(b, tid[:])
		b = append(b, `","span_id":"`...)
		b = hex.AppendEncode(b, sid[:])
		b = append(b, '"')
	}
	if id := RequestID(ctx); id != "" {
		b = append(b, `,"request_id":"`...)
		b = append(b, id...)
		b = append(b, '"')
	}
	return append(b, "}\n"...)
}

// appendMillis appends us microseconds in milliseconds as encoding/json writes the float
// us/1000: the shortest decimal that reads back as that float, never in exponent form (a
// duration in milliseconds is never small or large enough for it). Below 2^42 µs (50 days) the
// float's neighbours are closer than a microsecond, so that decimal is us/1000's own, three
// decimals at most, less their trailing zeros: written from the integer (the float's shortest
// form is searched for, a fifth of the line's cost); other values through strconv.
func appendMillis(b []byte, us int64) []byte {
	if us < 0 || us >= 1<<42 {
		return strconv.AppendFloat(b, float64(us)/1000, 'f', -1, 64)
	}
	b = strconv.AppendInt(b, us/1000, 10)
	frac := us % 1000
	if frac == 0 {
		return b
	}
	d := [4]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := len(d)
	for d[n-1] == '0' {
		n--
	}
	return append(b, d[:n]...)
}

// appendTime appends t as t.AppendFormat(b, time.RFC3339Nano) does, the date, the time of day
// and the zone formatted once a second (a third of the line's cost otherwise).
func appendTime(b []byte, t time.Time) []byte {
	if y := t.Year(); y < 0 || y > 9999 { // not four digits
		return t.AppendFormat(b, time.RFC3339Nano)
	}
	s := lastSecond.Load()
	if s == nil || s.unix != t.Unix() || s.loc != t.Location() {
		f := t.Truncate(time.Second).AppendFormat(nil, time.RFC3339) // 2006-01-02T15:04:05Z07:00
		s = &second{unix: t.Unix(), loc: t.Location(), head: string(f[:19]), zone: string(f[19:])}
		lastSecond.Store(s)
	}
	b = append(b, s.head...)
	if ns := t.Nanosecond(); ns != 0 { // the fraction's nine digits, trailing zeros left out
		var d [10]byte
		d[0] = '.'
		for i := 9; i > 0; i-- {
			d[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 10
		for d[n-1] == '0' {
			n--
		}
		b = append(b, d[:n]...)
	}
	return append(b, s.zone...)
}

// second is one second's formatted date and time of day, and its zone, in one location.
type second struct {
	unix       int64
	loc        *time.Location
	head, zone string
}

var lastSecond atomic.Pointer[second]

// with is e with attrs added as slog's JSON handler encodes them (it encodes them itself, into a
// buffer); nil when there is no encoder to extend.
func (e *accessEncoder) with(attrs []slog.Attr) *accessEncoder {
	if e == nil {
		return nil
	}
	var buf bytes.Buffer
	h := slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
			return slog.Attr{}
		}
		return a
	}})
	r := slog.NewRecord(time.Time{}, slog.LevelInfo, "", 0)
	r.AddAttrs(attrs...)
	if h.Handle(context.Background(), r) != nil {
		return nil
	}
	enc := bytes.TrimSuffix(bytes.TrimSpace(buf.Bytes()), []byte("}"))
	enc = bytes.TrimPrefix(enc, []byte("{"))
	if len(enc) == 0 {
		return e
	}
	return &accessEncoder{out: e.out, attrs: append(append(append([]byte(nil), e.attrs...), ','), enc...)}
}

// syncWriter serializes writes to a writer that may not be safe for concurrent ones: slog's
// handler locks around its own writes, but access lines are written beside it.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
