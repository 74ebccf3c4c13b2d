// Package relayer is the sponsored-reveal relayer of seed 001: it checks a reveal request
// against the chain, submits the vault's reveal from its own operator wallet and pays the gas,
// under rate limits and a minimum-balance gate, so no one actor can drain the wallet.
package relayer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"

	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/errgroup"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
	"github.com/seed018cc74c/vaultd/service/kit/platform/paying"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Error codes of the relayer (docs/design.md, "Error codes"; openapi/relayer.yaml).
const (
	CodeNullifierUsed    = "NULLIFIER_USED"
	CodeUnknownRoot      = "UNKNOWN_ROOT"
	CodeInvalidProof     = "INVALID_PROOF"
	CodeInvalidRecipient = "INVALID_RECIPIENT"
	CodeSignalMismatch   = "SIGNAL_MISMATCH"
	CodeRevealRejected   = "REVEAL_REJECTED"
	CodeTxReverted       = "TX_REVERTED"
	CodeTxPending        = "TX_PENDING"
	// CodeRootExpiring is a reveal whose root would leave the tree's history before it is mined.
	CodeRootExpiring = "ROOT_EXPIRING"
	// CodeOperatorBalanceLow is the 503 of a closed balance gate.
	CodeOperatorBalanceLow = "OPERATOR_BALANCE_LOW"
	// CodeSpendLimitReached is the 503 of a spent OPERATOR_SPEND_LIMIT.
	CodeSpendLimitReached = paying.CodeSpendLimitReached
	// CodeOperatorKeyUnavailable is the 503 of a replica whose operator key's lease lapsed.
	CodeOperatorKeyUnavailable = "OPERATOR_KEY_UNAVAILABLE"
	// CodeTxCancelled is the 503 of a reveal whose transaction an operator cancelled.
	CodeTxCancelled = "TX_CANCELLED"
	// CodeRecipientNotAllowed is the 400 of a recipient that is the vault or one of its tokens.
	CodeRecipientNotAllowed = "RECIPIENT_NOT_ALLOWED"
)

