// Package faucet is the faucet: it sends a fixed amount of test
// native tokens to an address, one claim per address, exactly once. A claim is recorded in the
// store (unique per address and chain) before its transaction is signed, every signed version
// is recorded before it is sent, and unfinished claims are reconciled with the chain at start
// and whenever a send's outcome was lost, so no crash ends in two transfers to one address or
// in a claim confirmed without a transfer.
package faucet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge/paying"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// Error codes of the faucet.
const (
	CodeAlreadyClaimed   = "ALREADY_CLAIMED"
	CodeClaimRejected    = "CLAIM_REJECTED"
	CodeFaucetBalanceLow = "FAUCET_BALANCE_LOW"
	// The proof of work's 403s.
	CodePowRequired = "POW_REQUIRED"
	CodePowInvalid  = "POW_INVALID"
	CodePowExpired  = "POW_EXPIRED"
	CodePowUsed     = "POW_USED"
	// The optional gates' 403s (gates.go).
	CodeGateBalanceLow  = "GATE_BALANCE_LOW"
	CodeGateNonceLow    = "GATE_NONCE_LOW"
	CodeCaptchaRequired = "CAPTCHA_REQUIRED"
	CodeCaptchaInvalid  = "CAPTCHA_INVALID"
	// CodeSpendLimitReached is the 503 of a spent FAUCET_SPEND_LIMIT.
	CodeSpendLimitReached = paying.CodeSpendLimitReached
	outcomeAccepted       = "ACCEPTED"
	reconcileRetry        = 2 * time.Second
	plainTransferGas      = 21_000
	storeTimeout          = 10 * time.Second
	reasonReverted        = "the transfer reverted on chain"
	reasonCancelled       = "the faucet's operator cancelled the transfer; claim again"
	reasonRejectedOnRetry = "a transfer to this address would revert"
)

// AlreadyClaimedError is a claim for an address that has one; Claim is that claim.
type AlreadyClaimedError struct{ Claim Claim }

func (e *AlreadyClaimedError) Error() string {
	return fmt.Sprintf("this address has already claimed (%s)", e.Claim.Status)
}

// Faucet runs claims.
type Faucet struct {
	cfg     Config
	chainID uint64
	client  *chain.Client
	store   *store
	tx      *txmgr.Manager
	gate    *gate.Gate
	pause   *pause.Switch // an operator's pause of this replica (POST /admin/pause)
	metrics *metrics
	tracer  trace.Tracer
	log     *slog.Logger

	perIP, total ratelimit.Window
	redis        *redis.Client // the limits' Redis (REDIS_URL); nil: in this process
	pow          *pow.Issuer   // the proof of work's challenges; nil: the faucet asks none
	gates        *gates        // the optional gates (another chain's activity, a captcha)
	powMu        sync.Mutex    // guards powWork and powAt
	powWork      uint64        // the work challenges ask, as counted at powAt
	powAt        time.Time
	powChecks    *checks // the solutions being checked: at most cfg.Pow.Checks at once, one per challenge

	// life is the service's lifetime: followers and the reconciler end with it.
	life    context.Context
	end     context.CancelFunc
	workers sync.WaitGroup
	recheck chan struct{} // wakes the reconciler
	resumed chan struct{} // an operator resumed this replica: the reconciler signs what the pause held
	// listFailing is set while the reconciler cannot list the pending claims: said once.
	listFailing atomic.Bool

	mu   sync.Mutex
	busy map[common.Address]bool // claims this process is working on: being made, followed or reconciled
}

// acquire marks addr's claim as worked on by the caller; false when someone else is.
func (f *Faucet) acquire(addr common.Address) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy[addr] {
		return false
	}
	f.busy[addr] = true
	return true
}

func (f *Faucet) release(addr common.Address) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.busy, addr)
}

// wakeReconciler asks for a reconciliation pass soon.
func (f *Faucet) wakeReconciler() {
	select {
	case f.recheck <- struct{}{}:
	default:
	}
}

// onResume has the reconciler take up, once an operator resumed this replica, the claims a
// pause held unsigned (held): other replicas' orphans, then its own.
func (f *Faucet) onResume() {
	select {
	case f.resumed <- struct{}{}:
	default:
	}
}

// Status returns addr's claim; Status is StatusNone when it never claimed.
func (f *Faucet) Status(ctx context.Context, addr common.Address) (Claim, error) {
	c, err := f.store.get(ctx, addr)
	if errors.Is(err, errNotFound) {
		return Claim{Address: addr, Status: StatusNone}, nil
	}
	if err != nil {
		return Claim{}, err
	}
	return c, nil
}

