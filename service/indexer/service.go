package indexer

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/indexerserver"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// Service is a ready-to-run indexer.
type Service struct {
	cfg     Config
	Indexer *Indexer
	handler http.Handler

	stop       context.CancelFunc
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened, given back by Close
}

// Options are the tracer, metrics registry and logger a caller may give (edge.Options).
type Options = edge.Options

// New builds the indexer: it dials the chain, settles the chain id, opens the store (refusing
// one made for another chain, start block or contracts) and resumes from its newest block.
func New(ctx context.Context, cfg Config, opts Options) (_ *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opened := &lifecycle.Stack{} // every resource, pushed as it is opened; all given back if New fails
	defer opened.CloseOnError(&err)
	opts = opts.WithDefaults()
	reg, log := opts.Prometheus, opts.Logger
	client, chainID, err := chain.Connect(ctx, cfg.Chain, chain.NewMetrics(reg).Traced(opts.Traces))
	if err != nil {
		return nil, err
	}
	opened.Push(client.Close)
	st, err := openStore(cfg.DatabaseURL, opts.Traces)
	if err != nil {
		return nil, err
	}
	opened.PushErr(st.Close)
	meta := map[string]string{"chainId": strconv.FormatUint(chainID, 10), "startBlock": strconv.FormatUint(cfg.StartBlock, 10)}
	var sources []source
	for name := range contractABIs {
		meta[name] = "" // not indexed: an index made without it is not one with it
	}
	for name, a := range cfg.Contracts {
		meta[name] = a.Hex()
		sources = append(sources, source{address: a, abi: contractABIs[name]})
	}
	if err := st.checkMeta(ctx, meta); err != nil {
		return nil, err
	}
	ix := &Indexer{client: client, store: st, dec: newDecoder(sources), cfg: cfg, metrics: newMetrics(reg), log: log, tracer: opts.Tracer(),
		indexed: Block{Number: cfg.StartBlock - 1}, changed: make(chan struct{})}
	last, ok, err := st.last(ctx)
	if err != nil {
		return nil, err
	}
	if ok {
		ix.setIndexed(last)
	}
	if !st.shared() { // its own store: the one writer (on Postgres, Run elects one)
		ix.writing.Store(true)
		ix.metrics.writer.Set(1)
	}

	schema, err := st.db.Versions(ctx, Schema)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	a := &api{ix: ix, chainID: chainID, started: time.Now(), streams: newStreamSlots(cfg.StreamsPerIP, cfg.MaxStreams, ix.metrics), schema: schema}
	strict := indexerserver.NewStrictHandlerWithOptions(a, nil, indexerserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: answerError,
	})
	h, err := edge.NewHandler(edge.HandlerOptions{
		SpecYAML: openapi.IndexerYAML, PublicYAML: openapi.IndexerPublicYAML, TrustedProxies: cfg.HTTP.TrustedProxies, TrustTraceParent: cfg.HTTP.TrustTraceParent, CORS: cfg.HTTP.CORS, Tracer: opts.Tracer(),
		Metrics: reg, Gatherer: reg, Logger: opts.Logger, Answer: answer,
		Admit: map[string]edge.Admission{ // every request of every route, per client IP
			"*": edge.ClientAdmission(ratelimit.New(cfg.Limits.PerIP), cfg.Limits.IPv6Prefix, "requests per client IP",
				ix.metrics.rateLimited.WithLabelValues("ip").Inc),
		},
		API: func(rt chi.Router) {
			indexerserver.HandlerWithOptions(strict, indexerserver.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: edge.RequestErrorHandler})
		},
	})
	if err != nil {
		return nil, err
	}
	log.Info("indexer ready", "chainId", chainID, "startBlock", cfg.StartBlock, "resumeAfter", ix.indexed.Number, "confirmations", cfg.Confirmations)
	return &Service{cfg: cfg, Indexer: ix, handler: h, opened: opened}, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.handler }

// Start runs the indexing loop until Close.
func (s *Service) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.background.Add(1)
	go func() { defer s.background.Done(); s.Indexer.Run(ctx) }()
}

// Close stops the loop, then gives back what New opened: the store, the chain client.
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
		s.background.Wait()
	}
	s.opened.Close()
}

// Run indexes and serves on PORT until ctx is done.
func (s *Service) Run(ctx context.Context) error {
	s.Start()
	return edge.ListenAndServe(ctx, "indexer", s.cfg.HTTP.Port, s.handler, s.cfg.HTTP.ShutdownGrace)
}
