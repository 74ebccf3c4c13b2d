// Package txmgr sends one wallet's transactions and follows them until they are mined. Nonces
// come from a local counter, seeded from the node's pending nonce, that moves only when the node
// has accepted a transaction, so a failed send never leaves a gap. Each wallet's transactions
// reach the node in nonce order (a node's pool drops what it cannot execute yet beyond a small
// number per account). The node's answers to a send are classified in one place (classify.go).
// A transaction the node no longer has is sent again, the same bytes, within a block; one not
// mined within ReplaceAfter is re-sent with the same nonce and higher fees. One watch loop
// follows every transaction in flight by block receipts, and makes no chain call at all while
// nothing is in flight.
//
// The manager takes its balance gate and its metrics as small interfaces (Gate, Metrics) and
// runs its background work from Start until Close. The relayer and the faucet both use it.
package txmgr

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// Config governs submission and replacement.
type Config struct {
	ReplaceAfter time.Duration // re-send with higher fees after this
	MaxFeePerGas *big.Int      // wei; nil or 0: no cap
	ReceiptPoll  time.Duration // how often the head is read while something is in flight
	// DisplacedAfter is how many blocks deep another transaction at one of ours' nonce must be
	// before ours is taken for displaced, never to be mined (Displaced).
	DisplacedAfter uint64
}

// LoadConfig reads REPLACE_AFTER (default 30s), MAX_FEE_PER_GAS (gwei, default 500),
// RECEIPT_POLL_INTERVAL (default 100ms) and DISPLACED_AFTER_BLOCKS (default 3).
func LoadConfig(e *config.Env) Config {
	return Config{
		ReplaceAfter:   e.Duration("REPLACE_AFTER", 30*time.Second),
		MaxFeePerGas:   chain.EnvGwei(e, "MAX_FEE_PER_GAS", "500"),
		ReceiptPoll:    e.Duration("RECEIPT_POLL_INTERVAL", 100*time.Millisecond),
		DisplacedAfter: uint64(e.Int("DISPLACED_AFTER_BLOCKS", 3, 1, 10_000)),
	}
}

// Displaced reports whether the nonce of one of this wallet's transactions (ours: the hashes of
// every version signed for it) went to another transaction, so that none of ours can ever be
// mined. It is proven, never inferred from receipts that are not found (a provider whose
// receipt index lags answers "not found" for a mined transaction): the wallet's transaction
// mined at that nonce is found in its block, is none of ours, and is DisplacedAfter blocks deep.
// false with no error: not proven yet (ours was mined, or the other is not deep enough, or the
// node has not seen the nonce used); ask again later.
func (m *Manager) Displaced(ctx context.Context, nonce uint64, ours []common.Hash) (displaced bool, by common.Hash, err error) {
	found, err := m.client.FindNonce(ctx, m.from, nonce)
	if errors.Is(err, ethereum.NotFound) {
		return false, common.Hash{}, nil
	}
	if err != nil {
		return false, common.Hash{}, err
	}
	if slices.Contains(ours, found.Tx) {
		return false, found.Tx, nil // ours was mined: its receipt will come
	}
	if found.Head+1 < found.Block+max(m.cfg.DisplacedAfter, 1) {
		return false, found.Tx, nil // not deep enough yet: a reorg could still undo it
	}
	return true, found.Tx, nil
}

// Gate is the wallet's balance gate: Admit refuses a new transaction while the wallet is too
// low (or has spent its budget), or sets aside its worst-case cost, in one step; Reserve sets
// aside the cost of one it did not admit (adopted, re-sent, a replacement's extra); Settled
// returns it and says what the transaction paid (nil: given up), once Refresh has re-read the
// balance after it was mined.
type Gate interface {
	Admit(ctx context.Context, cost *big.Int) error
	Reserve(ctx context.Context, cost *big.Int)
	Settled(ctx context.Context, reserved, paid *big.Int)
	Refresh(ctx context.Context)
}

// Fence is the right to use the wallet, when several processes share its key in turn (a lease,
// service/kit/lease): Hold answers until when this process may send, or an error once it may not.
// Every send (first, re-sign, replacement, re-send) asks it first, and a send waiting for its
// turn (Send) asks it again when it is handed to the node, which ends by that deadline.
type Fence interface {
	Hold() (deadline time.Time, err error)
}

// ErrFenced is a send refused because this process does not hold the wallet now.
var ErrFenced = errors.New("this process does not hold the wallet's lease now")

// Metrics is what the manager reports (NewMetrics registers the usual ones).
type Metrics interface {
	NextNonce(n uint64)
	InFlight(n int)
	Replaced()
	// Rebroadcast: a transaction sent again as it was (the same bytes), because the node no
	// longer had it or never had it, and took it this time.
	Rebroadcast()
	// OldestPending: blocks since the oldest flight was first sent (0: none in flight).
	OldestPending(blocks uint64)
}

