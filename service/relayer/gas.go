package relayer

import (
	"context"
	"sync"

	"github.com/ethereum/go-ethereum"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// simulate is check 7: it runs the reveal once as an eth_call and returns the gas limit to send
// it with, and the gas it was estimated to use (0 where it was not estimated). eth_estimateGas
// executes a call several times, and a reveal's pairing check makes each execution costly, so
// the limit of reveals without change is learned: estimated for the first, then reused, and
// raised whenever a mined reveal comes close to it (gasBook). The eth_call runs with that limit as
// its gas, so a reveal that would not fit in it (a costlier token transfer, a new storage slot)
// fails there and is estimated instead, never sent to run out of gas. Reveals with change are
// always estimated, and given changeHeadroom more: their insertion's cost depends on what the
// tree holds when they are mined. So are reveals paying a fee (estimate): the fee must cover the
// estimate (checkFeeGas); their limit, ~25,000 gas dearer for the fee's transfer, is not learned,
// so that it raises neither the other reveals' limits nor the worst cases reserved for them.
func (r *Relayer) simulate(ctx context.Context, data []byte, change, estimate bool) (limit, gas uint64, err error) {
	msg := ethereum.CallMsg{From: r.tx.From(), To: &r.cfg.Contracts.Vault, Data: data}
	if known := r.gas.limit(); known > 0 && !change && !estimate {
		msg.Gas = known
		err := r.reads.simulate(ctx, msg)
		if err == nil {
			return known, 0, nil
		}
		if !chain.IsNodeAnswer(err) {
			return 0, 0, chainUnavailable(err)
		}
		// Refused within the learned limit: the estimate below tells a reveal that needs more
		// gas from one the vault refuses.
		msg.Gas = 0
	}
	est, err := r.reads.estimateGas(ctx, msg)
	if err == nil {
		limit := gasLimit(est, change)
		if !change && !estimate { // the learned limit is of reveals without change or fee: a fee's transfer costs more
			r.gas.raise(limit)
		}
		return limit, est, nil
	}
	if rev, ok := chain.RevertOf(vaultError, err); ok {
		if rev.Name == "NullifierAlreadySpent" { // spent since check 1 read it: check 1's answer
			return 0, 0, reject(NullifierUsed, "the nullifier is already spent")
		}
		return 0, 0, reject(RevealRejected, "the vault would refuse this reveal: %s", revertRefusal(rev))
	}
	if chain.IsNodeAnswer(err) {
		return 0, 0, reject(RevealRejected, "the vault would refuse this reveal: %v", err)
	}
	return 0, 0, chainUnavailable(err)
}

// gasLimit is the gas limit a reveal estimated at est is sent with: 30 % and 10,000 above the
// estimate, and changeHeadroom more for one with change.
func gasLimit(est uint64, change bool) uint64 {
	limit := est*13/10 + 10_000
	if change {
		limit += changeHeadroom
	}
	return limit
}

// changeHeadroom is the gas a reveal with change may need beyond its estimate when inserts land
// before it. The tree (a LeanIMT) hashes once per 1-bit of the new leaf's index, and the vault
// looks the proof's root up from the newest back: a reveal still valid when mined has at most
// ROOT_HISTORY_SIZE − 1 = 31 inserts ahead of it, which add at most 5 one-bits to its index
// (popcount(i+d) ≤ popcount(i) + popcount(d), d ≤ 31) and 31 cold reads to the lookup. A hash is
// 18,229 gas and a cold read 2,100 (cmd/gasbench): 5 × 20,000 + 31 × 2,100, rounded up. Without
// it, 9 of 32 partial reveals proved against one root ran out of gas
// (TestBursts/OfPartialRevealsAgainstOneRootNeverReverts in service/relayer/serial).
const changeHeadroom = 170_000

// gasBook is the learned gas limit of reveals without change or fee.
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
