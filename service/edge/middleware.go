package edge

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

type ctxKey int

const ctxInfo ctxKey = iota

// requestInfo is what the edge's layers learn of a request, in one context value that each
// fills in as the request passes: one copy of the request and its context for all of them,
// rather than one a layer.
type requestInfo struct {
	logger          *slog.Logger // the service's (HandlerOptions.Logger)
	id              string       // X-Request-Id
	ip              netip.Addr   // the client's
	viaTrustedProxy bool         // the connection comes from a trusted proxy
	admin           bool         // the right admin key
	rateLimit       [1]string    // the RateLimit header's value (admit): its slice, held here
}

func infoOf(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(ctxInfo).(*requestInfo)
	if info == nil {
		return &requestInfo{}
	}
	return info
}

// withInfo returns r with a requestInfo in its context (the one it has, if any).
func withInfo(r *http.Request) (*http.Request, *requestInfo) {
	if info, ok := r.Context().Value(ctxInfo).(*requestInfo); ok {
		return r, info
	}
	info := &requestInfo{}
	return r.WithContext(context.WithValue(r.Context(), ctxInfo, info)), info
}

// Logger returns the logger of the service serving the request (HandlerOptions.Logger), or the
// default logger outside a request.
func Logger(ctx context.Context) *slog.Logger {
	if l := infoOf(ctx).logger; l != nil {
		return l
	}
	return slog.Default()
}

// RequestID returns the request's id (the X-Request-Id it came with, or one made up).
func RequestID(ctx context.Context) string { return infoOf(ctx).id }

// ClientIP returns the caller's IP as decided by the client IP middleware.
func ClientIP(ctx context.Context) netip.Addr { return infoOf(ctx).ip }

// IsAdmin reports whether the request carried the right admin key.
func IsAdmin(ctx context.Context) bool { return infoOf(ctx).admin }

// front is the edge's door, the layers every request passes before routing, in one handler:
// recover → request id → CORS → client IP → span → (the router) → the span's name, the access
// line and the metrics. A layer each, they made a copy of the request and a context value each;
// here one exchange, one context and one copy of the request serve them all, the router's
// context among them (chi makes its own only when none is there).
type front struct {
	logger      *slog.Logger
	cors        CORS
	trusted     *trustedSet
	tracer      trace.Tracer
	trustParent bool
	metrics     *httpMetrics
	mux         *chi.Mux
	routes      sync.Pool // *chi.Context, reused as chi reuses them
}

// serverSpan is the option of every request's span, made once: read only.
var serverSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}

// exchange is one request as the edge knows it: the request's own context, what the layers
// learn of it (requestInfo, the router's context), the status of its answer, and the values of
// the headers the edge answers (a header's values are a slice: held here, they cost no
// allocation of their own).
type exchange struct {
	context.Context
	info   requestInfo
	route  *chi.Context
	rec    statusRecorder
	id, tr [1]string // X-Request-Id, traceresponse
}

// Value answers the edge's keys itself, and the rest from the request's context.
func (x *exchange) Value(key any) any {
	switch key {
	case ctxInfo:
		return &x.info
	case chi.RouteCtxKey:
		return x.route
	}
	return x.Context.Value(key)
}