// Backend is what the manager asks of the chain; *chain.Client is one.
type Backend interface {
	BlockNumber(ctx context.Context) (uint64, error)
	Fees(ctx context.Context) (tip, baseFee *big.Int, head uint64, err error)
	PendingNonceAt(ctx context.Context, addr common.Address) (uint64, error)
	PoolTransactions(ctx context.Context, addr common.Address) ([]*types.Transaction, error)
	FindNonce(ctx context.Context, from common.Address, nonce uint64) (chain.MinedNonce, error)
	SendTransaction(ctx context.Context, tx *types.Transaction) error
	TransactionKnown(ctx context.Context, hash common.Hash) (bool, error)
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
	TransactionReceipts(ctx context.Context, hashes []common.Hash) ([]*types.Receipt, error)
	BlockReceipts(ctx context.Context, n uint64) ([]*types.Receipt, error)
}

var _ Backend = (*chain.Client)(nil)

// Manager sends the transactions of one wallet.
//
// No lock is held across a network call. A send takes the next nonce, signs and registers its
// flight under mu, then records it with mu released, side by side with other sends; it is handed
// to the node once every send at a lower nonce has been answered (awaitTurn), so that the node
// receives the wallet's transactions in nonce order, one after another without waiting for any
// to be mined. A nonce whose send was refused goes back (free) and is the next send's, or, when
// no send comes and later nonces wait behind it, is filled by a zero-value transaction to the
// wallet itself (fillGaps), so that nonces stay gap-free.
type Manager struct {
	client  Backend
	now     func() time.Time // the clock of replacement, rebroadcast and giving up (tests move it)
	signer  Signer
	from    common.Address
	chainID *big.Int
	cfg     Config
	gate    Gate
	fence   Fence // nil: this process alone uses the key
	metrics Metrics
	log     *slog.Logger
	tracer  trace.Tracer // the watch loop's spans (SetTracer)

	wake       chan struct{} // a flight was published: the watch loop wakes from idle
	stop       context.CancelFunc
	background sync.WaitGroup

	// oneByOne is set (by watch) when the node has no eth_getBlockReceipts: flights are then
	// looked up one by one every poll instead of once a second.
	oneByOne bool
	// dropping is set by watch while the node is found without transactions of ours it was sent
	// (resendDropped): it warns once per such incident.
	dropping bool
	// emptyNonce is the node's pending nonce + 1 when the last block's check found nothing of
	// ours there while flights waited above it (resendDropped; 0: it did not): under mu.
	emptyNonce uint64

	syncing sync.Mutex // one nonce read from the node at a time (never held with mu)

	mu        sync.Mutex // guards what follows and every flight's txs and sending; never held across a network call
	next      uint64
	synced    bool
	free      map[uint64]time.Time    // nonces below next whose send was refused, and since when
	inflight  map[uint64]*Flight      // by nonce, those being sent included
	byHash    map[common.Hash]*Flight // every version of every flight
	toRelease []settledCost           // flights settled this round, told to the gate after the balance refresh
}

// Signer signs the wallet's transactions: the one thing the manager asks of the key. KeySigner
// holds the key in this process; a remote signer (service/kit/kmssigner: AWS KMS) is another
// implementation, with nothing else here changed. The manager signs under its lock (a nonce is
// taken and its transaction signed in one step, so that a failed signing gives the nonce back
// and a signed one is followed before it reaches a node), so a remote implementation bounds
// each call by its own timeout as well as ctx: the manager's other work waits meanwhile. An
// error means no signature is used: the send is refused and its nonce stays free.
type Signer interface {
	Address() common.Address
	SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error)
}

// KeySigner signs with key, in this process.
func KeySigner(key *ecdsa.PrivateKey) Signer {
	return keySigner{key: key, from: crypto.PubkeyToAddress(key.PublicKey)}
}

type keySigner struct {
	key  *ecdsa.PrivateKey
	from common.Address
}

func (k keySigner) Address() common.Address { return k.from }

func (k keySigner) SignTx(_ context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	return types.SignTx(tx, types.LatestSignerForChainID(chainID), k.key)
}

// sign signs a transaction of the wallet's on the manager's chain.
func (m *Manager) sign(ctx context.Context, tx *types.DynamicFeeTx) (*types.Transaction, error) {
	tx.ChainID = m.chainID
	return m.signer.SignTx(ctx, types.NewTx(tx), m.chainID)
}

// New makes the manager of signer's wallet on chain chainID. It makes no chain call; Sync reads
// the nonce, Start runs the watch loop.
func New(client Backend, signer Signer, chainID uint64, cfg Config, gate Gate, metrics Metrics, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.Default()
	}
	id := new(big.Int).SetUint64(chainID)
	return &Manager{client: client, now: time.Now, signer: signer, from: signer.Address(),
		chainID: id, cfg: cfg, gate: gate, metrics: metrics, log: log, tracer: noop.NewTracerProvider().Tracer(""), wake: make(chan struct{}, 1),
		free: map[uint64]time.Time{}, inflight: map[uint64]*Flight{}, byHash: map[common.Hash]*Flight{}}
}

