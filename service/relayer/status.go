package relayer

import (
	"context"
	"math"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/openapi"
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

// apiVersion is the relayer's API version, openapi/relayer.yaml's info.version: a client refuses a
// relayer of another major.
var apiVersion = func() string {
	var doc struct {
		Info struct{ Version string } `yaml:"info"`
	}
	if err := yaml.Unmarshal(openapi.RelayerYAML, &doc); err != nil || doc.Info.Version == "" {
		panic("openapi/relayer.yaml has no info.version")
	}
	return doc.Info.Version
}()

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

// notReady is why the relayer takes no reveals now (GET /ready's 503), or nil; from memory.
func (r *Relayer) notReady() *relayerapi.NotReadyError {
	if r.pause.State().Paused {
		return &relayerapi.NotReadyError{Code: edge.CodePaused, Error: "an operator paused this replica"}
	}
	if !r.isSet() {
		return &relayerapi.NotReadyError{Code: CodeOperatorKeyUnavailable, Error: "a standby: starting, or every operator key is leased by another replica"}
	}
	_, open, reachable := r.gate.State()
	switch {
	case !reachable:
		return &relayerapi.NotReadyError{Code: edge.CodeChainUnavailable, Error: "the chain is unreachable"}
	case !open:
		return &relayerapi.NotReadyError{Code: CodeOperatorBalanceLow, Error: "the operator balance is under MIN_OPERATOR_BALANCE"}
	case r.gate.SpendReached():
		return &relayerapi.NotReadyError{Code: CodeSpendLimitReached, Error: "the operator has spent OPERATOR_SPEND_LIMIT for now"}
	case !r.holdsKey():
		return &relayerapi.NotReadyError{Code: CodeOperatorKeyUnavailable, Error: "this replica's lease of its operator key lapsed"}
	}
	return nil
}

// status is GET /status's body, from memory.
func (r *Relayer) status() relayerapi.RelayerStatus {
	st := relayerapi.RelayerStatus{ChainId: int64(r.chainID), Vault: r.cfg.Contracts.Vault.Hex(), Version: edge.Version(), ApiVersion: apiVersion,
		Ready: true, Paused: r.pause.State().Paused, Funding: relayerapi.StatusFunding{Modes: r.cfg.Fees.Accepted()}}
	if nr := r.notReady(); nr != nil {
		st.Ready, st.NotReady = false, &nr.Code
	}
	if r.isSet() {
		from := r.tx.From().Hex()
		st.Operator = &from
		_, st.InFlight = r.tx.State()
	}
	b := &r.board
	b.wanted.Store(true)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.readAt.IsZero() {
		st.UpdatedAt = b.readAt.Unix()
	}
	if r.cfg.Fees.Fees {
		fees := &relayerapi.StatusFees{Quote: relayerapi.StatusFeesQuoteQuote, FeeReceiver: r.cfg.Fees.Receiver.Hex(), MarginBps: r.cfg.Fees.Margin,
			FeePerGas: "0", Tokens: make([]relayerapi.TokenFee, len(b.fees))}
		if b.feePerGas != nil {
			fees.FeePerGas = b.feePerGas.String()
		}
		for i, f := range b.fees {
			fees.Tokens[i] = relayerapi.TokenFee{Token: f.Token.Hex(), Price: f.Price, Whole: f.Whole.String(), Partial: f.Partial.String()}
		}
		st.Funding.Fees = fees
	}
	if rw := b.runway; rw != nil {
		st.Runway = &relayerapi.Runway{Reveals: int64(rw.reveals), Balance: rw.balance.String(), GasPerReveal: int64(rw.gas), FeePerGas: rw.feePerGas.String()}
		if rw.spendReveals != nil {
			n := int64(*rw.spendReveals)
			st.Runway.SpendLimitReveals = &n
		}
	}
	return st
}