var (
	vaultABI   = contracts.NewCommitRevealVault()
	vaultError = func() *abi.ABI { a := vaultABI.GetABI(); return &a }()
	nullABI    = contracts.NewCommitRevealVault()
	treeABI    = contracts.NewCommitRevealVault()
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// Relayer runs reveals.
type Relayer struct {
	cfg     Config
	chainID uint64
	client  *chain.Client
	vk      *zk.VerificationKey // nil: no off-chain verification
	tx      *txmgr.Manager
	gate    *gate.Gate
	metrics *metrics
	tracer  trace.Tracer
	log     *slog.Logger

	perIP, perRecipient, total ratelimit.Window
	redis                      *redis.Client    // the limits' Redis (REDIS_URL); nil: in this process
	claims                     *nullifierClaims // one transaction per nullifier across replicas; nil: one process
	inserts                    insertCounter    // the change inserts in flight: this process's, or every replica's (replicas.go)
	lease                      *operatorLease   // the operator key leased from OPERATOR_PRIVATE_KEYS; nil: OPERATOR_PRIVATE_KEY
	sentTxs                    *sentStore       // what the operator signed, durably (sent.go)
	pause                      *pause.Switch    // an operator's pause of this replica (POST /admin/pause)
	hooks                      *webhook.Outbox  // webhook events (WEBHOOK_URLS), delivered from the database
	gas                        gasBook
	rootHistory                uint32 // how many roots the tree keeps (ROOT_HISTORY_SIZE), read once at New

	// set is closed once Start has set the operator up: tx, gate and lease are written before
	// it and read only after it (every entry point asks isSet first).
	set      chan struct{}
	keyTaken chan struct{} // closed when another replica took the leased key (never with one key)

	// closing is closed when the relayer stops; tracking counts the goroutines following a
	// reveal's flight (track), which end by then.
	closing  chan struct{}
	tracking sync.WaitGroup

	mu      sync.Mutex                    // guards running and sent; never held across a network call
	running map[common.Hash]*outcome      // reveals being checked or sent, by nullifier
	sent    map[common.Hash]*txmgr.Flight // reveals whose transaction is in flight, by nullifier
	// settled is closed, for each tracked flight, once the tracking goroutine has written down
	// how it ended (settle): what a request waiting for the flight waits for before answering.
	settled map[*txmgr.Flight]chan struct{}
}

// isSet reports whether Start has set the operator up.
func (r *Relayer) isSet() bool {
	select {
	case <-r.set:
		return true
	default:
		return false
	}
}

// track remembers f as the transaction of nullifier until it settles: a repeat of the reveal
// (after a 504 TX_PENDING, or after a restart that adopted it from the pool) gets its outcome,
// never a second transaction.
func (r *Relayer) track(nullifier common.Hash, f *txmgr.Flight, settled func()) {
	written := make(chan struct{})
	r.mu.Lock()
	r.sent[nullifier] = f
	if r.settled == nil {
		r.settled = map[*txmgr.Flight]chan struct{}{}
	}
	r.settled[f] = written
	r.mu.Unlock()
	r.tracking.Add(1)
	go func() {
		defer r.tracking.Done()
		select {
		case <-f.Done():
		case <-r.closing: // the relayer stops first: its record stays pending, for the next start
			return
		}
		settled()
		// Its own trace, linked to the send's.
		sctx, span := r.tracer.Start(context.Background(), "relayer.settle", trace.WithLinks(trace.Link{SpanContext: f.Origin()}),
			trace.WithAttributes(attribute.String("vaultd.tx_hash", f.Hash().Hex()), attribute.Int64("vaultd.nonce", int64(f.Nonce()))))
		r.settle(sctx, nullifier, f)
		span.End()
		r.mu.Lock()
		if r.sent[nullifier] == f {
			delete(r.sent, nullifier)
		}
		delete(r.settled, f)
		r.mu.Unlock()
		close(written)
	}()
}

// settle writes down how f, nullifier's transaction, ended: its record settled and its outcome
// stored, for GET /reveal/{nullifier}, once per flight (the tracking goroutine's; a request
// waiting for the flight waits for it, so that a status asked right after the answer agrees with
// it). A flight given up stays pending, for recover.
func (r *Relayer) settle(ctx context.Context, nullifier common.Hash, f *txmgr.Flight) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Chain.RPCTimeout)
	defer cancel()
	if errors.Is(f.Err(), txmgr.ErrCancelled) { // its nonce is used and nothing is revealed: retryable
		if err := r.sentTxs.finish(ctx, nullifier, revealOutcome{state: stateCancelled}); err != nil {
			r.log.Warn("could not store a cancelled reveal's outcome", "nonce", f.Nonce(), "err", err)
		} else if err := r.sentTxs.settle(ctx, r.tx.From(), f.Nonce()); err != nil {
			r.log.Warn("could not mark a cancelled reveal's record settled; the next start looks it up again", "nonce", f.Nonce(), "err", err)
		}
		return
	}
	rc := f.Receipt()
	if rc == nil {
		return
	}
	// The outcome first: a status read between the two writes finds it, not a record no longer
	// pending and nothing else (unknown).
	if err := r.sentTxs.finish(ctx, nullifier, outcomeOf(rc, r.revertReason(ctx, f.Transaction(), rc))); err != nil {
		r.log.Warn("could not store a mined reveal's outcome; GET /reveal/{nullifier} answers pending for it until the next start", "nonce", f.Nonce(), "err", err)
	} else if err := r.sentTxs.settle(ctx, r.tx.From(), f.Nonce()); err != nil {
		r.log.Warn("could not mark a mined reveal's record settled; the next start looks it up again", "nonce", f.Nonce(), "err", err)
	}
}

// adoptSent tracks the reveals among the transactions the manager adopted from the node's pool
// (at start, or on taking a leased key again), by the nullifier in their calldata.
func (r *Relayer) adoptSent() int {
	n := 0
	for _, f := range r.tx.Flights() {
		tx := f.Transaction()
		if tx.To() == nil || *tx.To() != r.cfg.Contracts.Vault {
			continue
		}
		signals, ok := revealSignals(tx)
		if !ok {
			continue
		}
		nullifier := common.BigToHash(signals[zk.SignalNullifier])
		r.mu.Lock()
		tracked := r.sent[nullifier] == f // adopted at an earlier sync
		r.mu.Unlock()
		if tracked {
			continue
		}
		release := func() {}
		if signals[zk.SignalChangeCommitment].Sign() != 0 { // one of the inserts ahead of new reveals
			release = r.addInsert()
		}
		r.track(nullifier, f, func() { release(); r.unclaimFollowed(nullifier, f) })
		n++
	}
	return n
}

// outcome is a reveal's result, shared with identical requests that arrive meanwhile.
type outcome struct {
	done   chan struct{}
	result relayerapi.RevealResult
	err    error
}