// Claim makes addr's claim: recorded, then sent. It returns the pending claim once its
// transaction is accepted by the node (or its send's answer was lost: the reconciler finishes
// it), an *AlreadyClaimedError when the address has a claim, or the error that stopped it,
// in which case nothing was recorded and nothing sent.
func (f *Faucet) Claim(ctx context.Context, addr common.Address, proof Proof) (c Claim, err error) {
	start := time.Now()
	ctx = context.WithoutCancel(ctx) // a client that goes away does not abort a claim half made
	defer func() {
		outcome := outcomeAccepted
		if err != nil {
			outcome = named(err).Code
		}
		f.metrics.claims.WithLabelValues(outcome).Inc()
		span := trace.SpanFromContext(ctx)
		span.SetAttributes(attribute.String("vaultd.outcome", outcome))
		if h := c.TxHash(); h != (common.Hash{}) {
			span.SetAttributes(attribute.String("vaultd.tx_hash", h.Hex()))
		}
	}()
	if addr == (common.Address{}) {
		return c, &ClaimError{Reason: ZeroAddress, Message: "address is the zero address"}
	}
	if err := f.gate.Check(ctx); err != nil {
		return c, err
	}
	challenge, err := f.checkSolution(ctx, addr, proof.Work)
	if err != nil {
		return c, err
	}
	gctx, end := f.stage(ctx, "gates")
	err = f.gates.check(gctx, addr, proof.Captcha)
	end(err)
	if err != nil {
		return c, err
	}
	// The store answers whether the address has a claim. While another request for it is
	// between its check and its record (milliseconds), wait and look again: a 409 is only ever
	// given for a claim that is recorded.
	for deadline := time.Now().Add(claimWait); ; time.Sleep(5 * time.Millisecond) {
		lctx, end := f.stage(ctx, "check.claimed")
		existing, err := f.store.get(lctx, addr)
		switch {
		case err == nil && existing.Status != StatusFailed:
			end(&AlreadyClaimedError{existing})
			return existing, &AlreadyClaimedError{existing}
		case err != nil && !errors.Is(err, errNotFound):
			end(err)
			return c, err
		}
		end(nil)
		if f.acquire(addr) {
			c, err := f.claim(ctx, addr, existing.Status == StatusFailed, challenge, start)
			if !errors.Is(err, errExists) {
				return c, err
			}
			continue // another request recorded it first: answer with its claim
		}
		if time.Now().After(deadline) {
			return c, &ClaimError{Reason: AddressBusy, Message: "another claim for this address is being made; try again", RetryAfter: time.Second}
		}
	}
}

// allowClaim counts a claim against the total limit (once the replicas' Redis is known to hold it).
func (f *Faucet) allowClaim(ctx context.Context) error {
	if err := f.redisTrusted(ctx); err != nil {
		return err
	}
	if d, err := f.total.Allow(ctx, ""); err != nil {
		return ratelimit.Unavailable(err)
	} else if !d.OK {
		f.metrics.rateLimited.WithLabelValues("total").Inc()
		return ratelimit.Exceeded(f.cfg.Limits.Total, "claims in total", d.Reset)
	}
	return nil
}

// claimWait bounds how long a claim waits for a concurrent one for the same address.
const claimWait = 5 * time.Second

