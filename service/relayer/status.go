package relayer

import (
	"context"
	"math"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// GET /status says how the relayer stands to a client choosing among relayers. A client asks
// several at once, so the answer reads no chain: the runway is computed again at each balance
// poll (runStatus), from the balance that poll read and the chain's figures (the fee per gas,
// the tree's next leaf index) as last read; those are read at start, and again at a poll after a
// status was asked, so that an idle relayer nobody asks makes no more chain calls than its
// balance poll. The rest (ready, paused, in flight) is the memory GET /ready and GET /health
// answer from.

// statusCacheControl lets a client or a proxy keep a status for about as long as it takes the
// background refresh to read it again.
const statusCacheControl = "public, max-age=5"

// statusBoard is what the background refresh last read: the chain's figures, the fees a quote
// would answer at them, and the runway. Its zero value has read nothing yet.
type statusBoard struct {
	wanted atomic.Bool // a status was asked since the last poll: the next one reads the figures

	mu        sync.Mutex
	readAt    time.Time // when the figures were read
	feePerGas *big.Int
	nextIndex uint64
	fees      []funding.TokenFee
	runway    *runway // nil: the balance is not read yet
}

// runway is how many reveals the operator's wallet pays for at the chain's fees now.
type runway struct {
	reveals      uint64
	spendReveals *uint64 // what is left of OPERATOR_SPEND_LIMIT, in reveals; nil: no limit
	balance      *big.Int
	gas          uint64 // the gas of one reveal at its worst
	feePerGas    *big.Int
}

// runwayOf is the wallet's runway: what it holds above its minimum, less what its reveals in
// flight may cost (the balance gate closes once that is under the minimum), and what is left of
// its spend limit, each divided by the cost of one reveal of gas at feePerGas. Nil before the
// balance is read.
func runwayOf(w gate.Report, gas uint64, feePerGas *big.Int) *runway {
	if w.Balance == nil {
		return nil
	}
	perGas := new(big.Int).Set(feePerGas)
	if perGas.Sign() <= 0 { // a chain charging nothing: a reveal still costs something
		perGas.SetInt64(1)
	}
	cost := new(big.Int).Mul(perGas, new(big.Int).SetUint64(gas))
	above := new(big.Int).Sub(w.Balance, w.Reserved)
	above.Sub(above, w.Min)
	rw := &runway{reveals: revealsOf(above, cost), balance: w.Balance, gas: gas, feePerGas: feePerGas}
	if w.Budget.Limit != nil && w.Spent != nil {
		n := revealsOf(new(big.Int).Sub(w.Budget.Limit, w.Spent), cost)
		rw.spendReveals = &n
	}
	return rw
}

// maxReveals is the most a runway says: 2^53 − 1, the largest integer a JSON number carries
// exactly to every client.
const maxReveals = 1<<53 - 1

// revealsOf is how many reveals of cost wei pay for (none when it is not above zero).
func revealsOf(wei, cost *big.Int) uint64 {
	if wei.Sign() <= 0 {
		return 0
	}
	n := new(big.Int).Quo(wei, cost)
	if !n.IsUint64() || n.Uint64() > maxReveals {
		return maxReveals
	}
	return n.Uint64()
}

// refreshStatus computes the runway again from the gate's memory, with the chain's figures read
// now (through funding's, shared with quotes) when read or none were read yet, else as last read.
// The chain unreachable, the last figures stand: GET /status's ready and notReady
// (CHAIN_UNAVAILABLE) say so. It runs once setUp has made the gate (operate, and the runStatus
// it starts after), before the relayer is set: its first status has them.
func (r *Relayer) refreshStatus(ctx context.Context, read bool) {
	b := &r.board
	b.mu.Lock()
	perGas, next := b.feePerGas, b.nextIndex
	b.mu.Unlock()
	var readAt time.Time
	if read || perGas == nil {
		ctx, cancel := context.WithTimeout(ctx, r.cfg.Chain.RPCTimeout)
		defer cancel()
		start := time.Now()
		p, n, err := r.funding.Figures(ctx)
		if err == nil {
			perGas, next, readAt = p, n, start
		}
	}
	if perGas == nil {
		return
	}
	// The worst a reveal sent now costs: one with change, at the tree's next leaf index, sent
	// with the gas limit simulate gives such a reveal.
	rw := runwayOf(r.gate.Report(), gasLimit(funding.PartialGas(next), true), perGas)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !readAt.IsZero() {
		b.readAt, b.feePerGas, b.nextIndex, b.fees = readAt, perGas, next, r.funding.Fees(perGas, next)
	}
	b.runway = rw
}

// runStatus refreshes the board at every interval until ctx is done, reading the chain's figures
// when a status was asked since the last.
func (r *Relayer) runStatus(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.refreshStatus(ctx, r.board.wanted.Swap(false))
		}
	}
}

