package relayer

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/lifecycle"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/relayer/claims"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Service is a ready-to-run relayer.
type Service struct {
	cfg     Config
	Relayer *Relayer
	handler http.Handler

	stop       context.CancelFunc // ends what Start started
	background sync.WaitGroup
	opened     *lifecycle.Stack // what New opened (and Start leased), given back by Close
	reg        prometheus.Registerer
}

// Options are the tracer, metrics registry and logger a caller may give (edge.Options).
type Options = edge.Options

// New wires the relayer and checks what it is given: it dials the chain (and settles the chain
// id), reads the verifying key and the tree's root history, reaches Redis and opens the record of
// what it signs. It waits for nothing and sends nothing: Start takes the operator key (leasing
// one of OPERATOR_PRIVATE_KEYS may wait for another replica to let one go), reads its nonce and
// balance, and follows again what was in flight; until then the relayer answers 503
// OPERATOR_KEY_UNAVAILABLE.
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
	var vk *zk.VerificationKey
	if cfg.VerificationKeyFile != "" {
		if vk, err = readVerificationKey(cfg.VerificationKeyFile); err != nil {
			return nil, err
		}
	}
	m := newMetrics(reg)
	for token := range cfg.Fees.Prices { // each priced token's fees exported at 0 before the first
		m.feesEarned.WithLabelValues(token.Hex())
	}
	reads := vaultReads{client: client, nullifiers: cfg.Contracts.NullifierRegistry, tree: cfg.Contracts.CommitmentTree}
	r := &Relayer{cfg: cfg, chainID: chainID, client: client, vk: vk, reads: reads, metrics: m, tracer: tracer, log: log,
		perIP: ratelimit.New(cfg.Limits.PerIP), perRecipient: ratelimit.New(cfg.Limits.PerRecipient), total: ratelimit.New(cfg.Limits.Total),
		perSponsor: ratelimit.New(cfg.Limits.PerSponsor),
		running:    map[common.Hash]*outcome{}, sent: map[common.Hash]*txmgr.Flight{}, inserts: &localInserts{}, closing: make(chan struct{}), keyGone: make(chan struct{}), set: make(chan struct{})}
	if cfg.Limits.RedisURL != "" { // the limits hold across every replica sharing this Redis
		if r.redis, err = ratelimit.Connect(ctx, cfg.Limits.RedisURL, opts.Traces); err != nil {
			return nil, err
		}
		opened.PushErr(r.redis.Close)
		r.perIP = ratelimit.NewRedis(r.redis, "relayer:ip", cfg.Limits.PerIP)
		r.perRecipient = ratelimit.NewRedis(r.redis, "relayer:recipient", cfg.Limits.PerRecipient)
		r.total = ratelimit.NewRedis(r.redis, "relayer:total", cfg.Limits.Total)
		r.perSponsor = ratelimit.NewRedis(r.redis, "relayer:sponsor", cfg.Limits.PerSponsor)
		r.claims = claims.New(r.redis, cfg.Limits.ClaimTTL, time.Hour, cfg.Operator.LeaseTTL)
		r.inserts = &fleetInserts{client: r.redis, owner: edge.Instance(), ttl: 10 * time.Minute}
	}
	if r.rootHistory, err = readRootHistory(ctx, client, cfg.Contracts.CommitmentTree); err != nil {
		return nil, err
	}
	if r.sentTxs, err = openSentStore(cfg.DatabaseURL, chainID, opts.Traces); err != nil {
		return nil, err
	}
	opened.PushErr(r.sentTxs.Close)
	if cfg.Limits.RedisURL == "" { // one relayer per shared database: what keeps one attempt per nullifier without Redis
		release, alone, err := r.sentTxs.db.TryHold(ctx, fmt.Sprintf("vaultd:relayer:alone:%d:%s", chainID, cfg.Contracts.Vault.Hex()))
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL: %w", err)
		}
		if !alone {
			return nil, errors.New("another relayer of this vault uses this DATABASE_URL without REDIS_URL: relayers sharing a database need the same REDIS_URL (it keeps one attempt at a reveal at a time, and the limits, across them)")
		}
		opened.Push(release)
	}
	if r.hooks, err = webhook.Open(r.sentTxs.db, "relayer", cfg.Admin.Replica, cfg.Webhooks, reg, log); err != nil {
		return nil, err
	}
	r.sentTxs.hooks = r.hooks
	accounts, err := funding.OpenAccounts(r.sentTxs.db, chainID, r.hooks, cfg.Fees.SponsorLow)
	if err != nil {
		return nil, err
	}
	r.funding = funding.New(cfg.Fees, chainID, cfg.Contracts.Vault, reads, accounts)
	r.sentTxs.funding = r.funding
	reg.MustRegister(newSponsorBalances(accounts, log), prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: "relayer",
		Name: "sponsor_balance_threshold_ether", Help: "RELAYER_SPONSOR_LOW_BALANCE in native tokens: a sponsor's balance under it is low (the webhook sponsor.balance_low, the alert VaultdRelayerSponsorBalanceLow)."},
		func() float64 { return gate.WeiToEther(cfg.Fees.SponsorLow) }))
	opened.Push(r.hooks.Close) // before the database closes
	if r.pause, err = pause.Open(ctx, r.sentTxs.db, "relayer", cfg.Admin.Replica, "reveals", reg, log); err != nil {
		return nil, err
	}
	r.pause.OnChange = func(st pause.State) { r.hooks.Tell(st.Event(), wallet.PauseStateOf(st)) }
	h, err := r.handler(opts)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, Relayer: r, handler: h, opened: opened, reg: reg}, nil
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

