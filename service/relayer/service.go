package relayer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/openapi"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Service is a ready-to-run relayer.
type Service struct {
	cfg     Config
	Relayer *Relayer
	handler http.Handler

	stop       context.CancelFunc // ends what Start started
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened, given back by Close
}

// Options are the tracer, metrics registry and logger a caller may give (platform.Options).
type Options = platform.Options

// New builds the relayer: it dials the chain, settles the chain id, reads the verifying key,
// syncs the nonce and reads the balance once. It does not start the balance poll; Run does.
func New(ctx context.Context, cfg Config, opts Options) (_ *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	opened := &lifecycle.Stack{} // every resource, pushed as it is opened; all given back if New fails
	defer func() {
		if err != nil {
			opened.Close()
		}
	}()
	opts = opts.WithDefaults()
	reg, log, tracer := opts.Prometheus, opts.Logger, opts.Tracer
	client, chainID, err := chain.Connect(ctx, cfg.Chain, chain.NewMetrics(reg))
	if err != nil {
		return nil, err
	}
	opened.Push(client.Close)
	var vk *zk.VerificationKey
	if cfg.VerificationKeyFile != "" {
		if vk, err = readVerificationKey(cfg.VerificationKeyFile); err != nil {
			return nil, err
		}
	}
	m := newMetrics(reg)
	r := &Relayer{cfg: cfg, chainID: chainID, client: client, vk: vk, metrics: m, tracer: tracer, log: log,
		perIP: ratelimit.New(cfg.Limits.PerIP), perRecipient: ratelimit.New(cfg.Limits.PerRecipient), total: ratelimit.New(cfg.Limits.Total),
		running: map[common.Hash]*outcome{}, sent: map[common.Hash]*txmgr.Flight{}, inserts: &localInserts{}, closing: make(chan struct{})}
	if cfg.Limits.RedisURL != "" { // the limits hold across every replica sharing this Redis
		if r.redis, err = ratelimit.Dial(cfg.Limits.RedisURL); err != nil {
			return nil, err
		}
		opened.PushErr(r.redis.Close)
		r.perIP = ratelimit.NewRedis(r.redis, "relayer:ip", cfg.Limits.PerIP)
		r.perRecipient = ratelimit.NewRedis(r.redis, "relayer:recipient", cfg.Limits.PerRecipient)
		r.total = ratelimit.NewRedis(r.redis, "relayer:total", cfg.Limits.Total)
		r.claims = &nullifierClaims{client: r.redis, claimTTL: cfg.Limits.ClaimTTL, ttl: time.Hour, quiet: cfg.Operator.LeaseTTL}
		wctx, cancel := context.WithTimeout(ctx, cfg.Operator.LeaseTTL+5*time.Second)
		err := lease.WaitQuiet(wctx, r.redis, leasePrefix, cfg.Operator.LeaseTTL) // the claims' and the leases' spell
		cancel()
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		r.inserts = &fleetInserts{client: r.redis, owner: platform.Instance(), ttl: 10 * time.Minute}
	}
	out, err := client.Call(ctx, "root_history_size", cfg.Contracts.CommitmentTree, contracts.NewCommitmentTree().PackROOTHISTORYSIZE())
	if err == nil {
		r.rootHistory, err = contracts.NewCommitmentTree().UnpackROOTHISTORYSIZE(out)
	}
	if err != nil {
		return nil, fmt.Errorf("read the commitment tree's ROOT_HISTORY_SIZE at COMMITMENT_TREE_ADDRESS: %w", err)
	}
	if r.sentTxs, err = openSentStore(cfg.DatabaseURL, chainID); err != nil {
		return nil, err
	}
	opened.PushErr(r.sentTxs.Close)
	key := cfg.Operator.Key
	if len(cfg.Operator.Keys) > 0 { // replicas: this one leases a key of the set (keys.go)
		r.lease, err = leaseOperatorKey(ctx, r.redis, cfg.Operator.Keys, cfg.Operator.LeaseTTL, m.leaseEpoch, log, func() {
			r.adoptSent()
			rctx, cancel := context.WithTimeout(context.Background(), cfg.Operator.LeaseTTL)
			defer cancel()
			r.recoverLogged(rctx)
		})
		if err != nil {
			return nil, err
		}
		opened.Push(func() { // a standby takes the key at once; it adopts what is still in flight
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			r.lease.lease.Release(ctx)
		})
		key = r.lease.key
	}
	operator := crypto.PubkeyToAddress(key.PublicKey)
	registerOperator(reg, r, operator.Hex())
	r.gate = gate.New(client, gate.Config{Wallet: operator, Name: "operator", Work: "reveals", Min: cfg.Operator.MinBalance,
		Poll: cfg.Operator.BalancePoll, Setting: "MIN_OPERATOR_BALANCE",
		Budget: cfg.Operator.SpendLimit, BudgetSetting: "OPERATOR_SPEND_LIMIT",
		Shared: sharedBudget(r.redis, "vaultd:relayer:spend")}, gate.NewMetrics(reg, "relayer", "operator_balance"), log)
	r.tx = txmgr.New(client, key, chainID, cfg.Tx.Config, r.gate, txmgr.NewMetrics(reg, "relayer"), log)
	if r.lease != nil {
		r.tx.SetFence(r.lease.lease)
		r.lease.tx.Store(r.tx)
	}
	r.gate.Refresh(ctx)
	switch adopted, err := r.tx.Sync(ctx); {
	case err != nil:
		log.Warn("could not read the operator's nonce or list its transactions in the node's pool (txpool_contentFrom) at start; the nonce is read again at the first send, and transactions sent before this start are not replaced if they linger", "err", err)
	case adopted > 0:
		log.Info("tracking the operator's transactions found waiting in the node's pool; they are replaced if they linger",
			"count", adopted, "reveals", r.adoptSent())
	}
	r.recoverLogged(ctx)

	a := &api{r: r, started: time.Now()}
	strict := relayerapi.NewStrictHandlerWithOptions(a, nil, relayerapi.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  platform.RequestErrorHandler,
		ResponseErrorHandlerFunc: platform.WriteError,
	})
	h, err := platform.NewHandler(platform.HandlerOptions{
		SpecYAML: openapi.RelayerYAML, TrustedProxies: cfg.HTTP.TrustedProxies, CORS: cfg.HTTP.CORS, Tracer: tracer,
		Metrics: reg, Gatherer: reg, Logger: opts.Logger,
		BodyLimits: map[string]int64{"POST /reveal": 16 << 10},
		Admit: map[string]platform.Admission{ // every POST /reveal counts, malformed ones too
			"POST /reveal": platform.ClientAdmission(r.perIP, cfg.Limits.IPv6Prefix, "requests per client IP",
				r.metrics.rateLimited.WithLabelValues("ip").Inc),
		},
		API: func(rt chi.Router) {
			relayerapi.HandlerWithOptions(strict, relayerapi.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: platform.RequestErrorHandler})
		},
	})
	if err != nil {
		return nil, err
	}
	log.Info("relayer ready", "operator", operator.Hex(), "chainId", chainID, "vault", cfg.Contracts.Vault.Hex(), "offchainVerification", vk != nil)
	return &Service{cfg: cfg, Relayer: r, handler: h, opened: opened}, nil
}