// claim makes addr's claim once the caller has acquired it: estimate, record, send. It answers
// errExists when another request recorded a claim first.
func (f *Faucet) claim(ctx context.Context, addr common.Address, reopen bool, challenge pow.Challenge, start time.Time) (c Claim, err error) {
	followed := false
	defer func() {
		if !followed {
			f.release(addr)
		}
	}()
	amount := f.claimAmount()
	if err := f.affordable(amount, plainTransferGas); err != nil {
		return c, err
	}
	sctx, end := f.stage(ctx, "estimate")
	gas, err := f.estimate(sctx, addr, amount)
	end(err)
	if err != nil {
		return c, err
	}
	if err := f.pause.Check(); err != nil { // paused since the request was admitted: nothing recorded or signed
		return c, err
	}
	sctx, end = f.stage(ctx, "limits") // the claims in total
	err = f.allowClaim(sctx)
	end(err)
	if err != nil {
		return c, err
	}
	sctx, end = f.stage(ctx, "record")
	err = f.spendSolution(sctx, challenge)
	if err == nil {
		err = f.record(sctx, addr, amount, reopen)
		if err != nil && !errors.Is(err, errExists) {
			f.unspendSolution(ctx, challenge) // nothing was recorded: the solution may be sent again
		}
	}
	end(err)
	if err != nil {
		_ = f.total.Undo(ctx, "")
		return c, err
	}
	sctx, end = f.stage(ctx, "send")
	fl, err := f.send(sctx, addr, amount, gas)
	end(err)
	switch {
	case err != nil:
		// The node did not take the transaction: the claim is withdrawn, the address may claim again.
		if werr := f.withStore(ctx, func(ctx context.Context) error { return f.store.withdraw(ctx, addr) }); werr != nil {
			f.log.Error("could not withdraw a claim whose transaction was not sent; it will be sent by the reconciler", "address", addr.Hex(), "err", werr)
			f.wakeReconciler() // and the challenge stays spent: its claim will be paid
		} else {
			f.unspendSolution(ctx, challenge)
		}
		_ = f.total.Undo(ctx, "")
		var refused *gate.ClosedError          // the gate, closed since the request arrived
		if errors.Is(err, txmgr.ErrRejected) { // refused: is the wallet short? (the balance, read afresh; never the error's words)
			f.gate.Refresh(ctx)
			if short := f.affordable(amount, gas); short != nil {
				err = short
			}
		}
		switch {
		case errors.As(err, new(*ClaimError)):
		case errors.Is(err, txmgr.ErrFenced):
			err = &ClaimError{Reason: WalletNotHeld, RetryAfter: 2 * time.Second, Cause: err,
				Message: "this faucet replica is re-taking its wallet's lock after a database restart; nothing was sent, try again"}
		case !errors.As(err, &refused):
			err = chainUnavailable(err)
		}
		return c, err
	}
	// The answer is the claim as sent: pending, its hash recorded. Read before its transaction is
	// followed, so that it never says confirmed (the dev chain mines at once, and on a loaded
	// machine the follower's first receipt came before this read); GET /api/faucet/status
	// says what became of it.
	c, err = f.store.get(ctx, addr)
	followed = true
	f.tellSent(addr)
	f.follow(addr, fl, start)
	return c, err
}

// tellSent tells the webhooks that addr's claim is pending: once its transfer is sent, not when
// it is recorded, since a claim whose transfer the node refuses is withdrawn (nothing paid, the
// address may claim again) and no later event would end it.
func (f *Faucet) tellSent(addr common.Address) {
	f.store.hooks.Tell("claim.pending", claimEvent{Address: addr.Hex()})
}

// record makes the claim durable before anything is signed: a new row, or a failed claim
// reopened. Of two requests that record at once, one gets errExists.
func (f *Faucet) record(ctx context.Context, addr common.Address, amount *big.Int, reopen bool) error {
	now := time.Now()
	if !reopen {
		err := f.store.insert(ctx, addr, amount, now)
		if err != nil && !errors.Is(err, errExists) {
			return err
		}
		return err
	}
	ok, err := f.store.reopen(ctx, addr, amount, now)
	switch {
	case err != nil:
		return err
	case !ok:
		return errExists
	}
	return nil
}

// stage starts a child span of the request's; end records its outcome.
func (f *Faucet) stage(ctx context.Context, name string) (context.Context, func(error)) {
	ctx, span := f.tracer.Start(ctx, name)
	return ctx, func(err error) { tracing.EndStep(span, err, named) }
}

// redisPrefix is where the faucet's Redis marks that it holds the limits (service/kit/lease.Quiet).
const redisPrefix = "vaultd:faucet:redis"

// redisTrusted refuses a claim (503 UNAVAILABLE, nothing recorded or sent) while the limits'
// Redis is in a quiet spell: it restarted empty, and its windows and spend budget started again
// from nothing, so for REDIS_WIPE_QUIET nothing is paid on their word.
func (f *Faucet) redisTrusted(ctx context.Context) error {
	if f.redis == nil {
		return nil
	}
	quiet, err := lease.Quiet(ctx, f.redis, redisPrefix, f.cfg.Limits.WipeQuiet)
	if err != nil {
		return ratelimit.Unavailable(err)
	}
	if quiet {
		return &ClaimError{Reason: LimitsLost, RetryAfter: f.cfg.Limits.WipeQuiet,
			Message: "the faucet's limits were lost (its Redis restarted empty); claims resume shortly, try again"}
	}
	return nil
}

