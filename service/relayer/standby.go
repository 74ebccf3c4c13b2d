package relayer

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
)

// Run is the relayer process (cmd/relayer): it serves on PORT until ctx is done. A replica that
// finds every key of OPERATOR_PRIVATE_KEYS leased serves as a standby meanwhile (GET /health 200
// with status standby, so that a liveness probe keeps it; GET /ready and POST /reveal 503
// OPERATOR_KEY_UNAVAILABLE), and switches to the relayer, on the same listener, once it leases
// a key.
func Run(ctx context.Context, cfg Config, opts Options) error {
	if len(cfg.Operator.Keys) == 0 {
		svc, err := New(ctx, cfg, opts)
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	}
	opts = opts.WithDefaults()
	ln, err := net.Listen("tcp", net.JoinHostPort("", strconv.Itoa(cfg.HTTP.Port)))
	if err != nil {
		return err
	}
	standby, err := standbyHandler(cfg, opts)
	if err != nil {
		ln.Close()
		return err
	}
	var current atomic.Value
	current.Store(standby)
	serveCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	served := make(chan error, 1)
	opts.Logger.Info("relayer listening", "addr", ln.Addr().String())
	go func() {
		served <- platform.Serve(serveCtx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			current.Load().(http.Handler).ServeHTTP(w, r)
		}), cfg.HTTP.ShutdownGrace)
	}()

	svc, err := New(ctx, cfg, opts) // waits, as a standby, for a key
	if err != nil {
		stop(nil)
		<-served
		return err
	}
	defer svc.Close()
	current.Store(svc.Handler())
	svc.Start()
	go stopWhenKeyTaken(serveCtx, stop, svc.Relayer.keyLost())
	err = <-served
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(keyTaken(serveCtx), err)
}

// standbyAPI answers while the replica waits for an operator key.
type standbyAPI struct {
	cfg     Config
	started time.Time
}

var _ relayerapi.StrictServerInterface = (*standbyAPI)(nil)

func keyUnavailable() *platform.Error {
	return &platform.Error{Status: http.StatusServiceUnavailable, Code: CodeOperatorKeyUnavailable, RetryAfter: time.Second,
		Message: "this relayer replica is a standby: every operator key is leased by another replica; send the request to another replica"}
}

func (a *standbyAPI) Reveal(context.Context, relayerapi.RevealRequestObject) (relayerapi.RevealResponseObject, error) {
	return nil, keyUnavailable()
}

func (a *standbyAPI) GetHealth(context.Context, relayerapi.GetHealthRequestObject) (relayerapi.GetHealthResponseObject, error) {
	return relayerapi.GetHealth200JSONResponse{Body: relayerapi.Health{Status: relayerapi.Standby, Balance: "0",
		Threshold: a.cfg.Operator.MinBalance.String(), Uptime: int(time.Since(a.started) / time.Second)}}, nil
}

func (a *standbyAPI) GetReady(context.Context, relayerapi.GetReadyRequestObject) (relayerapi.GetReadyResponseObject, error) {
	return relayerapi.GetReady503JSONResponse{Body: relayerapi.NotReadyError{Code: CodeOperatorKeyUnavailable,
		Error: "a standby: every operator key is leased by another replica"}}, nil
}

// standbyHandler is the standby's HTTP handler: the relayer's middleware (validation, limits on
// bodies, request ids, metrics on a registry of its own) in front of standbyAPI.
func standbyHandler(cfg Config, opts Options) (http.Handler, error) {
	reg := prometheus.NewRegistry()
	strict := relayerapi.NewStrictHandlerWithOptions(&standbyAPI{cfg: cfg, started: time.Now()}, nil, relayerapi.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  platform.RequestErrorHandler,
		ResponseErrorHandlerFunc: platform.WriteError,
	})
	return platform.NewHandler(platform.HandlerOptions{
		SpecYAML: openapi.RelayerYAML, TrustedProxies: cfg.HTTP.TrustedProxies, CORS: cfg.HTTP.CORS, Tracer: opts.Tracer,
		Metrics: reg, Gatherer: reg, Logger: opts.Logger,
		BodyLimits: map[string]int64{"POST /reveal": 16 << 10},
		API: func(rt chi.Router) {
			relayerapi.HandlerWithOptions(strict, relayerapi.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: platform.RequestErrorHandler})
		},
	})
}
