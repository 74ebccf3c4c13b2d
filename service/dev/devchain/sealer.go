package devchain

import (
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
)

// Sealing timings: how often the loop looks at the pool without being woken, and how long it
// waits after a block that took nothing (a transaction the miner will not take, such as one
// priced under the minimum tip) before trying again without a new transaction.
const (
	sealPoll    = 50 * time.Millisecond
	sealBackoff = time.Second
)

// PauseSealing stops sealing blocks: transactions wait in the pool until ResumeSealing. Tests
// use it to hold a transaction unmined: a block being sealed when it is called is finished first,
// and none is sealed after it returns.
func (c *Chain) PauseSealing() {
	c.sealing.Lock()
	defer c.sealing.Unlock()
	c.paused.Store(true)
}

// commit seals a block unless sealing is paused, and reports whether it did; then it waits for
// the node's pool to have taken the block in (its pending count is then the block's leftovers).
// Both under sealing: the pool answers one forced sync at a time (a second waiter replaces the
// first, which then waits for ever), and a reorg (Fork, Reorg) syncs it too, once it has paused
// sealing, which waits for this.
func (c *Chain) commit() bool {
	c.sealing.Lock()
	defer c.sealing.Unlock()
	if c.paused.Load() {
		return false
	}
	c.beacon.Commit()
	_ = c.eth.TxPool().Sync()
	return true
}

// ResumeSealing seals again, at once.
func (c *Chain) ResumeSealing() {
	c.paused.Store(false)
	c.wakeSealer()
}

// SetBlockTime switches sealing from then on: with d > 0 one block per d, empty or not, as a live
// chain does (transactions wait for the next block, and what does not fit waits for the one
// after); with 0 a block as soon as transactions arrive.
func (c *Chain) SetBlockTime(d time.Duration) {
	c.blockTime.Store(int64(max(d, 0)))
	c.wakeSealer()
}

func (c *Chain) wakeSealer() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// seal is the only goroutine that seals blocks, in the mode SetBlockTime chose.
func (c *Chain) seal() {
	defer close(c.sealDone)
	txs := make(chan core.NewTxsEvent, 1024)
	sub := c.eth.TxPool().SubscribeTransactions(txs, true)
	defer sub.Unsubscribe()
	for {
		var stopped bool
		if d := time.Duration(c.blockTime.Load()); d > 0 {
			stopped = c.sealEvery(d)
		} else {
			stopped = c.sealOnArrival(txs)
		}
		if stopped {
			return
		}
	}
}

// sealOnArrival seals as soon as transactions arrive, and on a short poll in case a wake-up was
// missed, until the pool has no executable transaction left. It returns when the chain stops
// (true) or the block time is set (false).
func (c *Chain) sealOnArrival(txs <-chan core.NewTxsEvent) bool {
	poll := time.NewTicker(sealPoll)
	defer poll.Stop()
	var idleUntil time.Time // after an empty block, poll-driven sealing waits until then
	for {
		woken := false
		select {
		case <-c.stopSeal:
			return true
		case <-txs:
			woken = true
		case <-c.wake:
			woken = true
		case <-poll.C:
		}
		if c.blockTime.Load() > 0 {
			return false
		}
		if c.paused.Load() || (!woken && time.Now().Before(idleUntil)) {
			continue
		}
		for {
			if pending, _ := c.eth.TxPool().Stats(); pending == 0 {
				break
			}
			before := c.eth.BlockChain().CurrentBlock().Number.Uint64()
			if !c.commit() { // paused meanwhile
				break
			}
			head := c.eth.BlockChain().GetBlockByNumber(before + 1)
			if head == nil || len(head.Transactions()) == 0 {
				idleUntil = time.Now().Add(sealBackoff)
				break
			}
			select {
			case <-c.stopSeal:
				return true
			default:
			}
		}
	}
}

// sealEvery seals one block per interval, empty or not. It returns when the chain stops (true)
// or the block time changes (false).
func (c *Chain) sealEvery(interval time.Duration) bool {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-c.stopSeal:
			return true
		case <-c.wake:
			if time.Duration(c.blockTime.Load()) != interval {
				return false
			}
			continue
		case <-tick.C:
		}
		c.commit()
	}
}

// Fork makes the block with hash parent the head, as a reorg does: the blocks after it leave
// the canonical chain, and the next blocks sealed build on parent. The pool must be empty.
// Tests use it to make real reorgs.
func (c *Chain) Fork(parent common.Hash) error {
	c.PauseSealing()
	defer c.ResumeSealing()
	return c.beacon.Fork(parent)
}

// Reorg makes the block with hash parent the head, as Fork does, and has the new branch built
// from txs alone: the node's pool is emptied of the transactions of the blocks it dropped, as
// if another node, whose pool held txs and not those, proposed the blocks that won. Sealing
// resumes with txs in the pool. Tests use it for a reorg that swaps one transaction for another
// at a nonce (an operator's cancel for the transaction it cancelled, say).
func (c *Chain) Reorg(parent common.Hash, txs ...*types.Transaction) error {
	c.PauseSealing()
	defer c.ResumeSealing()
	if err := c.beacon.Fork(parent); err != nil {
		return err
	}
	pool := c.eth.TxPool()
	if err := pool.Sync(); err != nil { // the dropped blocks' transactions back in the pool
		return err
	}
	// A service watching the chain may send again meanwhile (a transaction it no longer sees
	// mined): the pool is emptied and given the new branch's transactions until they are all
	// it holds.
	var err error
	for range 10 {
		if err = c.poolHoldsOnly(pool, txs); err == nil {
			return nil
		}
	}
	return err
}

// poolHoldsOnly empties the pool and adds txs: an error unless the pool then holds them alone.
func (c *Chain) poolHoldsOnly(pool *txpool.TxPool, txs []*types.Transaction) error {
	pool.Clear() // waits for a reset still running, then empties the pool
	for i, err := range pool.Add(txs, true) {
		if err != nil {
			return fmt.Errorf("transaction %d of the new branch: %w", i, err)
		}
	}
	if err := pool.Sync(); err != nil {
		return err
	}
	pending, queued := pool.Content()
	var held []common.Hash
	for _, m := range []map[common.Address][]*types.Transaction{pending, queued} {
		for _, list := range m {
			for _, tx := range list {
				held = append(held, tx.Hash())
			}
		}
	}
	for _, tx := range txs {
		if !slices.Contains(held, tx.Hash()) {
			return fmt.Errorf("transaction %s of the new branch is not in the pool", tx.Hash())
		}
	}
	if len(held) != len(txs) {
		return fmt.Errorf("the pool holds %d transactions, want the new branch's %d alone", len(held), len(txs))
	}
	return nil
}