// allowSend counts a reveal about to be sent against the per-recipient and the total limits. A
// reveal refused by one is counted by neither.
func (r *Relayer) allowSend(ctx context.Context, recipient common.Address) error {
	d, err := r.perRecipient.Allow(ctx, recipient.Hex())
	if err != nil {
		return ratelimit.Unavailable(err)
	}
	if !d.OK {
		r.metrics.rateLimited.WithLabelValues("recipient").Inc()
		return ratelimit.Exceeded(r.cfg.Limits.PerRecipient, "reveals per recipient", d.Reset)
	}
	d, err = r.total.Allow(ctx, "")
	if err != nil || !d.OK {
		_ = r.perRecipient.Undo(ctx, recipient.Hex())
	}
	if err != nil {
		return ratelimit.Unavailable(err)
	}
	if !d.OK {
		r.metrics.rateLimited.WithLabelValues("total").Inc()
		return ratelimit.Exceeded(r.cfg.Limits.Total, "reveals in total", d.Reset)
	}
	return nil
}

// uncountSend takes back a reveal that allowSend counted but that was not sent.
func (r *Relayer) uncountSend(ctx context.Context, recipient common.Address) {
	_ = r.perRecipient.Undo(ctx, recipient.Hex())
	_ = r.total.Undo(ctx, "")
}

// Reveal runs one reveal request to its end.
func (r *Relayer) Reveal(ctx context.Context, req relayerapi.RevealRequest) (res relayerapi.RevealResult, err error) {
	start := time.Now()
	defer func() {
		outcomeCode := "SUCCESS"
		if err != nil {
			outcomeCode = refusalOf(err).code
		}
		r.metrics.reveals.WithLabelValues(outcomeCode).Inc()
		platform.ObserveWithTrace(ctx, r.metrics.stage.WithLabelValues("total"), time.Since(start).Seconds())
		span := trace.SpanFromContext(ctx)
		span.SetAttributes(attribute.String("vaultd.outcome", outcomeCode))
		if res.TxHash != "" {
			span.SetAttributes(attribute.String("vaultd.tx_hash", res.TxHash))
		}
	}()
	_, end := r.span(ctx, "parse")
	in, err := parse(req)
	end(err)
	if err != nil {
		return res, err
	}
	// One transaction per nullifier: a reveal whose transaction is in flight gets its outcome
	// (mined within RECEIPT_TIMEOUT, or 504 TX_PENDING again), and a concurrent identical
	// request waits for the first's.
	r.mu.Lock()
	if f, ok := r.sent[in.nullifier]; ok {
		r.mu.Unlock()
		// Its span links to the send of the request that sent the transaction (none for one
		// adopted at start).
		jctx, span := r.tracer.Start(ctx, "join", trace.WithLinks(trace.Link{SpanContext: f.Origin()}),
			trace.WithAttributes(attribute.String("vaultd.tx_hash", f.Hash().Hex())))
		defer span.End()
		return r.await(context.WithoutCancel(jctx), f)
	}
	if o, ok := r.running[in.nullifier]; ok {
		r.mu.Unlock()
		select {
		case <-o.done:
			return o.result, o.err
		case <-ctx.Done():
			return res, ctx.Err()
		}
	}
	o := &outcome{done: make(chan struct{})}
	r.running[in.nullifier] = o
	r.mu.Unlock()
	defer func() {
		o.result, o.err = res, err
		r.mu.Lock()
		delete(r.running, in.nullifier)
		r.mu.Unlock()
		close(o.done)
	}()
	if err := r.gate.Check(); err != nil {
		return res, err
	}
	// A client that goes away does not abort a reveal half done: its checks, its send and the
	// wait for its receipt are bounded by RPC_TIMEOUT and RECEIPT_TIMEOUT, and identical requests
	// waiting on it get its real outcome.
	return r.reveal(context.WithoutCancel(ctx), in)
}

// request is a parsed reveal request. The check-3 and check-4 failures are kept, not returned,
// so that the chain checks (1 and 2) are reported first.
type request struct {
	signals      zk.Signals
	nullifier    common.Hash
	proof        zk.Proof
	proofErr     error
	recipient    common.Address
	recipientErr error
	token        common.Address
	amount       *big.Int
}

