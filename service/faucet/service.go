package faucet

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/gen/faucetserver"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	walletroutes "github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Service is a ready-to-run faucet.
type Service struct {
	cfg     Config
	Faucet  *Faucet
	handler http.Handler

	stop       context.CancelFunc // ends what Start started
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened, given back by Close
}

// Options are the tracer, metrics registry and logger a caller may give (edge.Options).
type Options = edge.Options

// New wires the faucet and checks what it is given: it dials the chain (and settles the chain
// id), opens the claim store and reaches Redis. It waits for nothing and sends nothing: Start
// does the rest before anything is served.
func New(ctx context.Context, cfg Config, opts Options) (_ *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opened := &lifecycle.Stack{} // every resource, pushed as it is opened; all given back if New fails
	defer opened.CloseOnError(&err)
	opts = opts.WithDefaults()
	reg, log, tracer := opts.Prometheus, opts.Logger, opts.Tracer()
	client, chainID, err := chain.Connect(ctx, cfg.Chain, chain.NewMetrics(reg).Traced(opts.Traces))
	if err != nil {
		return nil, err
	}
	opened.Push(client.Close)
	signer, err := walletSigner(ctx, cfg.Wallet)
	if err != nil {
		return nil, err
	}
	wallet := signer.Address()
	st, err := openStore(cfg.DatabaseURL, chainID, wallet, opts.Traces)
	if err != nil {
		return nil, err
	}
	opened.PushErr(st.Close)
	var rdb *redis.Client
	var shared gate.Shared
	if cfg.Limits.RedisURL != "" { // the limits and the spend limit hold across every replica sharing this Redis
		if rdb, err = ratelimit.Connect(ctx, cfg.Limits.RedisURL, opts.Traces); err != nil {
			return nil, err
		}
		opened.PushErr(rdb.Close)
		shared = gate.NewSharedRedis(rdb, "vaultd:faucet:spend", edge.Instance(), 10*time.Minute)
	}
	hooks, err := webhook.Open(st.db, "faucet", cfg.Admin.Replica, cfg.Webhooks, reg, log)
	if err != nil {
		return nil, err
	}
	st.hooks = hooks
	opened.Push(hooks.Close) // before the store closes
	g := gate.New(client, gate.Config{Wallet: wallet, Name: "faucet", Work: "claims", Min: cfg.Wallet.MinBalance,
		Poll: cfg.Wallet.BalancePoll, Setting: "MIN_FAUCET_BALANCE",
		Budget: cfg.Wallet.SpendLimit, BudgetSetting: "FAUCET_SPEND_LIMIT", Shared: shared,
		OnChange: func(event string) { hooks.Tell(event, map[string]string{"wallet": wallet.Hex()}) }},
		gate.NewMetrics(reg, "faucet", "balance"), log)
	life, end := context.WithCancel(context.Background())
	f := &Faucet{cfg: cfg, chainID: chainID, client: client, store: st, gate: g, metrics: newMetrics(reg), tracer: tracer, log: log,
		tx:    txmgr.New(client, signer, chainID, cfg.Tx, g, txmgr.NewMetrics(reg, "faucet"), log),
		perIP: ratelimit.New(cfg.Limits.PerIP), total: ratelimit.New(cfg.Limits.Total), redis: rdb,
		life: life, end: end, recheck: make(chan struct{}, 1), resumed: make(chan struct{}, 1), busy: map[common.Address]bool{}}
	if f.pow, err = newIssuer(cfg.Pow); err != nil {
		return nil, err
	}
	f.powChecks = newChecks(cfg.Pow.Checks)
	if f.gates, err = newGates(cfg.Gates); err != nil {
		return nil, err
	}
	opened.Push(f.gates.close)
	f.tx.SetTracer(tracer)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "faucet", Name: "claim_amount_ether",
		Help: "What a claim made now sends, in native tokens: FAUCET_AMOUNT, less once half the window's FAUCET_SPEND_LIMIT is spent (the outflow rule)."},
		func() float64 { return gate.WeiToEther(f.claimAmount()) }))
	opened.Push(func() { // what follows claims: reconciliation may have started some already
		f.end()
		f.workers.Wait()
		f.tx.Close()
	})
	if st.shared() { // on Postgres: nothing is signed unless the wallet's lock is still held
		f.tx.SetFence(st)
	}
	if rdb != nil {
		f.perIP = ratelimit.NewRedis(rdb, "faucet:ip", cfg.Limits.PerIP)
		f.total = ratelimit.NewRedis(rdb, "faucet:total", cfg.Limits.Total)
	}
	if f.pause, err = pause.Open(ctx, st.db, "faucet", cfg.Admin.Replica, "claims", reg, log); err != nil {
		return nil, err
	}
	f.pause.OnChange = func(st pause.State) {
		hooks.Tell(st.Event(), walletroutes.PauseStateOf(st))
		if !st.Paused {
			f.onResume()
		}
	}
	var adminIP, challengeIP ratelimit.Window = ratelimit.New(cfg.Admin.PerIP), ratelimit.New(cfg.Limits.ChallengePerIP)
	if rdb != nil {
		adminIP = ratelimit.NewRedis(rdb, "faucet:admin-ip", cfg.Admin.PerIP)
		challengeIP = ratelimit.NewRedis(rdb, "faucet:challenge-ip", cfg.Limits.ChallengePerIP)
	}
	admin := edge.ClientAdmission(adminIP, cfg.Limits.IPv6Prefix, "admin requests per client IP", f.metrics.rateLimited.WithLabelValues("admin_ip").Inc)
	schema, err := st.db.Versions(ctx, Schemas...)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	a := &api{f: f, started: time.Now(), schema: schema}
	strict := faucetserver.NewStrictHandlerWithOptions(a, nil, faucetserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: func(w http.ResponseWriter, r *http.Request, err error) { edge.WriteError(w, r, answer(err)) },
	})
	h, err := edge.NewHandler(edge.HandlerOptions{
		SpecYAML: openapi.FaucetYAML, PublicYAML: openapi.FaucetPublicYAML, AdminKey: cfg.Admin.Key, TrustedProxies: cfg.HTTP.TrustedProxies, TrustTraceParent: cfg.HTTP.TrustTraceParent, CORS: cfg.HTTP.CORS, Tracer: tracer,
		Metrics: reg, Gatherer: reg, Logger: opts.Logger, Answer: answer,
		BodyLimits: map[string]int64{"POST /api/faucet/claim": 8 << 10}, // a captcha token is up to 4 KiB
		Admit: walletroutes.Admit(admin, map[string]edge.Admission{ // every POST counts, malformed ones too
			"POST /api/faucet/claim": edge.ClientAdmission(f.perIP, cfg.Limits.IPv6Prefix, "claims per client IP", func() {
				f.metrics.rateLimited.WithLabelValues("ip").Inc()
				f.metrics.claims.WithLabelValues(edge.CodeRateLimited).Inc()
			}),
			"GET /api/faucet/challenge": edge.ClientAdmission(challengeIP, cfg.Limits.IPv6Prefix, "proof-of-work challenges per client IP",
				f.metrics.rateLimited.WithLabelValues("challenge_ip").Inc),
		}),
		API: func(rt chi.Router) {
			faucetserver.HandlerWithOptions(strict, faucetserver.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: edge.RequestErrorHandler})
			f.walletRoutes().Mount(rt, answer)
		},
	})
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, Faucet: f, handler: h, opened: opened}, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.handler }