// affordable refuses a claim while the wallet, as last read, holds less than one claim and its
// gas at MAX_FEE_PER_GAS: 503 FAUCET_BALANCE_LOW from the balance itself, not from a node's
// words (Hardhat's estimates do not check the balance, and the send was then refused as a 502).
func (f *Faucet) affordable(amount *big.Int, gas uint64) error {
	need := new(big.Int).Set(amount)
	if fee := f.cfg.Tx.MaxFeePerGas; fee != nil {
		need.Add(need, new(big.Int).Mul(fee, new(big.Int).SetUint64(gas)))
	}
	balance, _, _ := f.gate.State()
	if balance != nil && balance.Cmp(need) < 0 {
		return &ClaimError{Reason: WalletEmpty, Message: "the faucet is out of funds for now, try again later", RetryAfter: f.cfg.Wallet.BalancePoll}
	}
	return nil
}

// estimate is the gas of a transfer of amount to addr: 21,000 to an account, the estimate + 20 % to a
// contract; a transfer that would revert is CLAIM_REJECTED.
func (f *Faucet) estimate(ctx context.Context, addr common.Address, amount *big.Int) (uint64, error) {
	gas, err := f.client.EstimateGas(ctx, ethereum.CallMsg{From: f.tx.From(), To: &addr, Value: amount})
	switch {
	case err == nil && gas > plainTransferGas:
		return gas * 12 / 10, nil
	case err == nil:
		return gas, nil
	case chain.IsNodeAnswer(err) && strings.Contains(strings.ToLower(err.Error()), "insufficient funds"):
		// The wallet holds less than one claim (MIN_FAUCET_BALANCE set under FAUCET_AMOUNT): not
		// the address's fault, and not a reason to fail a recorded claim.
		f.gate.Refresh(ctx)
		return 0, &ClaimError{Reason: WalletEmpty, Message: "the faucet is out of funds for now, try again later", RetryAfter: f.cfg.Wallet.BalancePoll, Cause: err}
	case chain.IsNodeAnswer(err):
		return 0, &ClaimError{Reason: ClaimRejected, Message: "a transfer to this address would revert (a contract that does not accept native tokens?)", Cause: err}
	default:
		return 0, chainUnavailable(err)
	}
}

// send signs and sends the claim's transfer; each signed version is recorded first.
func (f *Faucet) send(ctx context.Context, addr common.Address, amount *big.Int, gas uint64) (*txmgr.Flight, error) {
	return f.tx.Send(ctx, txmgr.Tx{To: addr, Value: amount, Gas: gas, Record: f.recorder(addr), Unsent: f.unrecorder(addr)})
}

// unrecorder takes a version the node did not take out of addr's claim: broadcast after a
// restart, or shown as the claim's transaction, it would stand for the versions that were sent.
func (f *Faucet) unrecorder(addr common.Address) func(context.Context, *types.Transaction, *types.Transaction) {
	return func(ctx context.Context, version, standing *types.Transaction) {
		err := f.withStore(ctx, func(ctx context.Context) error { return f.store.unrecordTx(ctx, addr, version, standing) })
		if err != nil {
			f.log.Warn("could not take a version the node did not take out of its claim's record; a restart may broadcast it",
				"address", addr.Hex(), "nonce", version.Nonce(), "err", err)
		}
	}
}

// recorder stores each signed version of addr's transaction before it is sent.
func (f *Faucet) recorder(addr common.Address) func(context.Context, *types.Transaction) error {
	return func(ctx context.Context, tx *types.Transaction) error {
		return f.withStore(ctx, func(ctx context.Context) error { return f.store.recordTx(ctx, addr, tx) })
	}
}

// withStore runs a store write that must not be cut short by a caller going away: within
// storeTimeout, in parent's trace but not ended by its end.
func (f *Faucet) withStore(parent context.Context, write func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), storeTimeout)
	defer cancel()
	return write(ctx)
}