func readVerificationKey(path string) (*zk.VerificationKey, error) {
	vk, err := zk.ReadVerificationKeyFile(path)
	if err != nil {
		return nil, fmt.Errorf("VERIFICATION_KEY_FILE: %w", err)
	}
	return vk, nil
}

// Handler is the service's HTTP handler.
func (s *Service) Handler() http.Handler { return s.handler }

// Start runs the balance poll and the transaction watcher until Close. They outlive the
// server's drain, so reveals in flight when the server stops still get their answer.
func (s *Service) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.background.Add(1)
	go func() { defer s.background.Done(); s.Relayer.gate.Run(ctx) }()
	s.Relayer.tx.Start()
}

// Close stops what Start started and the goroutines following reveals in flight, then gives
// back what New opened, newest first: the key's lease, the record of what was sent, Redis, the
// chain client (none of them used after: a reveal mined as it stops marks its record first).
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
		s.background.Wait()
	}
	s.Relayer.tx.Close()
	close(s.Relayer.closing)
	s.Relayer.tracking.Wait()
	s.opened.Close()
}

// Run polls the balance and serves on PORT until ctx is done; reveals in flight are finished
// within SHUTDOWN_GRACE. The caller closes the service after. A replica whose operator key
// another replica took (OPERATOR_PRIVATE_KEYS) stops with errKeyTaken.
func (s *Service) Run(ctx context.Context) error {
	s.Start()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go stopWhenKeyTaken(ctx, stop, s.Relayer.keyLost())
	err := platform.ListenAndServe(ctx, "relayer", s.cfg.HTTP.Port, s.handler, s.cfg.HTTP.ShutdownGrace)
	return errors.Join(keyTaken(ctx), err)
}

// errKeyTaken stops a replica whose operator key another replica took: it can no longer send,
// and a restart leases a free key.
var errKeyTaken = errors.New("another replica took this replica's operator key (its lease lapsed): stopping; a restart leases a free key")

// stopWhenKeyTaken cancels ctx with errKeyTaken when lost closes (nil: never).
func stopWhenKeyTaken(ctx context.Context, stop context.CancelCauseFunc, lost <-chan struct{}) {
	select {
	case <-lost:
		stop(errKeyTaken)
	case <-ctx.Done():
	}
}

// keyTaken is errKeyTaken if that is why ctx ended, else nil.
func keyTaken(ctx context.Context) error {
	if err := context.Cause(ctx); errors.Is(err, errKeyTaken) {
		return err
	}
	return nil
}
