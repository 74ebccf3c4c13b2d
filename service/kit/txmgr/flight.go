package txmgr

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// Flight is one nonce's transaction and its replacements, followed until one of them is mined.
type Flight struct {
	m        *Manager
	nonce    uint64
	gasLimit uint64
	after    uint64 // the head when it was sent: it is mined in a later block
	record   func(context.Context, *types.Transaction) error
	unsent   func(ctx context.Context, version, standing *types.Transaction)
	origin   trace.SpanContext // the span of the operation that sent it (a request's): the watch loop's spans link to it

	// Guarded by m.mu once published.
	txs      []*types.Transaction // every version sent, oldest first
	reserved *big.Int             // cost reserved at the gate
	sending  bool                 // taken, its first send not answered yet: not replaced, re-sent or given up
	turn     chan struct{}        // while it waits to be sent after the flights below it (awaitTurn): closed when it may go
	bump     bool                 // an operator asked for a replacement now (Bump): the next round replaces it
	// cancelling: an operator asked for a cancel (Cancel): every replacement from then on is a
	// transfer of nothing to the wallet itself, a version in cancels; one mined ends the flight
	// ErrCancelled.
	cancelling bool
	cancels    map[common.Hash]bool
	// cancelMined is the receipt of a cancel mined less than DisplacedAfter blocks deep: the
	// flight is not settled on it yet but followed on, and not replaced (mined).
	cancelMined *types.Receipt

	// Owned by the watch loop.
	sentAt, lastSent, lastLookup time.Time
	// uncertain: the answer to its send was lost and no node has said it has it since. It is
	// looked up by hash, and broadcast again (the same bytes) while no node knows it.
	uncertain bool

	done    chan struct{}
	receipt *types.Receipt
	err     error
}

// Done is closed when the flight is settled: mined (Receipt), or given up (Err).
func (f *Flight) Done() <-chan struct{} { return f.done }

// Receipt is the mined version's receipt, once Done is closed; nil if the flight was given up.
func (f *Flight) Receipt() *types.Receipt { return f.receipt }

// Err says why the flight was given up, once Done is closed.
func (f *Flight) Err() error { return f.err }

// Nonce is the flight's nonce.
func (f *Flight) Nonce() uint64 { return f.nonce }

// GasLimit is the gas limit every version carries.
func (f *Flight) GasLimit() uint64 { return f.gasLimit }

// Hash is the newest version's hash: the one most likely to be mined.
func (f *Flight) Hash() common.Hash { return f.newest().Hash() }

// Origin is the span of the operation that sent the flight (invalid for one adopted from the
// pool, or sent outside a traced operation): spans about the flight made later link to it.
func (f *Flight) Origin() trace.SpanContext { return f.origin }

// Transaction is the newest version (every version has the same recipient, value and data).
func (f *Flight) Transaction() *types.Transaction { return f.newest() }

func (f *Flight) newest() *types.Transaction {
	f.m.mu.Lock()
	defer f.m.mu.Unlock()
	return f.txs[len(f.txs)-1]
}

// newFlight makes the flight of tx, sent after block head by the operation of origin.
func (m *Manager) newFlight(tx *types.Transaction, head uint64, record func(context.Context, *types.Transaction) error, origin trace.SpanContext) *Flight {
	now := m.now()
	return &Flight{m: m, nonce: tx.Nonce(), gasLimit: tx.Gas(), after: head, record: record, origin: origin, txs: []*types.Transaction{tx},
		reserved: m.worstCost(tx.GasFeeCap(), tx.Gas(), tx.Value()), sentAt: now, lastSent: now, lastLookup: now, done: make(chan struct{})}
}

// cost is the most tx can cost the wallet: its value and its gas at the fee cap.
func cost(tx *types.Transaction) *big.Int {
	c := new(big.Int).Mul(tx.GasFeeCap(), new(big.Int).SetUint64(tx.Gas()))
	return c.Add(c, tx.Value())
}