// follow waits in the background for addr's flight and settles the claim. The caller has
// acquired addr; follow releases it.
func (f *Faucet) follow(addr common.Address, fl *txmgr.Flight, start time.Time) {
	f.metrics.pending.Inc()
	f.workers.Add(1)
	go func() {
		defer f.workers.Done()
		defer f.metrics.pending.Dec()
		select {
		case <-f.life.Done():
			return // stopping: the claim stays pending and is reconciled at the next start
		case <-fl.Done():
		}
		defer f.release(addr)
		// The settlement is a trace of its own, linked to the claim's send.
		ctx, span := f.tracer.Start(context.Background(), "faucet.settle", trace.WithLinks(trace.Link{SpanContext: fl.Origin()}),
			trace.WithAttributes(attribute.String("vaultd.tx_hash", fl.Hash().Hex()), attribute.Int64("vaultd.nonce", int64(fl.Nonce()))))
		defer span.End()
		r := fl.Receipt()
		if r != nil {
			span.SetAttributes(attribute.Int64("vaultd.block", r.BlockNumber.Int64()), attribute.Bool("vaultd.reverted", r.Status != types.ReceiptStatusSuccessful))
		}
		if errors.Is(fl.Err(), txmgr.ErrCancelled) { // an operator's cancel was mined: nothing was paid
			if err := f.withStore(ctx, func(ctx context.Context) error {
				return f.store.settle(ctx, addr, StatusFailed, 0, reasonCancelled)
			}); err != nil {
				f.log.Error("could not store a cancelled claim's outcome; the reconciler will", "address", addr.Hex(), "err", err)
				f.wakeReconciler()
			}
			return
		}
		if r == nil { // given up: the reconciler decides whether it can still be mined
			f.wakeReconciler()
			return
		}
		if err := f.settle(ctx, addr, r); err != nil {
			f.log.Error("could not store a claim's outcome; the reconciler will", "address", addr.Hex(), "err", err)
			f.wakeReconciler()
			return
		}
		if r.Status == types.ReceiptStatusSuccessful {
			f.metrics.latency.Observe(time.Since(start).Seconds())
		}
	}()
}

// settle stores a mined transaction's outcome as the claim's.
func (f *Faucet) settle(ctx context.Context, addr common.Address, r *types.Receipt) error {
	status, reason := StatusConfirmed, ""
	if r.Status != types.ReceiptStatusSuccessful {
		status, reason = StatusFailed, reasonReverted
	}
	err := f.withStore(ctx, func(ctx context.Context) error {
		return f.store.settle(ctx, addr, status, r.BlockNumber.Uint64(), reason)
	})
	if err == nil {
		f.metrics.settled.WithLabelValues(string(status)).Inc()
	}
	return err
}