// ServeHTTP turns a panic into a logged 500 with the usual error body; keeps a well-formed
// X-Request-Id (at most 64 of [A-Za-z0-9._-]) or makes one, and echoes it; answers CORS
// preflights; decides the client's address (resolveClient); starts a server span (but for
// scrapes and probes, quiet), continuing a W3C traceparent that comes from a trusted proxy, or
// from anyone when trustParent (its trace, and its sampling decision under a parentbased_
// sampler), while anyone else's starts a new trace linked to it, and answers its id in
// traceresponse (W3C Trace Context level 2); routes; then names the span by the route pattern,
// logs one access line (finish), and counts and times the request by route, method and status.
func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x := &exchange{Context: r.Context(), info: requestInfo{logger: f.logger}}
	req := r // as the handlers see it, once made
	// The clock is read twice a request, here and at the end: the end is the access line's
	// time and the exemplar's too (each reading costs, more so under a hypervisor's clock).
	start := time.Now()
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			// One ERROR line for the incident, with its stack; the answer is the usual 500,
			// counted as every answer is.
			e, route := Internal(fmt.Errorf("panic: %v", v)), routePattern(req)
			Logger(req.Context()).ErrorContext(req.Context(), "panic while serving a request", "status", e.Status, "code", e.Code,
				"method", r.Method, "route", route, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			writeAnswer(w, req, e)
			end := time.Now()
			f.metrics.observe(req.Context(), route, methodLabel(r.Method), e.Status, end, end.Sub(start))
		}
	}()
	x.info.id = headerValue(r.Header, "X-Request-Id")
	if !validRequestID(x.info.id) {
		x.info.id = newRequestID()
	}
	x.id[0] = x.info.id
	w.Header()["X-Request-Id"] = x.id[:]
	if f.cors.preflight(w, r) {
		return
	}
	resolveClient(f.trusted, r, &x.info)
	x.route = f.routes.Get().(*chi.Context)
	x.route.Reset()
	x.route.Routes = f.mux
	x.rec.ResponseWriter = w
	if quiet(r) {
		req = r.WithContext(x)
		f.mux.ServeHTTP(&x.rec, req)
		end := time.Now()
		f.metrics.observe(x, routePattern(req), methodLabel(r.Method), x.rec.status(), end, end.Sub(start))
		f.routes.Put(x.route)
		return
	}

	ctx := context.Context(x)
	if _, ok := r.Header["Traceparent"]; ok { // as net/http spells every name it reads
		ctx = propagation.TraceContext{}.Extract(ctx, propagation.HeaderCarrier(r.Header))
	}
	parent := trace.SpanContextFromContext(ctx)
	opts := serverSpan
	if parent.IsValid() && !f.trustParent && !x.info.viaTrustedProxy {
		// Neither the caller's trace id (which traceidratio samples by) nor its flags decide
		// whether the request is traced: a trace of the service's own, linked to the caller's.
		opts = []trace.SpanStartOption{serverSpan[0], trace.WithNewRoot(), trace.WithLinks(trace.Link{SpanContext: parent})}
	}
	ctx, span := f.tracer.Start(ctx, methodLabel(r.Method), opts...)
	if sc := span.SpanContext(); sc.IsValid() && sc.SpanID() != parent.SpanID() {
		x.tr[0] = traceResponse(sc)
		w.Header()["Traceresponse"] = x.tr[:]
	}
	req = r.WithContext(ctx)
	served := false
	defer func() {
		if !served { // a panic, answered 500 by the deferred recover above, after this line
			end := time.Now()
			finish(ctx, span, req, http.StatusInternalServerError, end, end.Sub(start))
		}
	}()
	f.mux.ServeHTTP(&x.rec, req)
	served = true
	end := time.Now()
	d, status := end.Sub(start), x.rec.status()
	route := finish(ctx, span, req, status, end, d)
	f.metrics.observe(ctx, route, methodLabel(r.Method), status, end, d)
	f.routes.Put(x.route)
}

// finish logs a request's access line at info: method, route, status, duration, and (from the
// context) the request and trace ids; never the caller's address or anything of the path beyond
// its pattern. It names the span by the route, gives it the request's attributes, ends it, and
// returns the route. end is when the request was answered, d how long it took.
func finish(ctx context.Context, span trace.Span, r *http.Request, status int, end time.Time, d time.Duration) string {
	route := routePattern(r)
	logAccess(ctx, Logger(ctx), end, r.Method, route, status, d)
	if span.IsRecording() {
		method := methodLabel(r.Method)
		span.SetName(method + " " + route)
		span.SetAttributes(
			semconv.HTTPRequestMethodKey.String(method),
			semconv.HTTPRoute(route),
			semconv.HTTPResponseStatusCode(status),
			attribute.String("vaultd.request_id", RequestID(ctx)),
		)
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
	}
	span.End()
	return route
}