// parse reads what the OpenAPI validation let through. The signals' range (below r) is part of
// check 3, kept like the proof's, so that the chain checks of the root and the nullifier, which
// any 256-bit value can be looked up by, come first.
func parse(req relayerapi.RevealRequest) (request, error) {
	var in request
	var err error
	if in.signals, err = zk.ParseSignalValues(req.PublicSignals); err != nil {
		return in, reject(InvalidProof, "%v", err)
	}
	in.nullifier = common.BigToHash(in.signals[zk.SignalNullifier])
	pb := make([][]string, len(req.Proof.PiB))
	for i, p := range req.Proof.PiB {
		pb[i] = p
	}
	if err := in.signals.CheckRange(); err != nil {
		in.proofErr = reject(InvalidProof, "%v", err)
	} else if in.proof, err = zk.ParseProof(zk.ProofJSON{PiA: req.Proof.PiA, PiB: pb, PiC: req.Proof.PiC}); err != nil {
		in.proofErr = reject(InvalidProof, "%v", err)
	}
	if in.recipient, err = address.ParseChecksummed(req.Recipient); err != nil {
		in.recipientErr = reject(InvalidRecipient, "recipient: %v", err)
	} else if in.recipient == (common.Address{}) {
		in.recipientErr = reject(InvalidRecipient, "recipient is the zero address")
	}
	if in.token, err = address.Parse(req.TokenAddress); err != nil {
		return in, reject(InvalidInput, "tokenAddress: %v", err)
	}
	amount, ok := new(big.Int).SetString(req.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(maxUint256) > 0 {
		return in, reject(InvalidInput, "amount must be a decimal integer from 1 to 2^256-1")
	}
	in.amount = amount
	return in, nil
}

// stage is a step of a reveal timed in vaultd_relayer_reveal_stage_duration_seconds and traced
// (span).
func (r *Relayer) stage(ctx context.Context, name string) (context.Context, func(err error)) {
	start := time.Now()
	ctx, end := r.span(ctx, name)
	return ctx, func(err error) {
		platform.ObserveWithTrace(ctx, r.metrics.stage.WithLabelValues(name), time.Since(start).Seconds())
		end(err)
	}
}

// span is a step of a reveal traced as a child span: ended with the error that decided the
// reveal's refusal there, it carries its code and a "refused" event (an error status only for a
// fault: a 5xx). What the step learned goes on the span of the context it returns.
func (r *Relayer) span(ctx context.Context, name string) (context.Context, func(err error)) {
	ctx, span := r.tracer.Start(ctx, name)
	return ctx, func(err error) {
		if err != nil {
			f := refusalOf(err)
			tracing.Refused(span, f.code, f.message, f.fault)
		}
		span.End()
	}
}

func (r *Relayer) reveal(ctx context.Context, in request) (relayerapi.RevealResult, error) {
	// Checks 1 and 2 read the chain, concurrently; the seed's order decides what is reported.
	var spent bool
	var root contracts.RootAgeOutput
	cctx, end := r.stage(ctx, "check.chain")
	g, gctx := errgroup.WithContext(cctx)
	g.Go(func() (err error) {
		nctx, end := r.span(gctx, "check.nullifier")
		spent, err = r.isSpent(nctx, in.nullifier)
		trace.SpanFromContext(nctx).SetAttributes(attribute.Bool("vaultd.spent", spent))
		end(orUnavailable(err))
		return err
	})
	g.Go(func() (err error) {
		rctx, end := r.span(gctx, "check.root")
		root, err = r.rootAge(rctx, common.BigToHash(in.signals[zk.SignalMerkleRoot]))
		trace.SpanFromContext(rctx).SetAttributes(attribute.Bool("vaultd.root_known", root.Known), attribute.Int("vaultd.root_age", int(root.Age)))
		end(orUnavailable(err))
		return err
	})
	err := orUnavailable(g.Wait())
	switch { // the seed's order decides what is reported
	case err != nil:
	case spent:
		err = reject(NullifierUsed, "the nullifier is already spent")
	case !root.Known:
		err = reject(UnknownRoot, "root %#x is not a known root of the commitment tree", in.signals[zk.SignalMerkleRoot])
	}
	end(err)
	if err != nil {
		return relayerapi.RevealResult{}, err
	}
	// Checks 3 to 5, each where it decides: what parse found wrong with the proof or the
	// recipient is reported after the chain checks.
	for _, check := range []struct {
		name string
		run  func() error
	}{
		{"check.proof", func() error { return in.proofErr }},
		{"check.recipient", func() error {
			if in.recipientErr != nil {
				return in.recipientErr
			}
			return r.checkRecipientAllowed(in)
		}},
		{"check.signals", func() error { return r.checkSignals(in) }},
	} {
		_, end := r.span(ctx, check.name)
		err := check.run()
		end(err)
		if err != nil {
			return relayerapi.RevealResult{}, err
		}
	}
	if r.vk != nil {
		_, end := r.stage(ctx, "check.verify")
		err := zk.Verify(r.vk, in.proof, in.signals[:])
		if err != nil {
			err = reject(InvalidProof, "%v", err)
		}
		end(err)
		if err != nil {
			return relayerapi.RevealResult{}, err
		}
	}
	a, b, c := in.proof.CallArgs()
	data := vaultABI.PackReveal(a, b, c, [6]*big.Int(in.signals), in.recipient)
	sctx, end := r.stage(ctx, "simulate")
	gas, err := r.simulate(sctx, data, in.signals[zk.SignalChangeCommitment].Sign() != 0)
	trace.SpanFromContext(sctx).SetAttributes(attribute.Int64("vaultd.gas_limit", int64(gas)))
	end(err)
	if err != nil {
		return relayerapi.RevealResult{}, err
	}
	hctx, end := r.span(ctx, "check.root_age") // the root guard: the relayer's own inserts ahead of it
	release, err := r.holdRoot(hctx, root.Age, in.signals[zk.SignalChangeCommitment].Sign() != 0)
	end(err)
	if err != nil {
		return relayerapi.RevealResult{}, err
	}
	var claim *claimToken
	if r.claims != nil { // another replica may be sending this nullifier's reveal already
		cctx, end := r.span(ctx, "claim")
		var err error
		claim, err = r.claims.claim(cctx, in.nullifier)
		if err != nil {
			err = claimsUnavailable(err)
			end(err)
			release()
			return relayerapi.RevealResult{}, err
		}
		trace.SpanFromContext(cctx).SetAttributes(attribute.Bool("vaultd.claimed", claim != nil))
		end(nil)
		if claim == nil {
			res, err := r.awaitOther(ctx, in.nullifier)
			release()
			if !errors.Is(err, errClaimReleased) {
				return res, err
			}
			// Given back: what the other replica sent may have ended on chain meanwhile
			// (reverted, cancelled), so this copy is checked again before it claims.
			return r.reveal(ctx, in)
		}
	}
	lctx, end := r.span(ctx, "limits") // per recipient, and in total
	err = r.allowSend(lctx, in.recipient)
	end(err)
	if err != nil {
		release()
		r.unclaim(ctx, in.nullifier, claim)
		return relayerapi.RevealResult{}, err
	}
	f, err := r.send(ctx, data, gas, in.nullifier, claim)
	if err != nil {
		r.uncountSend(ctx, in.recipient) // nothing was sent
		release()
		r.unclaim(ctx, in.nullifier, claim)
		return relayerapi.RevealResult{}, err
	}
	r.hooks.Tell("reveal.sent", revealEvent{Nullifier: in.nullifier.Hex(), TxHash: f.Hash().Hex()}) // recorded; delivered by the outbox's loop
	r.track(in.nullifier, f, func() {
		release()
		if unrevealed(f) { // the nullifier is free to be revealed again
			r.unclaim(context.Background(), in.nullifier, claim)
		}
	})
	return r.await(ctx, f)
}

// simulate is check 7: it runs the reveal once as an eth_call and returns the gas limit to send
// it with. eth_estimateGas executes a call several times, and a reveal's pairing check makes each
// execution costly, so the limit of reveals without change is learned: estimated for the first,
// then reused, and raised whenever a mined reveal comes close to it (gasBook). The eth_call runs
// with that limit as its gas, so a reveal that would not fit in it (a costlier token transfer, a
// new storage slot) fails there and is estimated instead, never sent to run out of gas. Reveals
// with change are always estimated, and given changeHeadroom more: their insertion's cost
// depends on what the tree holds when they are mined.
func (r *Relayer) simulate(ctx context.Context, data []byte, change bool) (uint64, error) {
	msg := ethereum.CallMsg{From: r.tx.From(), To: &r.cfg.Contracts.Vault, Data: data}
	if known := r.gas.limit(); known > 0 && !change {
		msg.Gas = known
		err := r.client.Simulate(ctx, msg)
		if err == nil {
			return known, nil
		}
		if !chain.IsNodeAnswer(err) {
			return 0, chainUnavailable(err)
		}
		// Refused within the learned limit: the estimate below tells a reveal that needs more
		// gas from one the vault refuses.
		msg.Gas = 0
	}
	est, err := r.client.EstimateGas(ctx, msg)
	if err == nil {
		limit := est*13/10 + 10_000
		if change {
			limit += changeHeadroom
		} else {
			r.gas.raise(limit)
		}
		return limit, nil
	}
	if rev, ok := chain.RevertOf(vaultError, err); ok {
		return 0, reject(RevealRejected, "the vault would refuse this reveal: %s", revertReason(rev))
	}
	if chain.IsNodeAnswer(err) {
		return 0, reject(RevealRejected, "the vault would refuse this reveal: %v", err)
	}
	return 0, chainUnavailable(err)
}

// changeHeadroom is the gas a reveal with change may need beyond its estimate when inserts land
// before it. The tree (a LeanIMT) hashes once per 1-bit of the new leaf's index, and the vault
// looks the proof's root up from the newest back: a reveal still valid when mined has at most
// ROOT_HISTORY_SIZE − 1 = 31 inserts ahead of it, which add at most 5 one-bits to its index
// (popcount(i+d) ≤ popcount(i) + popcount(d), d ≤ 31) and 31 cold reads to the lookup. A hash is
// 18,229 gas and a cold read 2,100 (cmd/gasbench): 5 × 20,000 + 31 × 2,100, rounded up. Without
// it, 9 of 32 partial reveals proved against one root ran out of gas
// (TestBurstOfPartialRevealsAgainstOneRootNeverReverts).
const changeHeadroom = 170_000

// gasBook is the learned gas limit of reveals without change.
type gasBook struct {
	mu  sync.Mutex
	max uint64
}

func (g *gasBook) limit() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.max
}