// SetTracer gives the watch loop's work its spans (before Start): receipts read, lookups,
// replacements, rebroadcasts, gaps filled, flights given up, each the root of its own trace
// linked to the spans that sent the flights concerned (Flight.Origin). Default: none.
func (m *Manager) SetTracer(t trace.Tracer) { m.tracer = t }

// SetFence makes every send ask f first (before Start; nil: no fence).
func (m *Manager) SetFence(f Fence) { m.fence = f }

// holds refuses with ErrFenced while this process does not hold the wallet.
func (m *Manager) holds() error {
	if m.fence == nil {
		return nil
	}
	if _, err := m.fence.Hold(); err != nil {
		return fmt.Errorf("%w: %w", ErrFenced, err)
	}
	return nil
}

// fenced bounds ctx by the fence's deadline, or refuses with ErrFenced.
func (m *Manager) fenced(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if m.fence == nil {
		return ctx, func() {}, nil
	}
	deadline, err := m.fence.Hold()
	if err != nil {
		return ctx, func() {}, fmt.Errorf("%w: %w", ErrFenced, err)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	return ctx, cancel, nil
}

// From is the wallet's address.
func (m *Manager) From() common.Address { return m.from }

// State is what a health report shows: the next nonce and the number of transactions in flight.
func (m *Manager) State() (next uint64, inFlight int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.next, len(m.inflight)
}

// Flights returns the flights in flight now (those Sync adopted from the pool included).
func (m *Manager) Flights() []*Flight {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Flight, 0, len(m.inflight))
	for _, f := range m.inflight {
		out = append(out, f)
	}
	return out
}

// ErrNoFlight is Bump's answer for a nonce with no transaction of this manager in flight.
var ErrNoFlight = errors.New("no transaction of this wallet is in flight at that nonce")

// ErrNotReplaceable is Bump's or Cancel's answer for a transaction in flight that no
// replacement can take the place of: its newest version is at MAX_FEE_PER_GAS (a node takes a
// replacement only with higher fees), or a cancel of it is mined already (waiting to be deep
// enough to settle it).
var ErrNotReplaceable = errors.New("the transaction cannot be replaced")

// Bump asks for the transaction in flight at nonce to be replaced with higher fees now, not
// after ReplaceAfter: an operator's "speed up". The watch loop's next round replaces it (as it
// replaces a lingering one: recorded, fees bumped within MAX_FEE_PER_GAS, followed with the
// versions before it); it returns the newest version now, the one being replaced. ErrNoFlight
// when nothing of this manager's is in flight at nonce; ErrNotReplaceable when its newest
// version is at MAX_FEE_PER_GAS or a cancel of it is mined.
func (m *Manager) Bump(nonce uint64) (replacing common.Hash, err error) {
	return m.replaceNow(nonce, false)
}

// replaceNow marks the flight at nonce for a replacement at the next round (a cancel when
// cancel), and wakes the watch loop.
func (m *Manager) replaceNow(nonce uint64, cancel bool) (replacing common.Hash, err error) {
	m.mu.Lock()
	f, ok := m.inflight[nonce]
	if ok {
		newest := f.txs[len(f.txs)-1]
		switch limit := m.cfg.MaxFeePerGas; {
		case f.cancelMined != nil:
			err = fmt.Errorf("%w: a cancel of it is mined (block %s), not yet %d blocks deep", ErrNotReplaceable, f.cancelMined.BlockNumber, max(m.cfg.DisplacedAfter, 1))
		case limit != nil && limit.Sign() > 0 && newest.GasFeeCap().Cmp(limit) >= 0:
			err = fmt.Errorf("%w: its newest version is at MAX_FEE_PER_GAS already", ErrNotReplaceable)
		case limit != nil && limit.Sign() > 0 && leastReplacement(newest.GasFeeCap()).Cmp(limit) > 0:
			err = fmt.Errorf("%w: its newest version is within %d %% of MAX_FEE_PER_GAS, and nodes take a replacement only at %d %% more", ErrNotReplaceable, priceBump, priceBump)
		default:
			f.bump = true
			f.cancelling = f.cancelling || cancel
			replacing = newest.Hash()
		}
	}
	m.mu.Unlock()
	if !ok {
		return common.Hash{}, ErrNoFlight
	}
	if err != nil {
		return common.Hash{}, err
	}
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return replacing, nil
}

// ErrCancelled ends a flight whose operator's cancel (Cancel) was mined in its place: nothing
// it carried happened; its nonce is used.
var ErrCancelled = errors.New("cancelled by the operator: a transfer of nothing to the wallet itself was mined at its nonce")

