// Package indexer is the indexer: it lists the events of the
// vault's contracts by name and block range. It reads every block's receipts from the node
// (eth_getBlockReceipts by block hash, or one receipt per transaction where the node has no
// such method), never eth_getLogs, whose answers can be empty; it decodes the logs of the
// configured contracts by their ABIs from gen/; and it follows reorgs: a block whose parent is
// not the block indexed before it makes the indexer roll back to the common ancestor, remove
// the orphaned events, and index the new branch.
package indexer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// Fetching: fetchers blocks are read at once, up to window blocks ahead of the store, and
// stored batchSize blocks per transaction while the next ones are read.
const (
	fetchers  = 8
	window    = 48
	batchSize = 16
)

// Indexer follows the chain and keeps the store up to date.
type Indexer struct {
	client  *chain.Client
	store   *store
	dec     *decoder
	cfg     Config
	metrics *metrics
	log     *slog.Logger
	tracer  trace.Tracer // each poll that indexes something is a span (indexer.sync)

	// oneByOne is set when the node said it has no eth_getBlockReceipts: receipts are then asked
	// one transaction at a time (the fetchers of the batch that learnt it may each have asked).
	oneByOne atomic.Bool
	// writing is set while this process is the writer of a shared store (writer.go).
	writing atomic.Bool

	mu      sync.Mutex
	head    uint64        // the chain's head as last read
	indexed Block         // the newest indexed block; before any, START_BLOCK − 1 with a zero hash
	reached bool          // the chain answered the last poll
	changed chan struct{} // closed (and replaced) whenever indexed moves: streams wake up
}

// keepReorgs is how many reorgs the store keeps for streams that resume across one.
const keepReorgs = 64

// watch returns the newest indexed block and a channel closed when it moves.
func (ix *Indexer) watch() (Block, <-chan struct{}) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.indexed, ix.changed
}

// rolledBackBefore is where a client that saw events up to block n must drop what it has, after
// a reorg removed some of them: the oldest common ancestor below n of the reorgs the store keeps
// (recorded by whichever replica wrote them, before or after a restart), or 64 blocks below n
// when it keeps none (an index from before it kept them).
func (ix *Indexer) rolledBackBefore(ctx context.Context, n uint64) (uint64, error) {
	to, ok, err := ix.store.rolledBackBefore(ctx, n)
	if err != nil {
		return 0, err
	}
	if !ok {
		to = max(n, ix.cfg.StartBlock+64) - 64
	}
	return max(to, ix.cfg.StartBlock-1), nil
}

// errReorg is a batch that does not link to what is stored: the chain reorganised.
var errReorg = errors.New("the chain reorganised")

// errReceiptsLag is a node that has a block's header but not (yet) its receipts: a provider
// whose receipt index lags its headers, or a load balancer whose nodes differ. It is waited
// for (the next poll asks again), never taken for a reorg: only another block at a height is.
var errReceiptsLag = errors.New("the node has the block but not its receipts yet")

// State is the indexer as a health report shows it.
func (ix *Indexer) State() (indexed Block, head uint64, reachable bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.indexed, ix.head, ix.reached
}

// healthyLag is how many blocks beyond CONFIRMATIONS the indexer may lag and be healthy.
const healthyLag = 10

// ready is nil when the indexer can answer for the chain: a *QueryError (ChainUnreachable,
// Lagging) while the chain is unreachable or the indexer lags.
func (ix *Indexer) ready() error {
	indexed, head, reachable := ix.State()
	switch {
	case !reachable:
		return &QueryError{Reason: ChainUnreachable, Message: "the chain is unreachable"}
	case head > indexed.Number+ix.cfg.Confirmations+healthyLag:
		return &QueryError{Reason: Lagging, Message: fmt.Sprintf("%d blocks behind the head", head-indexed.Number)}
	}
	return nil
}