// Start takes the operator key and sets the relayer up to pay, then runs the balance poll and the
// transaction watcher until Close. With REDIS_URL it first waits out a new Redis's quiet spell
// (its guards cannot be trusted for one OPERATOR_LEASE_TTL). With one OPERATOR_PRIVATE_KEY it
// returns once the operator is set up; with OPERATOR_PRIVATE_KEYS it returns at once and leases
// a key in the background, waiting as a standby while other replicas hold them all
// (WaitOperator waits for it). The loops outlive the server's drain, so reveals in flight when
// the server stops still get their answer.
func (s *Service) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.Relayer.hooks.Start(time.Second)
	s.background.Add(1)
	operated := make(chan struct{})
	go func() { defer s.background.Done(); defer close(operated); s.operate(ctx) }()
	if len(s.cfg.Operator.Keys) == 0 {
		select {
		case <-s.Relayer.set:
		case <-operated: // stopped before it was set up (Close)
		}
	}
}

// WaitOperator waits until Start has set the operator up (the relayer then takes reveals), or ctx
// ends.
func (s *Service) WaitOperator(ctx context.Context) error {
	select {
	case <-s.Relayer.set:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// operate is Start's work: the quiet spell, the key, the operator's set-up, then its loops.
func (s *Service) operate(ctx context.Context) {
	r, cfg := s.Relayer, s.cfg
	if r.redis != nil {
		for { // the claims' and the leases' spell
			err := lease.WaitQuiet(ctx, r.redis, leasePrefix, cfg.Operator.LeaseTTL)
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return
			}
			r.log.Warn("cannot ask Redis whether it is in its quiet spell; asking again", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
	key := cfg.Operator.Key
	if len(cfg.Operator.Keys) > 0 { // replicas: this one leases a key of the set (keys.go)
		l, err := leaseOperatorKey(ctx, r.redis, cfg.Operator.Keys, cfg.Operator.LeaseTTL, r.metrics.leaseEpoch, r.log, func() {
			r.adoptSent()
			rctx, cancel := context.WithTimeout(context.Background(), cfg.Operator.LeaseTTL)
			defer cancel()
			r.recoverLogged(rctx)
		})
		if err != nil {
			if ctx.Err() == nil {
				r.log.Error("could not lease an operator key; this replica stays a standby until it is restarted", "err", err)
			}
			return
		}
		s.opened.Push(func() { // a standby takes the key at once; it adopts what is still in flight
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			l.lease.Release(ctx)
		})
		r.lease, key = l, l.key
	}
	s.setUp(ctx, key)
	s.background.Add(1)
	go func() { defer s.background.Done(); r.gate.Run(ctx) }()
	r.tx.Start()
	if r.lease != nil {
		s.background.Add(1)
		go func() {
			defer s.background.Done()
			select {
			case <-r.lease.lease.Lost():
				close(r.keyGone)
			case <-ctx.Done():
			}
		}()
	}
	close(r.set)
	r.log.Info("relayer ready", "operator", r.tx.From().Hex(), "chainId", r.chainID, "vault", cfg.Contracts.Vault.Hex(), "offchainVerification", r.vk != nil,
		"funding", strings.Join(cfg.Fees.Accepted(), ","))
}

// setUp makes key's balance gate and transaction manager, reads its balance and nonce, and follows
// again what it had in flight: adopted from the node's pool, and recorded as sent.
func (s *Service) setUp(ctx context.Context, key *ecdsa.PrivateKey) {
	r, cfg := s.Relayer, s.cfg
	operator := crypto.PubkeyToAddress(key.PublicKey)
	registerOperator(s.reg, r, operator.Hex())
	r.gate = gate.New(r.client, gate.Config{Wallet: operator, Name: "operator", Work: "reveals", Min: cfg.Operator.MinBalance,
		Poll: cfg.Operator.BalancePoll, Setting: "MIN_OPERATOR_BALANCE",
		Budget: cfg.Operator.SpendLimit, BudgetSetting: "OPERATOR_SPEND_LIMIT",
		Shared: sharedBudget(r.redis, "vaultd:relayer:spend"), OnChange: func(event string) { r.hooks.Tell(event, map[string]string{"wallet": operator.Hex()}) }}, gate.NewMetrics(s.reg, "relayer", "operator_balance"), r.log)
	r.tx = txmgr.New(r.client, txmgr.KeySigner(key), r.chainID, cfg.Tx.Config, r.gate, txmgr.NewMetrics(s.reg, "relayer"), r.log)
	r.tx.SetTracer(r.tracer)
	if r.lease != nil {
		r.tx.SetFence(r.lease.lease)
		r.lease.tx.Store(r.tx)
	}
	sctx, cancel := context.WithTimeout(ctx, 2*cfg.Chain.RPCTimeout)
	defer cancel()
	r.gate.Refresh(sctx)
	switch adopted, err := r.tx.Sync(sctx); {
	case err != nil:
		r.log.Warn("could not read the operator's nonce or list its transactions in the node's pool (txpool_contentFrom) at start; the nonce is read again at the first send, and transactions sent before this start are not replaced if they linger", "err", err)
	case adopted > 0:
		r.log.Info("tracking the operator's transactions found waiting in the node's pool; they are replaced if they linger",
			"count", adopted, "reveals", r.adoptSent())
	}
	r.recoverLogged(ctx)
	if err := r.pause.Announce(ctx, operator.Hex()); err != nil { // the fleet view's row (GET /admin/fleet)
		r.log.Warn("could not record this replica's wallet for the fleet view; it pays from it all the same", "err", err)
	}
}

// Close stops what Start started and the goroutines following reveals in flight, then gives
// back what New opened, newest first: the key's lease, the record of what was sent, Redis, the
// chain client (none of them used after: a reveal mined as it stops marks its record first).
func (s *Service) Close() {
	if s.stop != nil {
		s.stop()
		s.background.Wait()
	}
	if s.Relayer.isSet() {
		s.Relayer.tx.Close()
	}
	close(s.Relayer.closing)
	s.Relayer.tracking.Wait()
	s.opened.Close()
}

// Run polls the balance and serves on PORT (and the operator's routes on ADMIN_ADDR, when set)
// until ctx is done; reveals in flight are finished within SHUTDOWN_GRACE. The caller closes the
// service after. Until Start has the operator set up, it serves as a standby (GET /health 200
// with status standby, so that a liveness probe keeps it; GET /ready and POST /reveal 503
// OPERATOR_KEY_UNAVAILABLE): a replica that finds every key of OPERATOR_PRIVATE_KEYS leased stays
// one until it leases a key. A replica whose operator key another replica took stops with
// errKeyTaken.
func (s *Service) Run(ctx context.Context) error {
	s.Start()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go stopWhenKeyTaken(ctx, stop, s.Relayer.keyLost())
	err := edge.ListenAndServeAdmin(ctx, "relayer", s.cfg.HTTP.Port, s.cfg.Admin.Addr, s.handler, s.cfg.HTTP.ShutdownGrace)
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

// readRootHistory reads how many roots the commitment tree keeps (its ROOT_HISTORY_SIZE). It is
// a check of what New is given, so it runs there: a wrong COMMITMENT_TREE_ADDRESS stops the start,
// as a wrong RPC_URL does; a provider's passing fault is asked again (chain.Retry).
func readRootHistory(ctx context.Context, client *chain.Client, tree common.Address) (uint32, error) {
	var out []byte
	err := chain.Retry(ctx, func() (err error) {
		out, err = client.Call(ctx, "root_history_size", tree, contracts.NewCommitRevealVault().PackROOTHISTORYSIZE())
		return err
	})
	var size uint32
	if err == nil {
		size, err = contracts.NewCommitRevealVault().UnpackROOTHISTORYSIZE(out)
	}
	if err != nil {
		return 0, fmt.Errorf("read the commitment tree's ROOT_HISTORY_SIZE at COMMITMENT_TREE_ADDRESS: %w", err)
	}
	return size, nil
}