// Cancel asks for the transaction in flight at nonce to be replaced, at the watch loop's next
// round, by a transfer of nothing from the wallet to itself (fees bumped as any replacement's,
// within MAX_FEE_PER_GAS), and returns the newest version now, the one being replaced: an
// operator's "cancel". From then on every replacement of the flight is such a transfer, and none
// is given to its Record (it carries nothing to record: a record of it would read as the
// flight's own version). If one is mined and DisplacedAfter blocks deep, the flight ends
// ErrCancelled (and no receipt); until then it is followed on, so that a version of what it
// carried mined instead (a reorg dropped the cancel, and a node still held that version) ends it
// as usual, as does one mined first. The nonce is used either way, so the nonces after it are not
// left stuck. ErrNoFlight when nothing of this manager's is in flight at nonce;
// ErrNotReplaceable as for Bump (a cancel needs higher fees too).
func (m *Manager) Cancel(nonce uint64) (replacing common.Hash, err error) {
	return m.replaceNow(nonce, true)
}

// Start runs the watch loop until Close.
func (m *Manager) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	m.stop = cancel
	m.background.Add(1)
	go func() { defer m.background.Done(); m.watch(ctx) }()
}

// Close stops the watch loop. Flights still in flight stay unsettled.
func (m *Manager) Close() {
	if m.stop != nil {
		m.stop()
		m.background.Wait()
	}
}

// Sync reads the wallet's pending nonce and adopts its transactions waiting in the node's pool
// (sent before a restart, or from outside), executable or queued: they are followed, and
// replaced if they linger, like the manager's own, instead of holding every later nonce behind
// them or having their nonce taken by the next send. A nonce below a queued one that no node
// has is free: the next send takes it, or it is filled. It returns how many
// it adopted; a node without txpool_contentFrom answers an error after the nonce is read.
//
// It is a span (txmgr.adopt: the nonce read, the pool listed, how many adopted): the flights it
// adopts have it as their origin, so that the work on them links to it.
func (m *Manager) Sync(ctx context.Context) (adopted int, err error) {
	ctx, span := m.tracer.Start(ctx, "txmgr.adopt")
	defer func() {
		span.SetAttributes(attribute.Int("vaultd.adopted", adopted))
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}()
	head, err := m.client.BlockNumber(ctx) // before the listing: what it lists is mined later
	if err != nil {
		return 0, err
	}
	m.mu.Lock()
	m.synced = false // until the node has answered: another process may have used the wallet
	m.mu.Unlock()
	if err := m.ensureSynced(ctx); err != nil {
		return 0, err
	}
	txs, err := m.client.PoolTransactions(ctx, m.from)
	if err != nil {
		return 0, err
	}
	var flights []*Flight
	m.mu.Lock()
	for _, tx := range txs {
		if _, tracked := m.inflight[tx.Nonce()]; tracked {
			continue
		}
		// One at or above the counter is queued: not yet promoted by the node (sent a moment
		// before a restart), or behind a nonce no node has. Unless taken, a send would take its
		// nonce. One further ahead than a pool keeps is not this manager's doing: adopted, every
		// nonce below it would be filled, and paid for.
		if tx.Nonce() > m.next+adoptAhead {
			m.log.Warn("a transaction of the wallet's waits in the node's pool far above its next nonce: left alone",
				"wallet", m.from.Hex(), "nonce", tx.Nonce(), "next", m.next, "tx", tx.Hash())
			continue
		}
		m.take(tx.Nonce())
		f := m.newFlight(tx, head, nil, trace.SpanContextFromContext(ctx))
		m.publish(f)
		flights = append(flights, f)
	}
	m.mu.Unlock()
	for _, f := range flights {
		m.gate.Reserve(ctx, f.reserved)
	}
	return len(flights), nil
}

// adoptAhead is how far above the wallet's pending nonce Sync adopts a queued transaction: a
// node's pool keeps that many of an account's (geth's default account queue), and a manager's
// own transactions are never further ahead than those it was sending at once.
const adoptAhead = 64

// ensureSynced reads the wallet's pending nonce from the node unless the counter is in step
// with it: at the start, and after the node said a nonce was used or ahead of it. Concurrent
// callers wait for one read.
func (m *Manager) ensureSynced(ctx context.Context) error {
	if m.isSynced() {
		return nil
	}
	m.syncing.Lock()
	defer m.syncing.Unlock()
	if m.isSynced() { // another caller read it meanwhile
		return nil
	}
	pending, err := m.client.PendingNonceAt(ctx, m.from)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.resyncFrom(pending)
	return nil
}

func (m *Manager) isSynced() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.synced
}

// resyncFrom sets the counter from the node's pending nonce, never below a nonce in flight
// (being sent included); a free nonce the node counts as used is free no more. Callers hold mu.
func (m *Manager) resyncFrom(pending uint64) {
	m.next, m.synced = pending, true
	for n := range m.inflight {
		m.next = max(m.next, n+1)
	}
	for n := range m.free {
		if n < pending || !m.gapBelowFlight(n) {
			delete(m.free, n)
		}
	}
	m.metrics.NextNonce(m.next)
}