// runwayReveals is the runway as last read, for the gauge: NaN before the first read.
func (r *Relayer) runwayReveals() float64 {
	r.board.mu.Lock()
	defer r.board.mu.Unlock()
	if r.board.runway == nil {
		return math.NaN()
	}
	return float64(r.board.runway.reveals)
}

// notReady is why the relayer takes no reveals now (GET /ready's 503): its code and what a person
// is told, or "" when it is ready; from memory.
func (r *Relayer) notReady() (code, message string) {
	if r.pause.State().Paused {
		return edge.CodePaused, "an operator paused this replica"
	}
	if !r.isSet() {
		return CodeOperatorKeyUnavailable, "a standby: starting, or every operator key is leased by another replica"
	}
	_, open, reachable := r.gate.State()
	switch {
	case !reachable:
		return edge.CodeChainUnavailable, "the chain is unreachable"
	case !open:
		return CodeOperatorBalanceLow, "the operator balance is under MIN_OPERATOR_BALANCE"
	case r.gate.SpendReached():
		return CodeSpendLimitReached, "the operator has spent OPERATOR_SPEND_LIMIT for now"
	case !r.holdsKey():
		return CodeOperatorKeyUnavailable, "this replica's lease of its operator key lapsed"
	}
	return "", ""
}

// standing is how the relayer stands (GET /status), from memory: apimapping.go shapes it.
type standing struct {
	chainID  uint64
	vault    common.Address
	notReady string // its code; "" when ready
	paused   bool
	operator *common.Address // nil: a standby, no key yet
	inFlight int
	modes    []string
	fees     *standingFees // nil: fees not accepted
	readAt   time.Time     // when the chain's figures were read; zero: not yet
	runway   *runway       // nil: the balance is not read yet
}

// standingFees is what a fee costs now, as a quote would answer it (unsigned).
type standingFees struct {
	receiver  common.Address
	marginBps int64
	feePerGas *big.Int // nil: not read yet
	tokens    []funding.TokenFee
}

// status is how the relayer stands, from memory; asking marks the chain's figures wanted, so
// that the next balance poll reads them again.
func (r *Relayer) status() standing {
	st := standing{chainID: r.chainID, vault: r.cfg.Contracts.Vault, paused: r.pause.State().Paused, modes: r.cfg.Fees.Accepted()}
	st.notReady, _ = r.notReady()
	if r.isSet() {
		from := r.tx.From()
		st.operator = &from
		_, st.inFlight = r.tx.State()
	}
	b := &r.board
	b.wanted.Store(true)
	b.mu.Lock()
	defer b.mu.Unlock()
	st.readAt = b.readAt
	if r.cfg.Fees.Fees {
		st.fees = &standingFees{receiver: r.cfg.Fees.Receiver, marginBps: r.cfg.Fees.Margin, feePerGas: b.feePerGas, tokens: slices.Clone(b.fees)}
	}
	if b.runway != nil {
		rw := *b.runway
		st.runway = &rw
	}
	return st
}