// Run polls the chain every POLL_INTERVAL and indexes what is new until ctx is done.
func (ix *Indexer) Run(ctx context.Context) {
	t := time.NewTicker(ix.cfg.PollInterval)
	defer t.Stop()
	for {
		step := ix.Step
		if !ix.elect(ctx) {
			step = ix.read
		}
		switch err := step(ctx); {
		case err == nil || ctx.Err() != nil:
		case errors.Is(err, errReceiptsLag):
			ix.log.Debug("the node has a block's header but not its receipts yet; asking again next poll", "err", err)
		default:
			ix.log.Warn("indexing stopped for this poll", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Step reads the head once and indexes up to head − CONFIRMATIONS, rolling back first if the
// chain reorganised below what is indexed.
//
// A poll that has blocks to index, or a reorg to look into, is a span of its own (indexer.sync),
// holding the chain calls and SQL statements it makes.
func (ix *Indexer) Step(ctx context.Context) (err error) {
	latest, err := ix.readHead(ctx)
	if err != nil {
		return err
	}
	head := latest.Number.Uint64()
	if head < ix.cfg.Confirmations {
		return nil
	}
	target := head - ix.cfg.Confirmations
	cur := ix.current()
	if cur.Number != target || (cur.Hash != (common.Hash{}) && head == cur.Number && latest.Hash() != cur.Hash) {
		var span trace.Span
		ctx, span = ix.tracer.Start(ctx, "indexer.sync", trace.WithNewRoot(), trace.WithAttributes(
			attribute.Int64("vaultd.from_block", int64(cur.Number)), attribute.Int64("vaultd.target_block", int64(target)), attribute.Int64("vaultd.head", int64(head))))
		defer func() {
			span.SetAttributes(attribute.Int64("vaultd.indexed_block", int64(ix.current().Number)))
			if err != nil {
				span.SetStatus(codes.Error, err.Error())
			}
			span.End()
		}()
	}
	// The chain replaced the block at the height indexed, or its head is below what is indexed
	// and it has another block at its own height (nothing to roll back before the first block is
	// indexed). A node whose head is below what is indexed but has the same blocks is only
	// behind the one that served them (a load-balanced provider's, or a fallback of RPC_URL):
	// it is waited for, not taken for a reorg.
	indexed := cur.Hash != (common.Hash{})
	if indexed && target < cur.Number {
		behind, err := ix.behind(ctx, latest, target)
		if err != nil || behind {
			return err
		}
		if err := ix.rewind(ctx); err != nil {
			return err
		}
	} else if indexed && ix.cfg.Confirmations == 0 && head == cur.Number && latest.Hash() != cur.Hash {
		if err := ix.rewind(ctx); err != nil {
			return err
		}
	}
	for {
		cur = ix.current()
		if cur.Number >= target {
			return nil
		}
		err := ix.follow(ctx, cur, target)
		if !errors.Is(err, errReorg) {
			return err
		}
		if err := ix.rewind(ctx); err != nil {
			return err
		}
		if ix.current() == cur { // the node's answers disagree, but every block indexed is still on the chain: next poll
			return nil
		}
	}
}

// behind reports whether a node whose head is latest, with target below what is indexed, has
// the very block indexed at target: it is behind, not on another branch. A block no longer
// kept cannot be compared, and counts as another branch.
func (ix *Indexer) behind(ctx context.Context, latest *types.Header, target uint64) (bool, error) {
	stored, ok, err := ix.store.hashAt(ctx, target)
	if err != nil || !ok {
		return false, err
	}
	h := latest
	if h.Number.Uint64() != target {
		if h, err = ix.client.HeaderByNumber(ctx, new(big.Int).SetUint64(target)); err != nil {
			return false, err
		}
	}
	if h.Hash() != stored {
		return false, nil
	}
	ix.log.Debug("the node is behind what is indexed; waiting for it", "head", latest.Number, "indexedTo", ix.current().Number)
	return true, nil
}

// readHead reads the chain's head, for the health report and the lag.
func (ix *Indexer) readHead(ctx context.Context) (*types.Header, error) {
	latest, err := ix.client.HeaderByNumber(ctx, nil)
	ix.mu.Lock()
	ix.reached = err == nil
	if err == nil {
		ix.head = latest.Number.Uint64()
	}
	ix.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ix.metrics.head.Set(float64(latest.Number.Uint64()))
	return latest, nil
}

// elect keeps or takes the writer's role on a shared store (writer.go) and says whether this
// process writes; on its own store it always does. A process that becomes the writer goes on
// from the newest block stored (by the writer before it).
func (ix *Indexer) elect(ctx context.Context) bool {
	if !ix.store.shared() {
		return true
	}
	if ix.writing.Load() {
		if ix.store.holdsWriter(ctx) {
			return true
		}
		ix.writing.Store(false)
		ix.metrics.writer.Set(0)
		ix.log.Warn("lost the writer's lock (its database session ended); reading what the writer stores from now on")
	}
	if ok, err := ix.store.takeWriter(ctx); err != nil || !ok {
		return false
	}
	if err := ix.read(ctx); err != nil {
		ix.store.dropWriter()
		return false
	}
	ix.writing.Store(true)
	ix.metrics.writer.Set(1)
	ix.log.Info("this indexer is the writer", "resumeAfter", ix.current().Number)
	return true
}

// read is a reader's poll: the chain's head (for the lag), and the newest block the writer
// stored. Streams wake when it moves; one whose events a reorg removed finds out by their hash.
func (ix *Indexer) read(ctx context.Context) error {
	_, headErr := ix.readHead(ctx)
	last, ok, err := ix.store.last(ctx)
	if err != nil {
		return err
	}
	if !ok {
		last = Block{Number: ix.cfg.StartBlock - 1}
	}
	if last != ix.current() {
		ix.setIndexed(last)
	}
	return headErr
}

// current is the newest indexed block.
func (ix *Indexer) current() Block {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.indexed
}

// setIndexed moves the newest indexed block and wakes the streams.
func (ix *Indexer) setIndexed(b Block) {
	ix.mu.Lock()
	ix.indexed = b
	head := ix.head
	close(ix.changed)
	ix.changed = make(chan struct{})
	ix.mu.Unlock()
	ix.metrics.indexed.Set(float64(b.Number))
	if head >= b.Number {
		ix.metrics.lag.Set(float64(head - b.Number))
	}
}

// slot is one block being fetched: done closes when b (or err) is set.
type slot struct {
	done chan struct{}
	b    indexedBlock
	err  error
}

// follow indexes blocks cur+1 … target as a pipeline: fetchers read blocks in order, up to
// window blocks ahead, while the blocks already read are checked to link (each one's parent is
// the block before it) and stored batchSize at a time. It stops at the first error; errReorg when
// a block does not link to the one before it (what linked before it is stored first).
func (ix *Indexer) follow(ctx context.Context, cur Block, target uint64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan *slot, window)
	go func() {
		defer close(slots)
		busy := make(chan struct{}, fetchers)
		for n := cur.Number + 1; n <= target; n++ {
			s := &slot{done: make(chan struct{})}
			select {
			case slots <- s: // at most window blocks ahead of the store
			case <-ctx.Done():
				return
			}
			select {
			case busy <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				defer func() { <-busy }()
				s.b, s.err = ix.block(ctx, n)
				close(s.done)
			}()
		}
	}()
	prev := cur
	batch := make([]indexedBlock, 0, batchSize)
	for s := range slots {
		select {
		case <-s.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := s.err
		if err == nil && prev.Hash != (common.Hash{}) && s.b.Parent != prev.Hash {
			err = errReorg
		}
		if err != nil {
			return errors.Join(ix.save(ctx, batch), err)
		}
		batch = append(batch, s.b)
		prev = s.b.Block
		if len(batch) == batchSize {
			if err := ix.save(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return ix.save(ctx, batch)
}

// save stores blocks that link to what is indexed, and moves the indexed block.
func (ix *Indexer) save(ctx context.Context, blocks []indexedBlock) error {
	if len(blocks) == 0 {
		return nil
	}
	if err := ix.store.apply(ctx, blocks); err != nil {
		return fmt.Errorf("store blocks %d–%d: %w", blocks[0].Number, blocks[len(blocks)-1].Number, err)
	}
	for _, b := range blocks {
		for _, e := range b.Events {
			ix.metrics.events.WithLabelValues(e.Name).Inc()
		}
	}
	ix.setIndexed(blocks[len(blocks)-1].Block)
	return nil
}

// block reads block n's header and receipts (those of exactly that block, by its hash) and
// decodes the logs of the indexed contracts.
func (ix *Indexer) block(ctx context.Context, n uint64) (indexedBlock, error) {
	h, err := ix.client.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
	if err != nil {
		return indexedBlock{}, fmt.Errorf("block %d: %w", n, err)
	}
	b := indexedBlock{Block: Block{Number: n, Hash: h.Hash()}, Parent: h.ParentHash}
	receipts, err := ix.receipts(ctx, h)
	if err != nil {
		return b, fmt.Errorf("block %d receipts: %w", n, err)
	}
	for _, r := range receipts {
		for _, l := range r.Logs {
			name, args, ok, err := ix.dec.decode(l)
			if err != nil {
				ix.log.Warn("a log of an indexed contract does not decode; skipped", "block", n, "logIndex", l.Index, "err", err)
				continue
			}
			if ok {
				b.Events = append(b.Events, Event{Name: name, Block: b.Block, LogIndex: l.Index, TxHash: l.TxHash, Address: l.Address, Args: args})
			}
		}
	}
	return b, nil
}

// receipts returns the receipts of the block with header h: in one call, or one by one on a
// node without eth_getBlockReceipts. Receipts the node does not have are errReorg only when the
// chain has another block at h's height now (missing, below).
func (ix *Indexer) receipts(ctx context.Context, h *types.Header) ([]*types.Receipt, error) {
	if !ix.oneByOne.Load() {
		receipts, err := ix.client.BlockReceiptsByHash(ctx, h.Hash())
		if !chain.IsMethodMissing(err) {
			if errors.Is(err, ethereum.NotFound) || (err == nil && receipts == nil) {
				return nil, ix.missing(ctx, h)
			}
			return receipts, err
		}
		if !ix.oneByOne.Swap(true) {
			ix.log.Warn("the node has no eth_getBlockReceipts; reading receipts one transaction at a time", "err", err)
		}
	}
	hashes, err := ix.client.TransactionHashes(ctx, h.Hash())
	if errors.Is(err, ethereum.NotFound) {
		return nil, ix.missing(ctx, h)
	}
	if err != nil {
		return nil, err
	}
	out, err := ix.client.TransactionReceipts(ctx, hashes) // in batches: a request per 100, not per transaction
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		if r == nil || r.BlockHash != h.Hash() {
			return nil, ix.missing(ctx, h)
		}
	}
	return out, nil
}

// missing tells why the node had no receipts for the block with header h: errReorg when the
// chain has another block at that height now, errReceiptsLag when it still has h (the receipts
// lag the header), or the error of the header's lookup.
func (ix *Indexer) missing(ctx context.Context, h *types.Header) error {
	now, err := ix.client.HeaderByNumber(ctx, h.Number)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return errReceiptsLag // the node has no block at that height: it is behind
	case err != nil:
		return err
	case now.Hash() != h.Hash():
		return errReorg
	}
	ix.metrics.receiptsLag.Inc()
	return errReceiptsLag
}

// rewind finds the newest stored block that is still on the chain and rolls back to it. When
// none is (a reorg deeper than the blocks kept), everything is indexed again from START_BLOCK.
func (ix *Indexer) rewind(ctx context.Context) error {
	trace.SpanFromContext(ctx).AddEvent("reorg", trace.WithAttributes(attribute.Int64("vaultd.indexed_block", int64(ix.current().Number))))
	cur := ix.current()
	ancestor := Block{Number: ix.cfg.StartBlock - 1} // nothing indexed
	deep := false
	for n := cur.Number; n >= ix.cfg.StartBlock; n-- {
		stored, ok, err := ix.store.hashAt(ctx, n)
		if err != nil {
			return err
		}
		if !ok { // not kept any more
			deep = true
			break
		}
		h, err := ix.client.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil && !errors.Is(err, ethereum.NotFound) {
			return err
		}
		if err == nil && h.Hash() == stored {
			ancestor = Block{Number: n, Hash: stored}
			break
		}
	}
	if ancestor == cur {
		return nil // every block indexed is still on the chain: nothing to roll back, no reorg
	}
	if deep {
		ix.log.Error("a reorg deeper than the blocks kept; indexing again from START_BLOCK", "indexedTo", cur.Number, "startBlock", ix.cfg.StartBlock)
	}
	removed, err := ix.store.rollback(ctx, ancestor.Number, ix.dec.names)
	if err != nil {
		return err
	}
	ix.setIndexed(ancestor)
	ix.metrics.reorgs.Inc()
	ix.metrics.rolledBack.Add(float64(removed))
	ix.log.Warn("reorg: rolled back to the common ancestor", "from", cur.Number, "to", ancestor.Number, "removedEvents", removed)
	return nil
}
