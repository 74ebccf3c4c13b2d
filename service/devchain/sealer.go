package devchain

import (
	"time"

	"github.com/ethereum/go-ethereum/core"
)

// Sealing timings: how often the loop looks at the pool without being woken, and how long it
// waits after a block that took nothing (a transaction the miner will not take, such as one
// priced under the minimum tip) before trying again without a new transaction.
const (
	sealPoll    = 50 * time.Millisecond
	sealBackoff = time.Second
)

// PauseSealing stops sealing blocks: transactions wait in the pool until ResumeSealing. Tests
// use it to hold a transaction unmined.
func (c *Chain) PauseSealing() { c.paused.Store(true) }

// ResumeSealing seals again, at once.
func (c *Chain) ResumeSealing() {
	c.paused.Store(false)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// seal is the only goroutine that seals blocks: as soon as transactions arrive, and on a short
// poll in case a wake-up was missed, it seals until the pool has no executable transaction left.
func (c *Chain) seal() {
	defer close(c.sealDone)
	txs := make(chan core.NewTxsEvent, 1024)
	sub := c.eth.TxPool().SubscribeTransactions(txs, true)
	defer sub.Unsubscribe()
	poll := time.NewTicker(sealPoll)
	defer poll.Stop()
	var idleUntil time.Time // after an empty block, poll-driven sealing waits until then
	for {
		woken := false
		select {
		case <-c.stopSeal:
			return
		case <-txs:
			woken = true
		case <-c.wake:
			woken = true
		case <-poll.C:
		}
		if c.paused.Load() || (!woken && time.Now().Before(idleUntil)) {
			continue
		}
		for {
			if pending, _ := c.eth.TxPool().Stats(); pending == 0 {
				break
			}
			before := c.eth.BlockChain().CurrentBlock().Number.Uint64()
			c.beacon.Commit()
			c.eth.TxPool().Sync()
			head := c.eth.BlockChain().GetBlockByNumber(before + 1)
			if head == nil || len(head.Transactions()) == 0 {
				idleUntil = time.Now().Add(sealBackoff)
				break
			}
			select {
			case <-c.stopSeal:
				return
			default:
			}
		}
	}
}