// headerValue is h.Get(name) for a name spelled as net/http spells the names it reads
// (canonical: "X-Request-Id"), without spelling it anew: Get canonicalizes its argument
// each time, a scan of every letter.
func headerValue(h http.Header, name string) string {
	if v := h[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// newRequestID makes a request id: 16 hex digits from math/rand/v2's generator (ChaCha8, which
// the runtime seeds at random), as the trace ids are made: an id must not repeat, and need not
// be a secret.
func newRequestID() string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// resolveClient decides the caller's address. X-Forwarded-For is read only when the connection
// comes from a trusted proxy, and then from the right: the first address that is not itself a
// trusted proxy is the client. A client cannot choose its own address by sending the header.
func resolveClient(trusted *trustedSet, r *http.Request, info *requestInfo) {
	prefixes := trusted.prefixes()
	peer, ok := r.Context().Value(peerKey{}).(netip.Addr)
	if !ok { // not through Serve
		peer = peerAddr(r.RemoteAddr)
	}
	info.viaTrustedProxy = isTrusted(peer, prefixes)
	info.ip = peer
	if info.viaTrustedProxy {
		info.ip = clientIP(peer, r.Header["X-Forwarded-For"], prefixes) // as net/http spells the names it reads
	}
}

// peerKey is the context key of the address of a connection's other end, read once a
// connection (withPeer) rather than parsed from each request's RemoteAddr.
type peerKey struct{}

// withPeer is a server's ConnContext: ctx with c's peer address, as peerAddr reads it from
// RemoteAddr (net/http's RemoteAddr is c's, as a string).
func withPeer(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, peerAddr(c.RemoteAddr().String()))
}

// peerAddr is the address of the connection's other end (host:port, or a bare address).
func peerAddr(remoteAddr string) netip.Addr {
	if ap, err := netip.ParseAddrPort(remoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	a, _ := netip.ParseAddr(remoteAddr)
	return a.Unmap()
}

// ResolveClientIP is the client IP rule, on its own for tests.
func ResolveClientIP(remoteAddr string, forwardedFor []string, trusted []netip.Prefix) netip.Addr {
	ip := peerAddr(remoteAddr)
	if !isTrusted(ip, trusted) {
		return ip
	}
	return clientIP(ip, forwardedFor, trusted)
}

// clientIP is the client's address behind peer, a trusted proxy: the first address of
// X-Forwarded-For (forwardedFor), read from the right, that is not itself a trusted proxy.
func clientIP(peer netip.Addr, forwardedFor []string, trusted []netip.Prefix) netip.Addr {
	ip := peer
	if len(forwardedFor) == 0 {
		return ip
	}
	hops := strings.Split(strings.Join(forwardedFor, ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return ip // a garbled hop: trust nothing left of it
		}
		hop = hop.Unmap()
		if !isTrusted(hop, trusted) {
			return hop
		}
		ip = hop
	}
	return ip
}

func isTrusted(ip netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// quiet are the paths of scrapes and probes (GET /metrics, /health, /ready): asked every few
// seconds by machines, they make no span and no access line (noise).
func quiet(r *http.Request) bool {
	switch r.URL.Path {
	case "/metrics", "/health", "/ready":
		return r.Method == http.MethodGet || r.Method == http.MethodHead
	}
	return false
}

// traceResponse is the traceresponse header of sc, "00-<trace id>-<span id>-<flags>", built in
// one allocation.
func traceResponse(sc trace.SpanContext) string {
	var b [55]byte
	tid, sid, flags := sc.TraceID(), sc.SpanID(), sc.TraceFlags()
	copy(b[:], "00-")
	hex.Encode(b[3:35], tid[:])
	b[35] = '-'
	hex.Encode(b[36:52], sid[:])
	b[52] = '-'
	hex.Encode(b[53:55], []byte{byte(flags)})
	return string(b[:])
}

// routePattern is the chi route that served r, or "unmatched".
// methodLabel is a request's method as metrics and spans name it: one of HTTP's own, or _OTHER
// (as OpenTelemetry's conventions say) for any other token a client sends, so that made-up
// methods cannot make a series or a span name each.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
		http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "_OTHER"
}

func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}

// bodyLimit caps request bodies: limits maps "METHOD /pattern" to bytes, def is for the rest.
// admit runs the route's admission check (a rate limit) before anything else looks at the
// request, so that every request counts, malformed ones included.
//
// Each check is a span ("admit"): the one that refuses carries the refusal's code and event. The
// span is made only when the request's span records (an exporter, a sampled request): one that
// records nothing would only cost the hot path a span and a copy of the request, its id seen
// nowhere.
func admit(tracer trace.Tracer, checks map[string]Admission) func(http.Handler) http.Handler {
	type step struct {
		check Admission
		named trace.SpanStartOption // its span's attribute, built once
	}
	var every *step // "*"
	routes := map[routeKey]*step{}
	for key, check := range checks {
		s := &step{check, trace.WithAttributes(attribute.String("vaultd.admission", key))}
		if key == "*" {
			every = s
			continue
		}
		routes[routeKeyOf(key)] = s
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			method := r.Method
			if method == http.MethodHead { // answered as the GET (middleware.GetHead), and counted as one
				method = http.MethodGet
			}
			for _, s := range [2]*step{every, routes[routeKey{method, routePattern(r)}]} {
				if s == nil {
					continue
				}
				req, span := r, trace.Span(nil)
				if trace.SpanFromContext(r.Context()).IsRecording() {
					var ctx context.Context
					ctx, span = tracer.Start(r.Context(), "admit", s.named)
					req = r.WithContext(ctx)
				}
				quota, err := s.check(req)
				setRateLimit(w.Header(), quota, &infoOf(r.Context()).rateLimit)
				if span != nil {
					EndStep(span, err)
				}
				if err != nil {
					WriteError(w, r, err)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// routeKey is a route as HandlerOptions names them, "METHOD /pattern", in its two parts: a
// request's is looked up without joining them into a string.
type routeKey struct{ method, pattern string }

func routeKeyOf(key string) routeKey {
	method, pattern, _ := strings.Cut(key, " ")
	return routeKey{method, pattern}
}

func bodyLimit(def int64, limits map[string]int64) func(http.Handler) http.Handler {
	routes := make(map[routeKey]int64, len(limits))
	for key, l := range limits {
		routes[routeKeyOf(key)] = l
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			limit := def
			if l, ok := routes[routeKey{r.Method, routePattern(r)}]; ok {
				limit = l
			}
			if r.ContentLength > limit {
				drain(r)
				WriteError(w, r, &http.MaxBytesError{Limit: limit})
				return
			}
			if r.Body != nil && r.Body != http.NoBody { // nothing to read, nothing to cap
				r.Body = http.MaxBytesReader(w, r.Body, limit)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// adminAuth marks requests whose "Authorization: Bearer <key>" matches the admin key, compared
// in constant time. It rejects nothing itself: the OpenAPI security of each operation decides.
func adminAuth(key string) func(http.Handler) http.Handler {
	want := sha256.Sum256([]byte(key))
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			authorization := headerValue(r.Header, "Authorization")
			if key == "" || authorization == "" { // no key to compare (its absence is no secret)
				next.ServeHTTP(w, r)
				return
			}
			scheme, token, ok := strings.Cut(strings.TrimSpace(authorization), " ")
			ok = ok && strings.EqualFold(scheme, "Bearer") // the scheme is case-insensitive (RFC 9110)
			got := sha256.Sum256([]byte(strings.TrimSpace(token)))
			if ok && subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
				var info *requestInfo
				r, info = withInfo(r)
				info.admin = true
			}
			next.ServeHTTP(w, r)
		})
	}
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) status() int {
	if s.code == 0 {
		return http.StatusOK
	}
	return s.code
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush sends what was written so far (a stream's events) to the client.
func (s *statusRecorder) Flush() {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}
