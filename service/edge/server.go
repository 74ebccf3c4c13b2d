package edge

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/openapi/apidoc"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// DefaultBodyLimit caps request bodies of routes without a limit of their own.
const DefaultBodyLimit = 64 << 10

// HandlerOptions is what NewHandler wires together.
type HandlerOptions struct {
	// SpecYAML is the service's whole OpenAPI document: what requests are validated against, and
	// what the operator reads at /admin/openapi.yaml (behind the admin key).
	SpecYAML []byte
	// PublicYAML is the document partners read at /openapi.yaml, /openapi.json and /docs: the
	// whole one without the operator's routes, as `go generate ./openapi` made it
	// (openapi.<Svc>PublicYAML), served as it is rather than made again at each start; one that
	// holds a path under /admin is refused. nil: none of the three is served.
	PublicYAML     []byte
	AdminKey       string // "" when the service has no admin routes
	TrustedProxies Proxies
	// TrustTraceParent follows any caller's traceparent sampling decision (TRUST_TRACEPARENT);
	// by default only a trusted proxy's is (the rest are sampled by the service's own policy).
	TrustTraceParent bool
	Tracer           trace.Tracer          // nil: no spans
	Metrics          prometheus.Registerer // HTTP metrics go here
	Gatherer         prometheus.Gatherer   // served at /metrics
	BodyLimits       map[string]int64      // "METHOD /pattern" → bytes; others get DefaultBodyLimit
	// Admit are checks run first on a route's every request, before its body is read or
	// validated ("METHOD /pattern" → check; "*": every route of the document, before the
	// route's own): per-IP rate limits, so malformed requests count too.
	Admit map[string]Admission
	// Answer is the service's one function from an error to its answer: an admission's refusal
	// goes out through it, as the service's handlers' errors do. nil: AsError.
	Answer func(error) *Error
	// API registers the generated routes on the router it is given; those routes, and only
	// those, pass the admin check and OpenAPI validation.
	API func(chi.Router)
	// Static registers routes outside the OpenAPI document (e.g. /icons/*).
	Static func(chi.Router)
	// Logger is what request-path logs (errors, panics) go to; nil: the default logger.
	Logger *slog.Logger
	CORS   CORS // origins that may call from a browser; empty: none
}

// NewHandler builds a service's HTTP handler in the order docs/design.md records: recover →
// request id → client IP → span → metrics (these in one handler, front) → percent-decoded
// paths, HEAD as GET → the listener's routes (ADMIN_ADDR: admin.go, decided on the route the
// router matches) → routing → admission (rate limits) → body size limit → admin key → strict
// booleans → OpenAPI validation → generated strict handler, with CORS (when configured) right
// after the request id, so that preflights are answered before routing and every answer, errors
// included, is readable by an allowed origin. Every error leaves as the one JSON error shape.
func NewHandler(o HandlerOptions) (http.Handler, error) {
	doc, err := documentOf(o.SpecYAML, o.PublicYAML)
	if err != nil {
		return nil, err
	}
	spec, booleans := doc.spec, doc.booleans
	tracer := o.Tracer
	if tracer == nil {
		tracer = noop.NewTracerProvider().Tracer("")
	}
	r := chi.NewRouter()
	r.Use(plainPath, middleware.GetHead, onItsListener) // with ADMIN_ADDR, /admin/* on its listener alone (admin.go)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "no such endpoint"))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Allow", allowed(r, req.URL.Path))
		WriteError(w, req, Errorf(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "method not allowed"))
	})

	// The OpenMetrics format when asked for (as Prometheus does), with the histograms' exemplars.
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(o.Gatherer, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	if o.PublicYAML != nil {
		r.Get("/openapi.yaml", staticBytes("application/yaml", o.PublicYAML))
		r.Get("/openapi.json", staticBytes("application/json", doc.publicJSON))
		r.Get("/docs", docsPage)
	}
	if o.AdminKey != "" { // the operator's document: under /admin, so on the admin listener alone (admin.go)
		r.Get("/admin/docs", docsPage)
		r.Group(func(op chi.Router) {
			op.Use(admit(tracer, answered(o.Admit, o.Answer)), adminAuth(o.AdminKey), adminOnly)
			op.Get(adminDocYAML, staticBytes("application/yaml", o.SpecYAML))
			op.Get(adminDocJSON, staticBytes("application/json", doc.json))
		})
	}
	if o.Static != nil {
		o.Static(r)
	}
	r.Group(func(api chi.Router) {
		api.Use(admit(tracer, answered(o.Admit, o.Answer)), bodyLimit(DefaultBodyLimit, o.BodyLimits), adminAuth(o.AdminKey), booleans, headAsGet, validator(spec, o.AdminKey != ""))
		o.API(api)
	})
	f := &front{logger: o.Logger, cors: o.CORS, trusted: newTrustedSet(o.TrustedProxies), tracer: tracer,
		trustParent: o.TrustTraceParent, metrics: newHTTPMetrics(o.Metrics), mux: r}
	f.routes.New = func() any { return chi.NewRouteContext() }
	return f, nil
}

// answered is checks whose refusals are answered by answer (none: as they are).
func answered(checks map[string]Admission, answer func(error) *Error) map[string]Admission {
	if answer == nil {
		return checks
	}
	out := make(map[string]Admission, len(checks))
	for key, check := range checks {
		out[key] = func(r *http.Request) (ratelimit.Quota, error) {
			q, err := check(r)
			if err != nil {
				return q, answer(err)
			}
			return q, nil
		}
	}
	return out
}

// AdminDocRoutes are the routes of the operator's whole document ("METHOD /pattern", as
// HandlerOptions.Admit names routes): a service limits them as it does its other operator's
// routes, a wrong key counted too.
var AdminDocRoutes = []string{"GET " + adminDocYAML, "GET " + adminDocJSON}