// Tx is a transaction to send.
type Tx struct {
	To    common.Address
	Value *big.Int // nil: none
	Data  []byte
	Gas   uint64
	// Record, when set, is called with every signed version of the transaction (the first, a
	// re-signing after a nonce clash, and every replacement) before that version is sent, one
	// version at a time. A caller that must survive a crash stores it there; an error stops
	// that version from being sent.
	Record func(context.Context, *types.Transaction) error
	// Unsent, when set, is called for a version Record was given that the node did not take
	// (refused, or never sent: the caller went away, the lease lapsed): no pool has it, so what
	// the caller stored of it must not be taken for a version sent (broadcast again after a
	// restart, answered as pending). standing is the version the flight still carries, nil when
	// there is none (a first send: the flight is gone).
	Unsent func(ctx context.Context, version, standing *types.Transaction)
}

// StandingLast orders the hashes a caller recorded of a transaction's versions (oldest first),
// for its Tx.Unsent: every one kept, since a receipt of any version is the transaction's, and the
// standing version's last, after the refused one: the newest, the one that may be mined.
func StandingLast(hashes []string, refused, standing common.Hash) []string {
	list := slices.DeleteFunc(slices.Clone(hashes), func(h string) bool { return h == standing.Hex() })
	if !slices.Contains(list, refused.Hex()) {
		list = append(list, refused.Hex())
	}
	return append(list, standing.Hex())
}

// ErrRejected is a send the node refused for a reason other than the nonce: nothing was sent.
var ErrRejected = errors.New("the node refused the transaction")

// Send signs tx with the next nonce and submits it, then follows it in the background: the
// flight's Done closes when it is mined (or given up). A send whose answer was lost (no answer,
// a gateway's 5xx or 429, a dropped connection) is followed all the same: the transaction may be
// in a pool or mined, so its nonce stays taken and its fate is read by its hash; if no node has
// it, the watch loop broadcasts the same bytes again (rebroadcast), never another nonce. It
// refuses while the gate is closed, checked again here and reserved in the same step (Admit),
// so requests that passed the gate together cannot all be sent once the first of them has
// closed it. Sends run side by side, but for taking the nonce and signing, one at a time, and
// handing the transaction to the node, in nonce order (awaitTurn).
func (m *Manager) Send(ctx context.Context, tx Tx) (*Flight, error) {
	tip, feeCap, head, err := m.fees(ctx, nil)
	if err != nil {
		return nil, err
	}
	value := tx.Value
	if value == nil {
		value = new(big.Int)
	}
	// Refused at once without the wallet; the fence's deadline bounds only the handing to the
	// node, taken after its turn came (a burst's wait for its turn can outlast a deadline taken
	// now, while the lease is renewed all along).
	if err := m.holds(); err != nil {
		return nil, err
	}
	// Admitted and reserved in one step: sends checked together cannot all pass the gate. What
	// is reserved is the most it can ever cost, its replacements' bumped fees included (at
	// MAX_FEE_PER_GAS), so that a spend limit holds however long it lingers.
	reserve := m.worstCost(feeCap, tx.Gas, value)
	if err := m.gate.Admit(ctx, reserve); err != nil {
		return nil, err
	}
	published := false
	defer func() {
		if !published { // nothing is in flight: the reservation comes back
			m.gate.Settled(ctx, reserve, nil)
		}
	}()
	for attempt := 0; ; attempt++ {
		if err := m.ensureSynced(ctx); err != nil {
			return nil, err
		}
		f, err := m.takeNonce(func(nonce uint64) (*types.Transaction, error) {
			return m.sign(ctx, &types.DynamicFeeTx{Nonce: nonce, GasTipCap: tip,
				GasFeeCap: feeCap, Gas: tx.Gas, To: &tx.To, Value: value, Data: tx.Data})
		}, head, tx.Record, tx.Unsent, trace.SpanContextFromContext(ctx))
		if errors.Is(err, errNotSynced) {
			continue // the counter was put out of step meanwhile: read it again
		}
		if err != nil {
			return nil, err
		}
		signed := f.txs[0]
		// notSent forgets the flight (its nonce free, or the counter read again) and tells the
		// caller that the version it recorded was not taken.
		notSent := func(free bool) {
			m.forgetUnsent(f, free)
			if tx.Record != nil && tx.Unsent != nil {
				tx.Unsent(ctx, signed, nil)
			}
		}
		if tx.Record != nil {
			if err := tx.Record(ctx, signed); err != nil {
				notSent(true) // what it may have stored in part goes too
				return nil, err
			}
		}
		if err := m.awaitTurn(ctx, f); err != nil {
			notSent(true) // nothing was sent: the nonce is free again, as after a failed Record
			return nil, err
		}
		class, sendErr, err := m.submitFenced(ctx, signed)
		if err != nil { // the lease lapsed while it waited for its turn: nothing was sent
			notSent(true)
			return nil, err
		}
		switch class {
		case sendAccepted, sendKnown, sendUncertain:
			if class == sendUncertain {
				m.log.Warn("the answer to a send was lost; following the transaction by its hash (it is sent again only with the same nonce)",
					"wallet", m.from.Hex(), "nonce", f.nonce, "tx", signed.Hash(), "err", sendErr)
			}
			m.launch(f, class == sendUncertain)
			published = true
			return f, nil
		case sendNonceUsed, sendNonceAhead:
			notSent(false) // not free: the node counts it used, or has not reached it; the resync decides
			if attempt > 0 {
				return nil, fmt.Errorf("%w: %w", ErrRejected, sendErr)
			}
			if class == sendNonceAhead {
				// The node's state went back (a reset or lagging node): the counter follows it, or
				// every send would be refused until a restart.
				m.log.Warn("the node says the nonce is ahead of it; reading the nonce from it again", "wallet", m.from.Hex(), "nonce", f.nonce, "err", sendErr)
			} else {
				m.log.Warn("nonce already used (a transaction from this wallet outside this service?); resyncing", "wallet", m.from.Hex(), "nonce", f.nonce, "err", sendErr)
			}
		default:
			notSent(true)
			return nil, fmt.Errorf("%w: %w", ErrRejected, sendErr)
		}
	}
}