func (g *gasBook) raise(limit uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.max = max(g.max, limit)
}

// observe raises the limit when a mined reveal used more than 80 % of what it was given.
func (g *gasBook) observe(used, given uint64) {
	if used*10 > given*8 {
		g.raise(used * 13 / 10)
	}
}

// checkRecipientAllowed is the rest of check 4: the recipient is not a contract that would keep
// what the reveal sends it: the vault, the token revealed, or another of the vault's tokens the
// relayer knows (ContractsConfig.Tokens). A wallet app scanning a token payment request
// (EIP-681, ethereum:<token>@<chain>/transfer?address=<recipient>) may have taken the token's
// address for the recipient's. The message names what the recipient is, not its address.
func (r *Relayer) checkRecipientAllowed(in request) error {
	what := ""
	switch c := r.cfg.Contracts; {
	case in.recipient == c.Vault || in.recipient == c.NullifierRegistry || in.recipient == c.CommitmentTree:
		what = "the vault"
	case in.recipient == in.token:
		what = "the token being revealed"
	case slices.Contains(c.Tokens, in.recipient):
		what = "one of the vault's tokens"
	default:
		return nil
	}
	return reject(RecipientNotAllowed, "the recipient is %s: what it is sent would be lost; prove the reveal again to the recipient's own address", what)
}