// paid is what a mined transaction cost the wallet: the gas it used at the price it paid, and
// its value if it succeeded. A receipt without the price counts the gas at tx's fee cap, never
// less than was paid.
func paid(tx *types.Transaction, r *types.Receipt) *big.Int {
	price := r.EffectiveGasPrice
	if price == nil {
		price = tx.GasFeeCap()
	}
	wei := new(big.Int).Mul(price, new(big.Int).SetUint64(r.GasUsed))
	if r.Status == types.ReceiptStatusSuccessful {
		wei.Add(wei, tx.Value())
	}
	return wei
}

// publish starts following f and wakes the watch loop. Its cost is reserved at the gate by the
// caller (Admit before, or Reserve after, with m.mu released). Callers hold m.mu.
func (m *Manager) publish(f *Flight) {
	m.inflight[f.nonce] = f
	for _, tx := range f.txs {
		m.byHash[tx.Hash()] = f
	}
	m.metrics.InFlight(len(m.inflight))
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// span starts a span of the manager's own work (the watch loop's): the root of a trace of its
// own, linked to the spans of the operations that sent flights (their origins).
func (m *Manager) span(ctx context.Context, name string, flights []*Flight, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	var links []trace.Link
	for _, f := range flights {
		if f.origin.IsValid() {
			links = append(links, trace.Link{SpanContext: f.origin, Attributes: []attribute.KeyValue{attribute.Int64("vaultd.nonce", int64(f.nonce))}})
		}
	}
	return m.tracer.Start(ctx, name, trace.WithNewRoot(), trace.WithLinks(links...), trace.WithAttributes(attrs...))
}

// minedEvent tells span that f was mined, in r.
func minedEvent(span trace.Span, f *Flight, r *types.Receipt) {
	span.AddEvent("mined", trace.WithAttributes(attribute.Int64("vaultd.nonce", int64(f.nonce)), attribute.String("vaultd.tx_hash", r.TxHash.Hex()),
		attribute.Int64("vaultd.block", r.BlockNumber.Int64()), attribute.Int64("vaultd.gas_used", int64(r.GasUsed)), attribute.Bool("vaultd.reverted", r.Status != types.ReceiptStatusSuccessful)))
}

// giveUpAfter bounds how long a flight is followed.
const giveUpAfter = 30 * time.Minute

// lookupEvery is how often a flight's receipts are also asked for one by one, a safety net under
// the block watch.
const lookupEvery = time.Second

// watch is the one loop that follows every flight: each poll it reads the head and, for each new
// block, the block's receipts in one call, settling the flights whose transaction (any version)
// is in it; it replaces flights that linger. One loop for all flights keeps the RPC load flat
// however many are in flight, and with none in flight it sleeps until one is published: an idle
// manager makes no chain call.
func (m *Manager) watch(ctx context.Context) {
	ticker := time.NewTicker(m.cfg.ReceiptPoll)
	defer ticker.Stop()
	var seen uint64    // last block whose receipts were read; 0: none since the last idle spell
	var checked uint64 // last block after which the node was asked for what it lacks (resendDropped)
	for {
		m.mu.Lock()
		idle := len(m.inflight) == 0
		m.mu.Unlock()
		if idle {
			seen, checked, m.dropping = 0, 0, false
			m.metrics.OldestPending(0)
			select {
			case <-ctx.Done():
				return
			case <-m.wake:
			}
		} else {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
		// The head first, then the in-flight set: a flight published after this read is sent
		// after it, so it can only be mined in a later block.
		head, err := m.client.BlockNumber(ctx)
		if err != nil {
			continue
		}
		m.mu.Lock()
		first := head
		flights := make([]*Flight, 0, len(m.inflight))
		for _, f := range m.inflight {
			first = min(first, f.after)
			flights = append(flights, f)
		}
		m.mu.Unlock()
		m.metrics.OldestPending(head - first)
		if seen == 0 || seen > head { // back from idle (or the chain went back): from the oldest send
			seen = first
		}
		settled := false
		if seen < head && !m.oneByOne { // new blocks: their receipts, in a span linked to what is in flight
			rctx, span := m.span(ctx, "txmgr.receipts", flights, attribute.Int64("vaultd.from_block", int64(seen+1)), attribute.Int64("vaultd.to_block", int64(head)))
			for ; seen < head; seen++ {
				receipts, err := m.client.BlockReceipts(rctx, seen+1)
				if chain.IsMethodMissing(err) {
					m.oneByOne = true
					m.log.Warn("the node has no eth_getBlockReceipts; looking up the receipts of what is in flight each poll (in JSON-RPC batches)", "err", err)
					break
				}
				if err != nil {
					break // try this block again next poll
				}
				for _, r := range receipts {
					if f := m.sentFlightOf(r.TxHash); f != nil {
						minedEvent(span, f, r)
						settled = m.receipted(f, r, head) || settled
					}
				}
			}
			span.End()
		}
		if checked == 0 || checked > head {
			checked = head
		}
		if checked < head { // a new block: after its receipts, so that what it mined is not counted missing
			checked = head
			m.resendDropped(ctx)
		}
		if m.tend(ctx, head) || settled {
			// The balance first, then the reservations back: released before the balance shows
			// what was spent, they would open the gate on a balance that no longer is.
			m.gate.Refresh(ctx) // once for everything this round mined
			m.releaseSettled(ctx)
		}
	}
}

// settledCost is what a settled flight reserved, and what it paid (nil: given up).
type settledCost struct{ reserved, paid *big.Int }

// releaseSettled tells the gate about the flights settled this round: their reservations back,
// what they paid spent.
func (m *Manager) releaseSettled(ctx context.Context) {
	m.mu.Lock()
	costs := m.toRelease
	m.toRelease = nil
	m.mu.Unlock()
	for _, c := range costs {
		m.gate.Settled(ctx, c.reserved, c.paid)
	}
}

// sentFlightOf finds the flight a transaction hash belongs to, unless it is being sent: a flight
// settled then would leave its sender waiting for a turn no one passes, or releasing its
// reservation a second time on an error. Once launched, the lookup (tend) finds its receipt
// within lookupEvery.
func (m *Manager) sentFlightOf(hash common.Hash) *Flight {
	m.mu.Lock()
	defer m.mu.Unlock()
	if f := m.byHash[hash]; f != nil && !f.sending {
		return f
	}
	return nil
}

// lookup asks for the receipts of every version of every flight given, in JSON-RPC batches (one
// request per 100 hashes, however many are in flight), and returns those found by flight (nil
// when the node could not be asked).
func (m *Manager) lookup(ctx context.Context, flights []*Flight) map[*Flight]*types.Receipt {
	var hashes []common.Hash
	var owners []*Flight
	m.mu.Lock()
	for _, f := range flights {
		for _, tx := range f.txs {
			hashes, owners = append(hashes, tx.Hash()), append(owners, f)
		}
	}
	m.mu.Unlock()
	receipts, err := m.client.TransactionReceipts(ctx, hashes)
	if err != nil {
		return nil
	}
	found := map[*Flight]*types.Receipt{}
	for i, r := range receipts {
		if r != nil {
			found[owners[i]] = r
		}
	}
	return found
}

// tend replaces flights that linger and gives up on those followed too long, head being the
// chain's head; it reports whether it settled any.
func (m *Manager) tend(ctx context.Context, head uint64) (settled bool) {
	m.mu.Lock()
	var flights []*Flight
	bumped := map[*Flight]bool{}
	for _, f := range m.inflight {
		if !f.sending {
			flights = append(flights, f)
			if f.bump {
				bumped[f], f.bump = true, false
			}
		}
	}
	gaps := m.gapsDue()
	m.mu.Unlock()
	for _, n := range gaps {
		gctx, span := m.span(ctx, "txmgr.fill_gap", nil, attribute.Int64("vaultd.nonce", int64(n)))
		m.fillGap(gctx, n)
		span.End()
	}
	// Once one flight is due for a lookup, all are looked up with it: one request a round, however
	// the flights' send times are spread.
	var found map[*Flight]*types.Receipt
	if slices.ContainsFunc(flights, func(f *Flight) bool { return m.oneByOne || m.now().Sub(f.lastLookup) >= lookupEvery }) {
		for _, f := range flights {
			f.lastLookup = m.now()
		}
		lctx, span := m.span(ctx, "txmgr.lookup", flights)
		found = m.lookup(lctx, flights)
		for f, r := range found {
			minedEvent(span, f, r)
		}
		span.End()
	}
	for _, f := range flights {
		if r := found[f]; r != nil {
			settled = m.receipted(f, r, head) || settled
			continue
		}
		if m.cancelMinedOf(ctx, f, found != nil) {
			continue // mined (or just found to have left the chain): not replaced, re-sent or given up
		}
		switch {
		case f.uncertain && m.now().Sub(f.lastSent) >= rebroadcastAfter:
			rctx, span := m.span(ctx, "txmgr.rebroadcast", []*Flight{f}, attribute.Int64("vaultd.nonce", int64(f.nonce)))
			m.rebroadcast(rctx, f)
			span.End()
		case m.now().Sub(f.sentAt) > giveUpAfter:
			_, span := m.span(ctx, "txmgr.give_up", []*Flight{f}, attribute.Int64("vaultd.nonce", int64(f.nonce)))
			err := fmt.Errorf("transaction %s not mined after %s", f.Hash(), giveUpAfter)
			m.settle(f, nil, err)
			span.SetStatus(codes.Error, err.Error())
			span.End()
			settled = true
		case bumped[f] || m.now().Sub(f.lastSent) >= m.cfg.ReplaceAfter:
			rctx, span := m.span(ctx, "txmgr.replace", []*Flight{f}, attribute.Int64("vaultd.nonce", int64(f.nonce)), attribute.Bool("vaultd.asked", bumped[f]))
			if m.replace(rctx, f) {
				f.lastSent = m.now()
				span.SetAttributes(attribute.String("vaultd.tx_hash", f.Hash().Hex()))
			} else {
				f.lastSent = f.lastSent.Add(m.cfg.ReplaceAfter / 2) // try again a little later
				span.SetAttributes(attribute.Bool("vaultd.replaced", false))
			}
			span.End()
		}
	}
	return settled
}

// gapFillAfter is how long a nonce given back (its send refused) waits for a send to take it
// while later nonces wait behind it, before it is filled.
const gapFillAfter = 2 * time.Second

// gapsDue lists the free nonces to fill now: free for gapFillAfter, with a flight above. Callers
// hold mu.
func (m *Manager) gapsDue() []uint64 {
	var due []uint64
	for n, since := range m.free {
		if m.now().Sub(since) >= gapFillAfter && m.gapBelowFlight(n) {
			due = append(due, n)
		}
	}
	slices.Sort(due)
	return due
}

// fillGap sends a transfer of nothing from the wallet to itself at nonce n, a nonce no node has
// (its send was refused, or it lies below a transaction adopted or resent) and that no send took
// since, so that the flights after it can be mined. It is
// followed like any flight (replaced if it lingers); its cost is reserved at the gate but not
// admitted: the nonces after it are paid for already.
func (m *Manager) fillGap(ctx context.Context, n uint64) {
	fctx, cancel, err := m.fenced(ctx)
	defer cancel()
	if err != nil {
		return
	}
	tip, feeCap, head, err := m.fees(fctx, nil)
	if err != nil {
		return
	}
	m.mu.Lock()
	if _, free := m.free[n]; !free {
		m.mu.Unlock()
		return
	}
	tx, err := m.sign(fctx, &types.DynamicFeeTx{Nonce: n, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: params.TxGas, To: &m.from, Value: new(big.Int)})
	if err != nil {
		m.mu.Unlock()
		return
	}
	delete(m.free, n)
	f := m.newFlight(tx, head, nil, trace.SpanContextFromContext(ctx))
	f.sending = true
	m.publish(f)
	m.mu.Unlock()
	m.gate.Reserve(ctx, f.reserved)
	class, sendErr := m.submit(fctx, tx)
	switch class {
	case sendAccepted, sendKnown, sendUncertain:
		m.launch(f, class == sendUncertain)
		m.log.Warn("filled a nonce gap with a transfer of nothing to the wallet itself: no transaction of the wallet's reached a node at this nonce, and no send took it since",
			"wallet", m.from.Hex(), "nonce", n, "tx", tx.Hash())
	case sendNonceUsed: // another transaction took it: no gap
		m.forgetUnsent(f, false)
		m.gate.Settled(ctx, f.reserved, nil)
	default:
		m.forgetUnsent(f, true) // tried again after gapFillAfter
		m.gate.Settled(ctx, f.reserved, nil)
		m.log.Warn("could not fill a nonce gap; trying again", "wallet", m.from.Hex(), "nonce", n, "err", sendErr)
	}
}

// rebroadcastAfter is how long a flight whose send's answer was lost waits before it is looked up
// and, if no node knows it, broadcast again.
const rebroadcastAfter = 2 * time.Second

// rebroadcast looks up an uncertain flight's transaction by hash and, if the node does not know
// it, sends the same bytes again: the same hash, at the same nonce, so it can be mined once at
// most whatever became of the first send. Only "accepted" or "known" ends the uncertainty; any
// other answer is left to the receipt lookups.
func (m *Manager) rebroadcast(ctx context.Context, f *Flight) {
	f.lastSent = m.now()
	tx := f.newest()
	if known, err := m.client.TransactionKnown(ctx, tx.Hash()); err == nil && known {
		f.uncertain = false
		return
	}
	fctx, cancel, err := m.fenced(ctx)
	defer cancel()
	if err != nil {
		return
	}
	switch class := classifySend(m.client.SendTransaction(fctx, tx)); class {
	case sendAccepted, sendKnown:
		f.uncertain = false
		if class == sendAccepted {
			m.metrics.Rebroadcast()
		}
		m.log.Info("broadcast again a transaction whose send's answer was lost and that no node knew", "nonce", f.nonce, "tx", tx.Hash())
	}
}

// resendDropped sends again, as they are, transactions of ours the node was sent and no longer
// has. A pool drops without a word what it will not keep (go-ethereum: beyond 64 transactions of
// one account that cannot be executed yet, or the cheapest when it is full; a send whose answer
// was lost may never have arrived), and a dropped transaction is never mined: only its
// replacement at ReplaceAfter would take its nonce. Once a block, the node's pending nonce (the
// next after the transactions it can execute) says where to look: if the flight at that nonce
// was sent and the node does not know it by its hash, it and the sent flights after it are sent
// again in nonce order, the same bytes (so each can still be mined once at most; those the node
// has answer "already known"). While the node's pending nonce is past every flight, this is one
// call a block. The first resend of an incident is a warning; the incident ends when nothing of
// ours waits at the node's pending nonce.
func (m *Manager) resendDropped(ctx context.Context) {
	pending, err := m.client.PendingNonceAt(ctx, m.from)
	if err != nil {
		return
	}
	var run []*Flight // the sent flights from the node's pending nonce on, up to a nonce not sent
	var txs []*types.Transaction
	m.mu.Lock()
	for n := pending; ; n++ {
		f, ok := m.inflight[n]
		if !ok || f.sending {
			break
		}
		run, txs = append(run, f), append(txs, f.txs[len(f.txs)-1])
	}
	if _, followed := m.inflight[pending]; !followed && m.synced && pending < m.next && m.gapBelowFlight(pending) {
		// Nothing of ours at the node's pending nonce, and flights wait above it: the
		// transaction there was given up (giveUpAfter) and dropped since, and nothing would
		// ever take its nonce. It is a gap, filled (gapsDue) unless a send takes it first, once
		// two blocks' checks agree: one answer may come from a node behind the others.
		_, free := m.free[pending]
		switch {
		case free:
		case m.emptyNonce != pending+1:
			m.emptyNonce = pending + 1
		default:
			m.free[pending] = m.now()
			m.log.Warn("no transaction of the wallet at the node's next nonce while later ones wait: filling it", "wallet", m.from.Hex(), "nonce", pending)
		}
	} else {
		m.emptyNonce = 0
	}
	m.mu.Unlock()
	if len(run) == 0 {
		m.dropping = false
		return
	}
	if known, err := m.client.TransactionKnown(ctx, txs[0].Hash()); err != nil || known {
		return // the node has it (not yet executable, or not yet counted in its pending nonce)
	}
	rctx, span := m.span(ctx, "txmgr.resend_dropped", run, attribute.Int64("vaultd.nonce", int64(pending)), attribute.Int("vaultd.flights", len(run)))
	defer span.End()
	fctx, cancel, err := m.fenced(rctx)
	defer cancel()
	if err != nil {
		return
	}
	resent := 0
	for i, f := range run {
		class := classifySend(m.client.SendTransaction(fctx, txs[i]))
		if class == sendUncertain {
			break // the node is not answering: the next block's check goes on
		}
		if class == sendAccepted || class == sendKnown {
			f.uncertain = false
		}
		if class == sendAccepted {
			resent++
			m.metrics.Rebroadcast()
		}
	}
	span.SetAttributes(attribute.Int("vaultd.resent", resent))
	if resent > 0 && !m.dropping {
		m.dropping = true
		m.log.Warn("the node no longer had transactions of this wallet it was sent (its pool dropped them); sent them again as they were",
			"wallet", m.from.Hex(), "resent", resent, "fromNonce", pending)
	}
}

// replace re-sends the flight's nonce with bumped fees, keeping its value and access list, after
// recording the new version; false when it could not.
func (m *Manager) replace(ctx context.Context, f *Flight) bool {
	fctx, cancel, err := m.fenced(ctx)
	defer cancel()
	if err != nil {
		m.log.Debug("not replacing a lingering transaction: this process does not hold the wallet now", "nonce", f.nonce, "err", err)
		return false
	}
	prev := f.newest()
	tip, feeCap, _, err := m.fees(ctx, prev)
	if err == nil && feeCap.Cmp(prev.GasFeeCap()) <= 0 {
		// Already at MAX_FEE_PER_GAS: the same bytes again, in case no node has them (a send
		// whose answer was lost that never arrived); a node that has them says "already known".
		m.log.Debug("a lingering transaction is at MAX_FEE_PER_GAS; broadcasting it again as it is", "nonce", f.nonce, "tx", prev.Hash())
		_ = m.client.SendTransaction(fctx, prev)
		return false
	}
	if err != nil {
		m.log.Debug("cannot replace a lingering transaction yet", "nonce", f.nonce, "err", err)
		return false // fees unknown
	}
	m.mu.Lock()
	record, unsent, cancelling := f.record, f.unsent, f.cancelling
	m.mu.Unlock()
	inner := &types.DynamicFeeTx{Nonce: f.nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: f.gasLimit, To: prev.To(), Value: prev.Value(), Data: prev.Data(), AccessList: prev.AccessList()}
	if cancelling { // nothing to the wallet itself, and nothing recorded (Cancel)
		inner.Gas, inner.To, inner.Value, inner.Data, inner.AccessList = params.TxGas, &m.from, new(big.Int), nil, nil
		record, unsent = nil, nil
	}
	// notTaken tells the caller that the version it recorded was not taken: prev stands.
	notTaken := func(tx *types.Transaction) {
		if record != nil && unsent != nil {
			unsent(ctx, tx, prev)
		}
	}
	tx, err := m.sign(fctx, inner)
	if err != nil {
		return false
	}
	if cancelling {
		m.mu.Lock()
		if f.cancels == nil {
			f.cancels = map[common.Hash]bool{}
		}
		f.cancels[tx.Hash()] = true // before it is sent: its receipt may come in the next round
		m.mu.Unlock()
	}
	if record != nil {
		if err := record(ctx, tx); err != nil {
			m.log.Warn("could not record a replacement; not sending it", "nonce", f.nonce, "err", err)
			notTaken(tx) // what it may have stored in part goes too
			return false
		}
	}
	sendErr := m.client.SendTransaction(fctx, tx)
	class := classifySend(sendErr)
	switch class {
	case sendAccepted, sendKnown, sendUncertain:
		// Followed like the versions before it: a replacement whose answer was lost may be the
		// one mined (left out, its flight would never settle). Its worst case was reserved at
		// admission; only with no MAX_FEE_PER_GAS can a replacement cost more, and then the
		// difference is reserved too.
		m.mu.Lock()
		extra := new(big.Int).Sub(cost(tx), f.reserved)
		if extra.Sign() > 0 {
			f.reserved = new(big.Int).Add(f.reserved, extra)
		}
		f.txs = append(f.txs, tx)
		m.byHash[tx.Hash()] = f
		m.mu.Unlock()
		f.uncertain = class == sendUncertain
		if extra.Sign() > 0 {
			m.gate.Reserve(ctx, extra)
		}
		m.metrics.Replaced()
		m.log.Info("replaced a lingering transaction", "nonce", f.nonce, "old", prev.Hash(), "new", tx.Hash(), "feeCap", feeCap, "answerLost", class == sendUncertain, "cancel", cancelling)
		return true
	default:
		// Mined meanwhile ("nonce too low") or refused: the node did not take this version, and
		// the receipt poll decides among the others. The caller forgets the version it
		// recorded: broadcast after a restart, or named as the one sent, it would stand for
		// the versions that were.
		m.log.Debug("replacement not accepted", "nonce", f.nonce, "err", sendErr)
		notTaken(tx)
		return false
	}
}

// receipted settles f, mined in r with the chain at head, and reports whether it did. A cancel
// (Cancel) is settled only once DisplacedAfter blocks deep, as a displacement is proven
// (Displaced): until then a reorg may drop it while another node still holds a version of what
// the flight carried, and that version, mined in its place, is the flight's outcome. Meanwhile
// every version is looked up each lookupEvery, the cancel's included (its receipt by hash is the
// canonical chain's), and settles the flight when found.
func (m *Manager) receipted(f *Flight, r *types.Receipt, head uint64) bool {
	m.mu.Lock()
	shallow := f.cancels[r.TxHash] && head+1 < r.BlockNumber.Uint64()+max(m.cfg.DisplacedAfter, 1)
	if shallow {
		f.cancelMined = r
	}
	m.mu.Unlock()
	if shallow {
		return false
	}
	m.settle(f, r, nil)
	return true
}

// cancelMinedOf reports whether a cancel of f is mined, not yet deep enough to settle f. A
// lookup this round (looked) that found no version of f mined is a reorg, or a receipt index
// that lags (a provider answers "not found" for a mined transaction): the chain's state decides
// (FindNonce). Only once the node's head has not used the nonce, or used it for none of f's
// cancels, is f followed, and replaced if it lingers, as before: from the next round, never
// given up in this one.
func (m *Manager) cancelMinedOf(ctx context.Context, f *Flight, looked bool) bool {
	m.mu.Lock()
	mined := f.cancelMined
	m.mu.Unlock()
	if mined == nil {
		return false
	}
	if !looked {
		return true
	}
	at, err := m.client.FindNonce(ctx, m.from, f.nonce)
	if err != nil && !errors.Is(err, ethereum.NotFound) {
		return true // unknown: asked again at the next lookup
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil && f.cancels[at.Tx] {
		return true // still mined: the index lags
	}
	m.log.Warn("a mined cancel is no longer on the chain (a reorg); following the transaction's versions again",
		"wallet", m.from.Hex(), "nonce", f.nonce, "cancel", mined.TxHash, "block", mined.BlockNumber)
	f.cancelMined = nil
	return true
}

func (m *Manager) settle(f *Flight, r *types.Receipt, err error) {
	m.mu.Lock()
	if m.inflight[f.nonce] != f { // settled already
		m.mu.Unlock()
		return
	}
	delete(m.inflight, f.nonce)
	mined := f.txs[len(f.txs)-1]
	for _, tx := range f.txs {
		delete(m.byHash, tx.Hash())
		if r != nil && tx.Hash() == r.TxHash {
			mined = tx
		}
	}
	var cost *big.Int
	if r != nil {
		cost = paid(mined, r)
	}
	if r != nil && f.cancels[r.TxHash] { // the cancel was mined: what the flight carried was not
		r, err = nil, ErrCancelled
	}
	m.metrics.InFlight(len(m.inflight))
	m.toRelease = append(m.toRelease, settledCost{reserved: f.reserved, paid: cost}) // after the round's balance refresh
	m.mu.Unlock()
	f.receipt, f.err = r, err
	close(f.done)
}