// errNotSynced is a nonce taken while the counter is out of step with the node.
var errNotSynced = errors.New("the nonce counter is being read from the node again")

// takeNonce takes a nonce (the lowest free one, or the next), signs the transaction for it and
// registers its flight as being sent, all under mu: the watch loop knows its hashes before the
// node does, so a receipt in the very next block is not missed. The cost it reserves was
// admitted at the gate already.
func (m *Manager) takeNonce(sign func(nonce uint64) (*types.Transaction, error), head uint64, record func(context.Context, *types.Transaction) error,
	unsent func(ctx context.Context, version, standing *types.Transaction), origin trace.SpanContext) (*Flight, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.synced {
		return nil, errNotSynced
	}
	nonce, reuse := m.next, false
	for n := range m.free {
		if n < nonce {
			nonce, reuse = n, true
		}
	}
	signed, err := sign(nonce)
	if err != nil {
		return nil, err
	}
	if reuse {
		delete(m.free, nonce)
	} else {
		m.next = nonce + 1
		m.metrics.NextNonce(m.next)
	}
	f := m.newFlight(signed, head, record, origin)
	f.unsent = unsent
	f.sending = true
	m.publish(f)
	return f, nil
}

// launch marks a taken flight sent: from now on it is followed, replaced and given up like any.
func (m *Manager) launch(f *Flight, uncertain bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f.sending, f.uncertain = false, uncertain
	m.passTurn()
}

// awaitTurn waits until every flight of a lower nonce being sent has been answered (launched or
// forgotten), so that f reaches the node after them: go-ethereum's pool keeps at most 64
// transactions per account that cannot be executed yet (a nonce below them missing) and drops
// the rest without a word, and other nodes have such limits too. It does not wait for anything
// to be mined. An error (ctx done) means f was not sent and must be forgotten (forgetUnsent).
func (m *Manager) awaitTurn(ctx context.Context, f *Flight) error {
	m.mu.Lock()
	if !m.sendingBelow(f.nonce) {
		m.mu.Unlock()
		return nil
	}
	turn := make(chan struct{})
	f.turn = turn
	m.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-ctx.Done():
		m.mu.Lock()
		f.turn = nil
		m.mu.Unlock()
		return fmt.Errorf("the caller stopped waiting for the sends below nonce %d to reach the node: %w", f.nonce, ctx.Err())
	}
}

// sendingBelow reports whether a flight at a nonce below n is being sent. Callers hold mu.
func (m *Manager) sendingBelow(n uint64) bool {
	for below, f := range m.inflight {
		if below < n && f.sending {
			return true
		}
	}
	return false
}

// passTurn lets the lowest flight being sent go to the node, if it waits for its turn (a flight
// below it was answered or forgotten). Callers hold mu.
func (m *Manager) passTurn() {
	var lowest *Flight
	for _, f := range m.inflight {
		if f.sending && (lowest == nil || f.nonce < lowest.nonce) {
			lowest = f
		}
	}
	if lowest != nil && lowest.turn != nil {
		close(lowest.turn)
		lowest.turn = nil
	}
}