// keepWalletLock takes the wallet's advisory lock again when Hold found it lost (Postgres
// restarted, or the session was killed), checking every second; once it has it, it reads the
// wallet's nonce and pool afresh (another process may have used the key meanwhile) before
// signing again. While another process holds the lock, this one signs nothing. SQLite: nothing
// to keep.
func (f *Faucet) keepWalletLock(ctx context.Context) {
	if !f.store.shared() {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	warned := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if f.store.held() {
			warned = false
			continue
		}
		conn, err := f.store.takeLock()
		if err != nil {
			if !warned {
				f.log.Error("lost the faucet wallet's lock (database session ended); signing nothing until it is taken again", "err", err)
				warned = true
			}
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err = f.tx.Sync(sctx)
		cancel()
		if err != nil {
			f.store.dropLock(conn) // try again, nonce included, next round
			continue
		}
		f.store.setGuard(conn)
		f.log.Info("took the faucet wallet's lock again; signing again", "wallet", f.tx.From().Hex())
	}
}

// orphanCheck is how often a faucet on Postgres looks for the claims of replicas that are not
// running (adoptOrphans).
const orphanCheck = 30 * time.Second

// adoptOrphans finishes what it can of the pending claims of wallets whose replica is not
// running (it crashed and was not restarted, or was scaled away): a claim recorded but never
// signed becomes this wallet's and is sent by the next pass (unless this replica is paused: it
// signs nothing new); a claim whose transaction (any
// version) was mined is settled from its receipt; a claim signed but not mined has its recorded
// transaction broadcast again (the node may have dropped it) and is settled once it is mined.
// Only its own key could replace it with higher fees, when its replica comes back.
func (f *Faucet) adoptOrphans(ctx context.Context) (adopted int) {
	err := f.store.orphans(ctx, func(wallet string, claims []Claim) error {
		receipts, err := f.receiptsOf(ctx, claims)
		if err != nil {
			return err
		}
		for _, c := range claims {
			if c.Nonce == nil {
				if f.pause.Check() != nil {
					continue // it would be signed here: left to a replica that is not paused, or to the pass after a resume
				}
				if ok, err := f.store.takeUnsigned(ctx, wallet, c.Address); err != nil {
					return err
				} else if ok {
					adopted++
				}
				continue
			}
			settled := false
			for _, h := range c.Hashes {
				r := receipts[h]
				if r == nil {
					continue
				}
				status, reason := StatusConfirmed, ""
				if r.Status != types.ReceiptStatusSuccessful {
					status, reason = StatusFailed, reasonReverted
				}
				if err := f.store.settleOf(ctx, wallet, c.Address, status, r.BlockNumber.Uint64(), reason); err != nil {
					return err
				}
				f.metrics.settled.WithLabelValues(string(status)).Inc()
				adopted++
				settled = true
				break
			}
			// Not mined: broadcast its newest recorded version again (it is signed; no key is
			// needed), in case the node dropped it; a later pass settles it from its receipt.
			// The node refuses it if its nonce went to another transaction or it is in the pool.
			if tx := new(types.Transaction); !settled && tx.UnmarshalBinary(c.Raw) == nil {
				_ = f.client.SendTransaction(ctx, tx)
			}
		}
		return nil
	})
	if err != nil {
		f.log.Warn("could not look at the claims of replicas that are not running", "err", err)
	}
	if adopted > 0 {
		f.log.Info("finished claims of replicas that are not running", "claims", adopted)
	}
	return adopted
}

// reconcileLoop runs a reconciliation pass whenever woken, and again every few seconds until a
// pass leaves nothing undecided; on Postgres it also looks for other replicas' orphaned claims
// every orphanCheck. While nothing needs it, it makes no call at all.
func (f *Faucet) reconcileLoop() {
	// On Postgres, other replicas' orphaned claims: once soon after start (to settle what the
	// start's pass broadcast again), then every orphanCheck.
	orphans := time.NewTimer(reconcileRetry)
	defer orphans.Stop()
	if !f.store.shared() {
		orphans.Stop()
	}
	for {
		select {
		case <-f.life.Done():
			return
		case <-f.recheck:
		case <-orphans.C:
			orphans.Reset(orphanCheck)
			if f.adoptOrphans(f.life) == 0 {
				continue
			}
		case <-f.resumed: // what a pause held: other replicas' unsigned claims, then this one's
			if f.store.shared() {
				f.adoptOrphans(f.life)
			}
		}
		for f.reconcile(f.life) > 0 {
			select {
			case <-f.life.Done():
				return
			case <-time.After(reconcileRetry):
			}
		}
	}
}

// receiptsOf looks up the receipts of every recorded version of claims in JSON-RPC batches
// (chain.TransactionReceipts): one request for a hundred transactions, not one each. A version
// not mined, or that the node cannot tell of yet, has none.
func (f *Faucet) receiptsOf(ctx context.Context, claims []Claim) (map[common.Hash]*types.Receipt, error) {
	var hashes []common.Hash
	for _, c := range claims {
		hashes = append(hashes, c.Hashes...)
	}
	found, err := f.client.TransactionReceipts(ctx, hashes)
	if err != nil {
		return nil, err
	}
	receipts := make(map[common.Hash]*types.Receipt, len(hashes))
	for i, r := range found {
		if r != nil {
			receipts[hashes[i]] = r
		}
	}
	return receipts, nil
}

// reconciled is what a reconciliation did with one claim.
type reconciled int

const (
	undecided  reconciled = iota // nothing yet: asked again on the next pass
	settled                      // its transaction (one of its versions) was mined
	followed                     // its transaction is in the pool, or was sent again as it was recorded
	sentAfresh                   // never signed, or displaced: signed with a new nonce and sent
	rejected                     // a transfer to the address would now revert: failed
	held                         // to be signed afresh, but this replica is paused: taken up on resume
)

// reconcile brings every pending claim no one is working on up to date with the chain, logs
// what it did, and returns how many claims it could not decide yet.
func (f *Faucet) reconcile(ctx context.Context) (left int) {
	claims, err := f.store.pending(ctx)
	if err != nil {
		if ctx.Err() == nil && f.listFailing.CompareAndSwap(false, true) { // once until it works again
			f.log.Error("could not list the pending claims; trying again every pass until the database answers", "err", err)
		}
		return 1
	}
	if f.listFailing.CompareAndSwap(true, false) {
		f.log.Info("listing the pending claims works again")
	}
	if len(claims) == 0 {
		return 0
	}
	ctx, span := f.tracer.Start(ctx, "faucet.reconcile", trace.WithNewRoot(), trace.WithAttributes(attribute.Int("vaultd.claims", len(claims))))
	defer func() {
		span.SetAttributes(attribute.Int("vaultd.undecided", left))
		span.End()
	}()
	// The mined nonce before any receipt: a claim whose nonce was already used when it was read,
	// and none of whose versions has a receipt after, may have been displaced (reconcileOne
	// proves it before paying again).
	mined, err := f.client.NonceAt(ctx, f.tx.From())
	if err != nil {
		return len(claims)
	}
	receipts, err := f.receiptsOf(ctx, claims)
	if err != nil {
		return len(claims)
	}
	var done [held + 1]int
	for _, c := range claims {
		if !f.acquire(c.Address) {
			continue // being made or followed
		}
		r := f.reconcileOne(ctx, c, mined, receipts)
		if r == undecided || r == held {
			f.release(c.Address)
		}
		done[r]++
	}
	if done[undecided] < len(claims) {
		f.log.Info("reconciled unfinished claims with the chain", "settled", done[settled], "followed", done[followed],
			"sentAfresh", done[sentAfresh], "rejected", done[rejected], "heldWhilePaused", done[held], "undecided", done[undecided])
	}
	return done[undecided]
}

// reconcileOne settles c from a receipt, follows it again, or sends it afresh when it was never
// signed or its nonce went to another transaction. Unless it answers undecided, c is done with
// (released) or followed (acquired until its flight settles).
func (f *Faucet) reconcileOne(ctx context.Context, c Claim, mined uint64, receipts map[common.Hash]*types.Receipt) reconciled {
	start := time.Now()
	if c.Nonce != nil {
		for _, h := range c.Hashes {
			r := receipts[h]
			if r == nil {
				continue // not mined, or the node cannot tell yet: a used nonce is proven displaced below before anything is paid again
			}
			if err := f.settle(ctx, c.Address, r); err != nil {
				return undecided
			}
			f.release(c.Address)
			return settled
		}
		if *c.Nonce >= mined {
			tx := new(types.Transaction)
			if err := tx.UnmarshalBinary(c.Raw); err != nil {
				f.log.Error("a pending claim's recorded transaction does not decode", "address", c.Address.Hex(), "err", err)
				return undecided
			}
			fl, err := f.tx.Resend(ctx, tx, f.recorder(c.Address), f.unrecorder(c.Address))
			if err != nil {
				return undecided // its nonce is held by another transaction in the pool, or the node is away: later
			}
			f.follow(c.Address, fl, start)
			return followed
		}
		// Its nonce is used and no receipt of ours was found; but "not found" may be a receipt
		// index that lags. Paid afresh only once another transaction is proven to hold the nonce.
		displaced, by, err := f.tx.Displaced(ctx, *c.Nonce, c.Hashes)
		if err != nil || !displaced {
			if err != nil {
				f.log.Debug("cannot tell yet whether a claim's transaction was displaced", "address", c.Address.Hex(), "nonce", *c.Nonce, "err", err)
			}
			return undecided
		}
		if f.pause.Check() == nil {
			f.log.Warn("a claim's transaction was displaced (another transaction of the wallet is mined at its nonce); sending it afresh",
				"address", c.Address.Hex(), "nonce", *c.Nonce, "by", by.Hex())
		}
	}
	if f.pause.Check() != nil { // it would be signed afresh: a pause stops new signing, and a resume takes it up
		return held
	}
	gas, err := f.estimate(ctx, c.Address, c.Amount)
	var ce *ClaimError
	if errors.As(err, &ce) && ce.Reason == ClaimRejected {
		err = f.withStore(ctx, func(ctx context.Context) error {
			return f.store.settle(ctx, c.Address, StatusFailed, 0, reasonRejectedOnRetry)
		})
		if err != nil {
			return undecided
		}
		f.metrics.settled.WithLabelValues(string(StatusFailed)).Inc()
		f.release(c.Address)
		return rejected
	}
	if err != nil {
		return undecided
	}
	fl, err := f.send(ctx, c.Address, c.Amount, gas)
	if err != nil {
		return undecided
	}
	if len(c.Hashes) == 0 { // its first transfer (recorded before a crash, never sent): not told yet
		f.tellSent(c.Address)
	}
	f.follow(c.Address, fl, start)
	return sentAfresh
}