// checkSignals is check 5: the request's amount, recipient and token are the ones the proof is for.
func (r *Relayer) checkSignals(in request) error {
	if in.amount.Cmp(in.signals[zk.SignalAmount]) != 0 {
		return reject(SignalMismatch, "amount %s is not the proof's amount %s", in.amount, in.signals[zk.SignalAmount])
	}
	if new(big.Int).SetBytes(in.recipient.Bytes()).Cmp(in.signals[zk.SignalRecipient]) != 0 {
		return reject(SignalMismatch, "recipient is not the proof's recipient")
	}
	id, err := tokenid.Compute(in.token, r.chainID)
	if err != nil {
		return err
	}
	if id.Cmp(in.signals[zk.SignalTokenID]) != 0 {
		return reject(SignalMismatch, "tokenAddress is not the proof's token (tokenId mismatch on chain %d)", r.chainID)
	}
	return nil
}

// send submits the reveal from the operator wallet. It fails with 503 when the gate closed or
// an operator paused the replica since the request arrived, and 502 when the node did not take
// the transaction.
func (r *Relayer) send(ctx context.Context, data []byte, gas uint64, nullifier common.Hash, claim *claimToken) (*txmgr.Flight, error) {
	sctx, end := r.stage(ctx, "send")
	// Paused since the request was admitted (it waited on another replica's claim of the
	// nullifier, say): a pause stops new signing everywhere; 503 PAUSED, nothing sent.
	if err := r.pause.Check(); err != nil {
		end(err)
		return nil, err
	}
	// Every version is recorded before it is sent: durably (recover), and on the claim for the
	// other replicas.
	tx := txmgr.Tx{To: r.cfg.Contracts.Vault, Data: data, Gas: gas, Record: r.recorder(nullifier, claim)}
	f, err := r.tx.Send(sctx, tx)
	if err == nil {
		trace.SpanFromContext(sctx).SetAttributes(attribute.Int64("vaultd.nonce", int64(f.Nonce())), attribute.String("vaultd.tx_hash", f.Hash().Hex()),
			attribute.Int64("vaultd.gas_limit", int64(gas)))
	}
	var refused *gate.ClosedError // the gate, closed since the request arrived
	switch {
	case errors.Is(err, errClaimLost): // nothing was sent; another replica may be sending it
		err = claimsUnavailable(err)
	case errors.Is(err, txmgr.ErrFenced):
		err = &RevealError{Reason: OperatorKeyUnavailable, Retry: time.Second, Cause: err,
			Message: "this relayer replica cannot renew the lease of its operator key right now; nothing was sent, try again"}
	case err != nil && !errors.As(err, &refused):
		err = chainUnavailable(err)
	}
	end(err)
	return f, err
}