const (
	adminDocYAML = "/admin/openapi.yaml"
	adminDocJSON = "/admin/openapi.json"
)

// adminOnly answers 401 a request without the admin key (adminAuth marks one with it): for
// routes outside the document, whose security the validator does not check.
func adminOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !IsAdmin(r.Context()) {
			WriteError(w, r, ErrUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// document is a service's OpenAPI document as its handlers use it.
type document struct {
	spec       *openapi3.T // read-only once made: the handlers of one process share it
	json       []byte      // the whole document: what GET /admin/openapi.json answers
	publicJSON []byte      // the public document (HandlerOptions.PublicYAML) as JSON
	booleans   func(http.Handler) http.Handler
	err        error
}

// documents are the documents parsed so far, by their YAML, whole and public: a process that
// makes many handlers of one service (a test suite: hundreds) parses and validates its
// document once.
var documents sync.Map // [2]string → *document, made once (a sync.OnceValue)

// documentOf parses, validates and prepares the document specYAML, and reads its public one
// publicYAML (nil: none), once a process.
func documentOf(specYAML, publicYAML []byte) (*document, error) {
	key := [2]string{string(specYAML), string(publicYAML)}
	once, _ := documents.LoadOrStore(key, sync.OnceValue(func() *document { return parseDocument(specYAML, publicYAML) }))
	d := once.(func() *document)()
	return d, d.err
}

func parseDocument(specYAML, publicYAML []byte) *document {
	spec, err := openapi3.NewLoader().LoadFromData(specYAML)
	if err != nil {
		return &document{err: fmt.Errorf("openapi document: %w", err)}
	}
	if err := spec.Validate(context.Background()); err != nil {
		return &document{err: fmt.Errorf("openapi document: %w", err)}
	}
	specJSON, err := json.Marshal(spec)
	if err != nil {
		return &document{err: err}
	}
	var publicJSON []byte
	if publicYAML != nil {
		public, err := openapi3.NewLoader().LoadFromData(publicYAML)
		if err != nil {
			return &document{err: fmt.Errorf("public openapi document: %w", err)}
		}
		// Checked, not trusted: a service cannot hand its whole document to partners.
		for path := range public.Paths.Map() {
			if apidoc.AdminPath(path) {
				return &document{err: fmt.Errorf("public openapi document: it holds the operator's route %s", path)}
			}
		}
		if publicJSON, err = json.Marshal(public); err != nil {
			return &document{err: err}
		}
	}
	// The document's servers are for readers; requests are matched on their paths alone, so
	// every check holds whatever host the service is reached at (a router that knows servers
	// finds no route for another host, and the checks that need a route were skipped).
	spec.Servers = nil
	booleans, err := strictQuery(spec)
	if err != nil {
		return &document{err: fmt.Errorf("openapi document: %w", err)}
	}
	return &document{spec: spec, json: specJSON, publicJSON: publicJSON, booleans: booleans}
}

// docsHTML is the API reference page every service serves at /docs: it renders the service's
// openapi.json with its own script and styles, and loads nothing from anywhere else.
//
//go:embed docs.html
var docsHTML []byte

// docsPage serves docsHTML; its policy lets the page run its inline script and fetch only from
// the service itself.
func docsPage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:")
	staticBytes("text/html; charset=utf-8", docsHTML)(w, r)
}

func staticBytes(contentType string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(body)
	}
}

// RequestErrorHandler answers a request the generated code could not decode (400).
func RequestErrorHandler(w http.ResponseWriter, r *http.Request, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		WriteError(w, r, err)
		return
	}
	WriteError(w, r, InvalidRequest("%s", firstLine(err.Error())))
}

// draining is the context key of a server's shutdown signal.
type drainingKey struct{}

// Draining is closed when the server serving the request starts shutting down: a long-lived
// handler (a stream) ends then, instead of holding the shutdown for its whole grace.
func Draining(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(drainingKey{}).(chan struct{})
	return ch // nil outside Serve: never closed
}

// Serve serves h on ln until ctx is done, then shuts down, letting requests in flight finish
// for up to grace (streams are told to end at once, see Draining). The answers net/http gives
// itself to requests it cannot parse are in the service's error shape too (earlyerrors.go).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	return serveAs(ctx, ln, h, grace, everyRoute)
}

// serveAs is Serve for a listener of role (admin.go).
func serveAs(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, role listenerRole) error {
	draining := make(chan struct{})
	srv := &http.Server{
		BaseContext: func(net.Listener) context.Context {
			return context.WithValue(context.WithValue(context.Background(), drainingKey{}, draining), roleKey{}, role)
		},
		ConnContext:       withPeer,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(earlyErrorListener{ln}) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	close(draining)
	err := srv.Shutdown(shutdownCtx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// ServeLoopback runs a service for a load command or a bench: start, then h served on a free
// loopback port until the returned stop, which shuts the server down (10 s of grace) and then
// calls closeSvc. It answers the server's base URL.
func ServeLoopback(ctx context.Context, h http.Handler, start, closeSvc func()) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		closeSvc()
		return "", nil, err
	}
	runCtx, cancel := context.WithCancel(ctx)
	start()
	done := make(chan struct{})
	go func() { Serve(runCtx, ln, h, 10*time.Second); close(done) }()
	return "http://" + ln.Addr().String(), func() { cancel(); <-done; closeSvc() }, nil
}

// ListenAndServe listens on port (all interfaces) and serves h until ctx is done; a clean
// shutdown returns nil.
func ListenAndServe(ctx context.Context, name string, port int, h http.Handler, grace time.Duration) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	slog.Info(name+" listening", "addr", ln.Addr().String())
	err = Serve(ctx, ln, h, grace)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
