package registry

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/registryserver"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Service is a ready-to-serve registry.
type Service struct {
	cfg      Config
	Registry *Registry
	chain    *chain.Client
	handler  http.Handler

	stop       context.CancelFunc // ends the following of other replicas' writes (Postgres)
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened, given back by Close
}

// Options are the tracer, metrics registry and logger a caller may give (edge.Options).
type Options = edge.Options

// New builds the registry: it dials the chain, settles the chain id, loads DATA_FILE and wires
// the HTTP handler. It fails (and the process must exit non-zero) on a data file that cannot be
// read or is invalid, or whose chain id is not the chain's.
func New(ctx context.Context, cfg Config, opts Options) (_ *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opened := &lifecycle.Stack{} // every resource, pushed as it is opened; all given back if New fails
	defer opened.CloseOnError(&err)
	opts = opts.WithDefaults()
	promReg, log := opts.Prometheus, opts.Logger
	client, err := chain.Dial(cfg.Chain.RPCURL, cfg.Chain.RPCTimeout, chain.NewMetrics(promReg).Traced(opts.Traces))
	if err != nil {
		return nil, err
	}
	opened.Push(client.Close)
	var store backend
	where := "data file " + cfg.Store.DataFile
	if cfg.Store.DatabaseURL != "" {
		store, err = newPGBackend(cfg.Store.DatabaseURL)
		where = "DATABASE_URL"
	} else {
		store, err = newFileBackend(cfg.Store.DataFile, cfg.Icons.Dir)
	}
	if err != nil {
		return nil, err
	}
	opened.Push(store.close)
	file, _, err := store.load(ctx)
	if err != nil {
		return nil, err
	}
	fromStore, pinned := file.chain()
	chainID, err := settleChainID(ctx, log, client, cfg.Chain.ChainID, fromStore, pinned, where)
	if err != nil {
		return nil, err
	}

	reg := &Registry{
		chain: client, chainID: chainID, store: store, iconMax: cfg.Icons.MaxBytes,
		iconBase: cfg.PublicBaseURL + "/icons/", listName: cfg.TokenListName, now: time.Now,
		metrics: newMetrics(promReg), log: log, tracer: opts.Tracer(),
	}
	if err := reg.install(file); err != nil {
		return nil, err
	}
	if err := reg.settleList(ctx); err != nil {
		return nil, err
	}

	a := &api{reg: reg, health: &healthProbe{chain: client, interval: time.Second}, started: time.Now()}
	if pg, ok := store.(*pgBackend); ok {
		if a.schema, err = pg.db.Versions(ctx, Schema); err != nil {
			return nil, fmt.Errorf("DATABASE_URL: %w", err)
		}
	}
	strict := registryserver.NewStrictHandlerWithOptions(a, nil, registryserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc: edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) {
			edge.WriteError(w, r, answer(err)) // the registry's errors become statuses in one place
		},
	})
	// A base64 icon in JSON takes 4/3 of its size; leave room for the rest of the body.
	upsertLimit := cfg.Icons.MaxBytes*4/3 + 64<<10
	h, err := edge.NewHandler(edge.HandlerOptions{
		SpecYAML: openapi.RegistryYAML, PublicYAML: openapi.RegistryPublicYAML, AdminKey: cfg.AdminAPIKey,
		TrustedProxies: cfg.HTTP.TrustedProxies, TrustTraceParent: cfg.HTTP.TrustTraceParent, CORS: cfg.HTTP.CORS, Tracer: opts.Tracer(),
		Metrics: promReg, Gatherer: promReg, Logger: opts.Logger, Answer: answer,
		Admit: map[string]edge.Admission{ // every request of every route, per client IP
			"*": edge.ClientAdmission(ratelimit.New(cfg.Limits.PerIP), cfg.Limits.IPv6Prefix, "requests per client IP", reg.metrics.rateLimited.Inc),
		},
		BodyLimits: map[string]int64{
			"POST /tokens":                upsertLimit,
			"POST /tokens/{address}/icon": cfg.Icons.MaxBytes + 64<<10,
		},
		API: func(r chi.Router) {
			registryserver.HandlerWithOptions(strict, registryserver.ChiServerOptions{BaseRouter: r, ErrorHandlerFunc: edge.RequestErrorHandler})
		},
		Static: func(r chi.Router) {
			if cfg.Icons.Serve {
				r.Get("/icons/{file}", iconHandler(store))
			}
		},
	})
	if err != nil {
		return nil, err
	}
	svc := &Service{cfg: cfg, Registry: reg, chain: client, handler: h, opened: opened}
	if pg, ok := store.(*pgBackend); ok { // follow the other replicas' writes
		ctx, cancel := context.WithCancel(context.Background())
		svc.stop = cancel
		svc.background.Add(1)
		go func() { defer svc.background.Done(); pg.follow(ctx, log, reg.reload) }()
	}
	return svc, nil
}

// settleChainID asks the chain for its id and checks it against CHAIN_ID and the store's
// (fromFile, when pinned: the store holds tokens or a relayer directory made for it). When the
// chain cannot be reached, it starts on the id it was told (CHAIN_ID, else the store's), so reads
// keep working; with neither it fails.
func settleChainID(ctx context.Context, log *slog.Logger, c *chain.Client, configured, fromFile uint64, pinned bool, store string) (uint64, error) {
	id, err := c.ChainID(ctx)
	if err != nil {
		known := configured
		if known == 0 && pinned {
			known = fromFile
		}
		if known == 0 {
			return 0, fmt.Errorf("cannot learn the chain id from RPC_URL (%w); set CHAIN_ID to start while the chain is down", err)
		}
		log.Warn("the chain is unreachable at start; serving reads with the known chain id", "chainId", known, "err", err)
		id = known
	}
	if err := chain.CheckChainID(configured, id); err != nil {
		return 0, err
	}
	if pinned && fromFile != id {
		return 0, fmt.Errorf("%s holds tokenIds or relayers for chain %d, but the chain is %d; refusing to start", store, fromFile, id)
	}
	return id, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.handler }

// Close stops following other replicas, then gives back what New opened: the store, the chain
// client.
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
		s.background.Wait()
	}
	s.opened.Close()
}

// Run listens on PORT and serves until ctx is done.
func (s *Service) Run(ctx context.Context) error {
	s.Registry.log.Info("registry ready", "chainId", s.Registry.chainID, "tokens", s.Registry.Count())
	return edge.ListenAndServe(ctx, "registry", s.cfg.HTTP.Port, s.handler, s.cfg.HTTP.ShutdownGrace)
}

// iconHandler serves stored icons. Only names of the stored form are looked up, so no request
// reaches any other file; names are content-addressed, so they may be cached for good.
func iconHandler(store backend) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := chi.URLParam(r, "file")
		if !iconFilePattern.MatchString(name) {
			edge.WriteError(w, r, answer(refuse(IconNotFound, "no such icon")))
			return
		}
		f, modified, err := store.icon(r.Context(), name)
		if err != nil {
			edge.WriteError(w, r, answer(refuse(IconNotFound, "no such icon")))
			return
		}
		defer f.Close()
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'none'")
		http.ServeContent(w, r, name, modified, f)
	}
}