// unclaim gives the nullifier back to the other replicas when nothing was sent, or the send was
// refused, or its transaction ended unrevealed (a send whose answer was lost is followed as sent:
// it never gets here before it settles).
func (r *Relayer) unclaim(ctx context.Context, nullifier common.Hash, claim *claimToken) {
	if claim != nil {
		r.claims.release(ctx, nullifier, claim)
	}
}

// unrevealed reports whether a settled flight is known to have revealed nothing: an operator's
// cancel was mined at its nonce, or the reveal was mined and reverted. One given up may still
// be mined: not unrevealed.
func unrevealed(f *txmgr.Flight) bool {
	rc := f.Receipt()
	return errors.Is(f.Err(), txmgr.ErrCancelled) || rc != nil && rc.Status != types.ReceiptStatusSuccessful
}

// unclaimFollowed gives nullifier back to the other replicas when f, a reveal's flight whose
// claim's token this process does not have (adopted from the pool, or followed again from the
// record), ended unrevealed: the claim is released if the version recorded on it is one of the
// versions recorded for f's nonce.
func (r *Relayer) unclaimFollowed(nullifier common.Hash, f *txmgr.Flight) {
	if r.claims == nil || !unrevealed(f) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Chain.RPCTimeout)
	defer cancel()
	hashes, err := r.sentTxs.versions(ctx, r.tx.From(), f.Nonce(), nullifier)
	if err == nil {
		err = r.claims.releaseSent(ctx, nullifier, append(hashes, f.Hash()))
	}
	if err != nil {
		r.log.Warn("could not give an unrevealed reveal's nullifier back to the other replicas; its claim lapses in an hour", "nonce", f.Nonce(), "err", err)
	}
}

// await waits for the sent reveal's receipt, until RECEIPT_TIMEOUT, and for its outcome to be
// written down (track), before answering.
func (r *Relayer) await(ctx context.Context, f *txmgr.Flight) (relayerapi.RevealResult, error) {
	wctx, end := r.stage(ctx, "receipt")
	timer := time.NewTimer(r.cfg.Tx.ReceiptTimeout)
	defer timer.Stop()
	select {
	case <-f.Done():
	case <-timer.C:
		hash := f.Hash().Hex()
		err := &RevealError{Reason: TxPending, Message: "the reveal was sent but not mined in time; it may still be mined", TxHash: hash}
		end(err)
		return relayerapi.RevealResult{TxHash: hash}, err
	}
	if rc := f.Receipt(); rc != nil {
		trace.SpanFromContext(wctx).SetAttributes(attribute.Int64("vaultd.block", rc.BlockNumber.Int64()), attribute.Int64("vaultd.gas_used", int64(rc.GasUsed)),
			attribute.String("vaultd.tx_hash", rc.TxHash.Hex()), attribute.Bool("vaultd.reverted", rc.Status != types.ReceiptStatusSuccessful))
	}
	end(f.Err())
	r.mu.Lock()
	written := r.settled[f]
	r.mu.Unlock()
	if written != nil { // its outcome written first: a status asked right after the answer agrees with it
		select {
		case <-written:
		case <-r.closing:
		}
	}
	if errors.Is(f.Err(), txmgr.ErrCancelled) {
		return relayerapi.RevealResult{}, &RevealError{Reason: TxCancelled, Retry: time.Second, TxHash: f.Hash().Hex(),
			Message: "the relayer's operator cancelled this reveal's transaction; nothing was revealed: send it again"}
	}
	if f.Err() != nil {
		return relayerapi.RevealResult{}, &RevealError{Reason: TxPending, Message: "the reveal was not mined", TxHash: f.Hash().Hex(), Cause: f.Err()}
	}
	rc := f.Receipt()
	res := relayerapi.RevealResult{Success: rc.Status == types.ReceiptStatusSuccessful, TxHash: rc.TxHash.Hex(), BlockNumber: rc.BlockNumber.Int64(), GasUsed: fmt.Sprint(rc.GasUsed)}
	r.metrics.gasUsed.Observe(float64(rc.GasUsed))
	r.gas.observe(rc.GasUsed, f.GasLimit())
	if !res.Success {
		return res, &RevealError{Reason: TxReverted, Message: "the reveal transaction reverted on chain; it is not retried", TxHash: res.TxHash}
	}
	return res, nil
}