// forgetUnsent forgets a taken flight whose send did not happen; free gives its nonce back, to be
// the next send's (or filled, fillGaps). Callers do not hold mu.
func (m *Manager) forgetUnsent(f *Flight, free bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.passTurn() // even for a flight settled meanwhile: a send may wait behind it
	if m.inflight[f.nonce] != f {
		return
	}
	delete(m.inflight, f.nonce)
	for _, tx := range f.txs {
		delete(m.byHash, tx.Hash())
	}
	m.metrics.InFlight(len(m.inflight))
	if !free {
		m.synced = false
		return
	}
	m.free[f.nonce] = m.now()
	// The top nonces given back are simply not taken: the counter goes back over them.
	for m.next > 0 {
		if _, ok := m.free[m.next-1]; !ok {
			break
		}
		delete(m.free, m.next-1)
		m.next--
	}
	m.metrics.NextNonce(m.next)
}

// take marks nonce n used by a transaction signed before (resent, or adopted from the pool). Nonces
// it skips over, at or above the counter, are ones no node has (the counter is the node's pending
// nonce or above): a crash came between the taking of a nonce and its send while a later one went
// out, or that send never reached a node. They are free, for the next sends to take or to be
// filled, or n would wait behind them. Callers hold mu.
func (m *Manager) take(n uint64) {
	delete(m.free, n)
	for gap := m.next; gap < n; gap++ {
		m.free[gap] = m.now()
	}
	if n >= m.next {
		m.next = n + 1
		m.metrics.NextNonce(m.next)
	}
}

// gapBelowFlight reports whether a flight waits at a nonce above n. Callers hold mu.
func (m *Manager) gapBelowFlight(n uint64) bool {
	for above := range m.inflight {
		if above > n {
			return true
		}
	}
	return false
}

// ErrNonceUsed is a Resend whose nonce another transaction has taken, in the pool or mined.
var ErrNonceUsed = errors.New("the transaction's nonce is used by another transaction")

