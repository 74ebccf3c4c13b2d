package relayer

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// A relayer's life once New has wired it: Start takes the operator key and sets it up to pay
// (waiting, with replicas, as a standby until a key is free), Run serves until it is told to stop
// or another replica took its key, and Close gives back what Start and New took.

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
	if !s.cfg.Operator.Replicas() {
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
		for { // the holds' and the leases' spell
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
	signer := s.signers[0]
	if cfg.Operator.Replicas() { // replicas: this one leases a key of the set (keys.go)
		l, err := leaseOperatorKey(ctx, r.redis, s.signers, cfg.Operator.LeaseTTL, r.metrics.leaseEpoch, r.log, func() {
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
		r.lease, signer = l, l.signer
	}
	s.setUp(ctx, signer)
	s.background.Add(2)
	go func() { defer s.background.Done(); r.gate.Run(ctx) }()
	r.refreshStatus(ctx, true) // the status has its figures and runway once the relayer takes reveals
	go func() { defer s.background.Done(); r.runStatus(ctx, cfg.Operator.BalancePoll) }()
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

// setUp makes the balance gate and transaction manager of signer's wallet, reads its balance and
// nonce, and follows again what it had in flight: adopted from the node's pool, and recorded as sent.
func (s *Service) setUp(ctx context.Context, signer txmgr.Signer) {
	r, cfg := s.Relayer, s.cfg
	operator := signer.Address()
	registerOperator(s.reg, r, operator.Hex())
	r.gate = gate.New(r.client, gate.Config{Wallet: operator, Name: "operator", Work: "reveals", Min: cfg.Operator.MinBalance,
		Poll: cfg.Operator.BalancePoll, Setting: "MIN_OPERATOR_BALANCE",
		Budget: cfg.Operator.SpendLimit, BudgetSetting: "OPERATOR_SPEND_LIMIT",
		Shared: sharedBudget(r.redis, "vaultd:relayer:spend"), OnChange: func(event string) { r.hooks.Tell(event, map[string]string{"wallet": operator.Hex()}) }}, gate.NewMetrics(s.reg, "relayer", "operator_balance"), r.log)
	r.tx = txmgr.New(r.client, signer, r.chainID, cfg.Tx.Config, r.gate, txmgr.NewMetrics(s.reg, "relayer"), r.log)
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