// revertReason is why a mined reveal reverted, for its status: "out of gas" when it used all it
// was given, else the vault's error, decoded from the transaction run again on the state its
// block left (a revert comes from what the transactions before it did, the same card revealed
// first most often; "" if it goes through there). "" for a reveal that did not revert.
func (r *Relayer) revertReason(ctx context.Context, tx *types.Transaction, rc *types.Receipt) string {
	if rc.Status == types.ReceiptStatusSuccessful {
		return ""
	}
	if rc.GasUsed >= tx.Gas() {
		return "out of gas"
	}
	err := r.client.SimulateAt(ctx, ethereum.CallMsg{From: r.tx.From(), To: tx.To(), Gas: tx.Gas(), Data: tx.Data()}, rc.BlockNumber)
	if rev, ok := chain.RevertOf(vaultError, err); ok {
		return rev.String()
	}
	return ""
}

func (r *Relayer) isSpent(ctx context.Context, nullifier common.Hash) (bool, error) {
	out, err := r.client.Call(ctx, "is_spent", r.cfg.Contracts.NullifierRegistry, nullABI.PackIsSpent(nullifier))
	if err != nil {
		return false, err
	}
	return nullABI.UnpackIsSpent(out)
}

// rootAge is check 2: whether root is among the tree's recent roots, and how many inserts ago it
// was the current one.
func (r *Relayer) rootAge(ctx context.Context, root common.Hash) (contracts.RootAgeOutput, error) {
	out, err := r.client.Call(ctx, "root_age", r.cfg.Contracts.CommitmentTree, treeABI.PackRootAge(root))
	if err != nil {
		return contracts.RootAgeOutput{}, err
	}
	return treeABI.UnpackRootAge(out)
}

// insertCounter counts the reveals with change in flight: each inserts a leaf, and so a new
// root, ahead of the reveals sent after it (see holdRoot). localInserts counts this process's;
// with REDIS_URL, fleetInserts (replicas.go) counts every replica's.
type insertCounter interface {
	// hold admits a reveal whose root is age inserts old if age plus the inserts in flight stay
	// under history, counting the reveal's own insert when change; inFlight is that count.
	hold(ctx context.Context, age, history uint32, change bool) (ok bool, inFlight uint32, err error)
	// add changes the count by delta.
	add(ctx context.Context, delta int) error
}

// localInserts is the insertCounter of a relayer that runs alone.
type localInserts struct {
	mu sync.Mutex
	n  int
}

func (l *localInserts) hold(_ context.Context, age, history uint32, change bool) (bool, uint32, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	inFlight := uint32(l.n)
	if uint64(age)+uint64(inFlight) >= uint64(history) {
		return false, inFlight, nil
	}
	if change {
		l.n++
	}
	return true, inFlight, nil
}

func (l *localInserts) add(_ context.Context, delta int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n += delta
	return nil
}

// holdRoot refuses a reveal whose root the inserts ahead of it would push out of the tree's root
// history before it is mined: its root is age inserts old, and each reveal with change in flight
// inserts one more. A reveal with change holds its place among those inserts until release (when
// its transaction settles, or is not sent).
func (r *Relayer) holdRoot(ctx context.Context, age uint32, change bool) (release func(), err error) {
	ok, inFlight, err := r.inserts.hold(ctx, age, r.rootHistory, change)
	if err != nil {
		return nil, claimsUnavailable(err)
	}
	if !ok {
		return nil, &RevealError{Reason: RootExpiring, Message: fmt.Sprintf(
			"the proof's root is %d inserts old and the relayer has %d inserts in flight ahead of it; the tree keeps %d roots, so the root would be unknown by the time the reveal is mined: prove again against the current root",
			age, inFlight, r.rootHistory)}
	}
	if !change {
		return func() {}, nil
	}
	return r.releaseInsert(), nil
}

// addInsert counts one more insert in flight that no holdRoot counted (a reveal adopted from the
// pool), and returns its release.
func (r *Relayer) addInsert() func() {
	r.addInserts(1, "could not count an adopted reveal's insert with the other replicas")
	return r.releaseInsert()
}

// releaseInsert is the release of one counted insert.
func (r *Relayer) releaseInsert() func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			r.addInserts(-1, "could not release a reveal's insert with the other replicas; it lapses with this replica's count")
		})
	}
}

// addInserts changes the count of inserts in flight. Only a shared count can
// fail, and then the shared count is off until this replica's count lapses: a warning.
func (r *Relayer) addInserts(delta int, warning string) {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Chain.RPCTimeout)
	defer cancel()
	if err := r.inserts.add(ctx, delta); err != nil {
		r.log.Warn(warning, "err", err)
	}
}