// Resend submits again a transaction of this wallet signed earlier (recorded before a crash,
// say) and follows it like one of its own; record is called for its replacements, and unsent
// (as Tx.Unsent) for those the node did not take. If the manager already follows its nonce
// (adopted from the pool by Sync), that flight is returned and the two are attached to it. It answers ErrNonceUsed when another transaction holds the
// nonce: the caller decides, once that nonce is mined, that this one never will be.
func (m *Manager) Resend(ctx context.Context, tx *types.Transaction, record func(context.Context, *types.Transaction) error,
	unsent func(ctx context.Context, version, standing *types.Transaction)) (*Flight, error) {
	head, err := m.client.BlockNumber(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.holds(); err != nil { // as Send: the fence's deadline bounds the submit alone
		return nil, err
	}
	f, taken, err := m.takeResend(tx, head, record, unsent, trace.SpanContextFromContext(ctx))
	if err != nil || !taken {
		return f, err
	}
	m.gate.Reserve(ctx, f.reserved)
	if err := m.awaitTurn(ctx, f); err != nil {
		// Not sent now, but it may be in a pool since before: the node's pending nonce decides
		// whether its nonce is free.
		m.forgetUnsent(f, false)
		m.gate.Settled(ctx, f.reserved, nil)
		return nil, err
	}
	class, sendErr, err := m.submitFenced(ctx, tx)
	if err != nil {
		m.forgetUnsent(f, false)
		m.gate.Settled(ctx, f.reserved, nil)
		return nil, err
	}
	switch class {
	case sendAccepted, sendKnown, sendUncertain:
		m.launch(f, class == sendUncertain)
		return f, nil
	case sendNonceUsed:
		m.forgetUnsent(f, false)
		m.gate.Settled(ctx, f.reserved, nil)
		return nil, fmt.Errorf("%w: %w", ErrNonceUsed, sendErr)
	default:
		m.forgetUnsent(f, true)
		m.gate.Settled(ctx, f.reserved, nil)
		return nil, fmt.Errorf("%w: %w", ErrRejected, sendErr)
	}
}

// takeResend registers the flight of a transaction signed earlier, as being sent (its cost
// reserved by the caller), or returns the flight that follows its nonce already (taken false).
func (m *Manager) takeResend(tx *types.Transaction, head uint64, record func(context.Context, *types.Transaction) error,
	unsent func(ctx context.Context, version, standing *types.Transaction), origin trace.SpanContext) (f *Flight, taken bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.inflight[tx.Nonce()]; ok {
		if _, same := m.byHash[tx.Hash()]; !same || f.sending {
			return nil, false, ErrNonceUsed
		}
		f.record, f.unsent = record, unsent
		return f, false, nil
	}
	m.take(tx.Nonce())
	f = m.newFlight(tx, head, record, origin)
	f.unsent = unsent
	f.sending = true
	m.publish(f)
	return f, true, nil
}

// worstCost is the most a transaction with this gas limit and value, signed at feeCap, can cost
// the wallet: its gas at MAX_FEE_PER_GAS (which no replacement exceeds), or at feeCap when
// there is no cap or feeCap is above it.
// WorstCost is the most a transaction of this gas limit, sending no value, sent now could ever
// cost, its fee-bumped replacements included: what Send reserves of the spend gate for it.
// Whoever pays the operator back for a transaction (a sponsor) reserves the same.
func (m *Manager) WorstCost(ctx context.Context, gas uint64) (*big.Int, error) {
	_, feeCap, _, err := m.fees(ctx, nil)
	if err != nil {
		return nil, err
	}
	return m.worstCost(feeCap, gas, new(big.Int)), nil
}

func (m *Manager) worstCost(feeCap *big.Int, gas uint64, value *big.Int) *big.Int {
	price := feeCap
	if c := m.cfg.MaxFeePerGas; c != nil && c.Sign() > 0 && c.Cmp(price) > 0 {
		price = c
	}
	wei := new(big.Int).Mul(price, new(big.Int).SetUint64(gas))
	return wei.Add(wei, value)
}

// mined reports whether tx itself has a receipt: a "nonce too low" that is this very
// transaction, sent earlier (its answer lost) and mined since.
func (m *Manager) mined(ctx context.Context, tx *types.Transaction) bool {
	r, err := m.client.TransactionReceipt(ctx, tx.Hash())
	return err == nil && r != nil
}

// submitFenced is a taken flight's submit, its turn come: bounded by the fence's deadline
// taken now, or refused (err, nothing sent) once this process no longer holds the wallet. A
// "nonce too low" for this very transaction (the same bytes, sent earlier: a resend of what was
// recorded), mined since, is "known".
func (m *Manager) submitFenced(ctx context.Context, tx *types.Transaction) (class sendClass, sendErr, err error) {
	ctx, cancel, err := m.fenced(ctx)
	defer cancel()
	if err != nil {
		return 0, nil, err
	}
	class, sendErr = m.submit(ctx, tx)
	if class == sendNonceUsed && m.mined(ctx, tx) {
		class = sendKnown
	}
	return class, sendErr, nil
}

// submit sends a signed transaction and classifies the answer; a lost answer is looked up by
// hash before it is called uncertain.
func (m *Manager) submit(ctx context.Context, tx *types.Transaction) (sendClass, error) {
	err := m.client.SendTransaction(ctx, tx)
	class := classifySend(err)
	if class == sendUncertain {
		if known, lookupErr := m.client.TransactionKnown(ctx, tx.Hash()); lookupErr == nil && known {
			class = sendKnown
		}
	}
	return class, err
}

// fees returns the tip and fee cap to use, and the head block they were read at: the node's
// suggestion (tip + 2 × base fee), or for a replacement at least 12.5 % above prev (geth wants
// 10 %), capped by MaxFeePerGas.
func (m *Manager) fees(ctx context.Context, prev *types.Transaction) (tip, feeCap *big.Int, head uint64, err error) {
	tip, base, head, err := m.client.Fees(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	feeCap = chain.FeeCap(base, tip)
	if prev != nil {
		tip = bigMax(tip, bump(prev.GasTipCap()))
		feeCap = bigMax(feeCap, bump(prev.GasFeeCap()))
	}
	if m.cfg.MaxFeePerGas != nil && m.cfg.MaxFeePerGas.Sign() > 0 && feeCap.Cmp(m.cfg.MaxFeePerGas) > 0 {
		feeCap = new(big.Int).Set(m.cfg.MaxFeePerGas)
	}
	if tip.Cmp(feeCap) > 0 {
		tip = new(big.Int).Set(feeCap)
	}
	if prev != nil && (feeCap.Cmp(leastReplacement(prev.GasFeeCap())) < 0 || tip.Cmp(leastReplacement(prev.GasTipCap())) < 0) {
		// MAX_FEE_PER_GAS leaves no room for a replacement a node would take: prev's own fees,
		// which replace takes for "at the limit" (it broadcasts prev again).
		return new(big.Int).Set(prev.GasTipCap()), new(big.Int).Set(prev.GasFeeCap()), head, nil
	}
	return tip, feeCap, head, nil
}

// priceBump is how much more, in percent, go-ethereum's pool (and most nodes) asks of a
// replacement's tip and fee cap; a smaller rise is refused as underpriced.
const priceBump = 10

// leastReplacement is the least fee a replacement of a version paying v may pay.
func leastReplacement(v *big.Int) *big.Int {
	n := new(big.Int).Mul(v, big.NewInt(100+priceBump))
	return n.Add(n, big.NewInt(99)).Div(n, big.NewInt(100)) // rounded up
}

// bump raises v by 12.5 %, and always by at least 1 wei: geth wants both the tip and the fee cap
// strictly higher, and ≥ 10 % higher, and on a quiet chain the tip can be 1 wei.
func bump(v *big.Int) *big.Int {
	b := new(big.Int).Div(new(big.Int).Mul(v, big.NewInt(1125)), big.NewInt(1000))
	return bigMax(b, new(big.Int).Add(v, big.NewInt(1)))
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}