// Start sets the faucet up, then runs the balance poll, the transaction watcher and the
// reconciler until Close. The set-up, before it returns: with REDIS_URL, a new Redis's quiet
// spell is waited out (it looks like one that lost its data); the wallet's balance and nonce are
// read, its transactions waiting in the node's pool adopted, and the claims a previous run left
// unfinished reconciled (those of replicas not running too, on Postgres).
func (s *Service) Start() {
	s.setUp(s.Faucet.life)
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.Faucet.store.hooks.Start(time.Second)
	s.background.Add(3)
	go func() { defer s.background.Done(); s.Faucet.gate.Run(ctx) }()
	go func() { defer s.background.Done(); s.Faucet.reconcileLoop() }()
	go func() { defer s.background.Done(); s.Faucet.keepWalletLock(ctx) }()
	s.Faucet.tx.Start()
}

// setUp is Start's first part; Close ends it early (ctx).
func (s *Service) setUp(ctx context.Context) {
	f, cfg, log := s.Faucet, s.cfg, s.Faucet.log
	if f.redis != nil {
		wctx, cancel := context.WithTimeout(ctx, cfg.Limits.WipeQuiet+5*time.Second)
		if err := lease.WaitQuiet(wctx, f.redis, redisPrefix, cfg.Limits.WipeQuiet); err != nil && ctx.Err() == nil {
			log.Warn("could not wait out Redis's quiet spell at start; claims ask Redis whether it can be trusted each time", "err", err)
		}
		cancel()
	}
	f.gate.Refresh(ctx)
	switch adopted, err := f.tx.Sync(ctx); {
	case err != nil:
		log.Warn("could not read the faucet's nonce or list its transactions in the node's pool at start", "err", err)
	case adopted > 0:
		log.Info("tracking the faucet's transactions found waiting in the node's pool", "count", adopted)
	}
	if f.store.shared() { // claims left by replicas that are not running
		f.adoptOrphans(ctx)
	}
	if undecided := f.reconcile(ctx); undecided > 0 {
		log.Warn("some unfinished claims could not be reconciled with the chain yet; retrying in the background", "count", undecided)
		f.wakeReconciler()
	}
	if err := f.pause.Announce(ctx, f.tx.From().Hex()); err != nil { // the fleet view's row (GET /admin/fleet)
		log.Warn("could not record this replica's wallet for the fleet view; it pays from it all the same", "err", err)
	}
	log.Info("faucet ready", "wallet", f.tx.From().Hex(), "chainId", f.chainID, "amount", cfg.Wallet.Amount.String())
}

// Close stops what Start started and releases the store and the chain client. Claims still
// pending stay recorded and are reconciled at the next start.
func (s *Service) Close() {
	s.Faucet.end()
	if s.stop != nil {
		s.stop()
	}
	s.background.Wait()
	s.opened.Close() // the followers and the transaction manager, Redis, the store, the chain client
}

// Run serves on PORT (and the operator's routes on ADMIN_ADDR, when set) until ctx is done;
// requests in flight are finished within SHUTDOWN_GRACE. The caller closes the service after.
func (s *Service) Run(ctx context.Context) error {
	s.Start()
	return edge.ListenAndServeAdmin(ctx, "faucet", s.cfg.HTTP.Port, s.cfg.Admin.Addr, s.handler, s.cfg.HTTP.ShutdownGrace)
}

// walletSigner is what signs the faucet's payments: the key in KMS (its address read from KMS
// now), or the key in the process.
func walletSigner(ctx context.Context, cfg WalletConfig) (txmgr.Signer, error) {
	if cfg.KMSKeyID == "" {
		return txmgr.KeySigner(cfg.Key), nil
	}
	signers, err := kmssigner.Open(ctx, []string{cfg.KMSKeyID}, cfg.KMSTimeout)
	if err != nil {
		return nil, fmt.Errorf("FAUCET_KMS_KEY_ID: %w", err)
	}
	return signers[0], nil
}
