package relayer

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/chain"
)

// txManager sends the operator's transactions. Nonces come from a local counter, seeded from the
// node's pending nonce, that moves only when the node has accepted a transaction: a failed send
// never leaves a gap. A transaction not mined within ReplaceAfter is re-sent with the same nonce
// and higher fees until it is mined; flights are followed by one watch loop past the request
// that sent them, so in-flight accounting stays right.
type txManager struct {
	client  *chain.Client
	key     *ecdsa.PrivateKey
	from    common.Address
	signer  types.Signer
	chainID *big.Int
	cfg     TxConfig
	gate    *gate
	metrics *metrics
	log     *slog.Logger

	// oneByOne is set (by watch) when the node has no eth_getBlockReceipts: flights are then
	// looked up one by one every poll instead of once a second.
	oneByOne bool

	mu       sync.Mutex // guards next, synced, inflight and byHash; held across a send
	next     uint64
	synced   bool
	inflight map[uint64]*flight
	byHash   map[common.Hash]*flight // every version of every flight
}

// flight is one nonce's transaction and its replacements. Its fields other than done, receipt
// and err are guarded by txManager.mu once the flight is published.
type flight struct {
	nonce      uint64
	gasLimit   uint64
	txs        []*types.Transaction // every version sent, oldest first
	reserved   *big.Int             // cost reserved at the gate
	sentAt     time.Time
	lastSent   time.Time // of the newest version (owned by watch)
	lastLookup time.Time // owned by watch

	done    chan struct{}
	receipt *types.Receipt
	err     error
}

// latest is the newest version's hash.
func (f *flight) latest() common.Hash { return f.txs[len(f.txs)-1].Hash() }

// newest returns the newest version under the manager's lock.
func (m *txManager) newest(f *flight) *types.Transaction {
	m.mu.Lock()
	defer m.mu.Unlock()
	return f.txs[len(f.txs)-1]
}

func newTxManager(client *chain.Client, key *ecdsa.PrivateKey, chainID uint64, cfg TxConfig, g *gate, m *metrics) *txManager {
	id := new(big.Int).SetUint64(chainID)
	return &txManager{client: client, key: key, from: crypto.PubkeyToAddress(key.PublicKey), signer: types.LatestSignerForChainID(id),
		chainID: id, cfg: cfg, gate: g, metrics: m, log: slog.Default(), inflight: map[uint64]*flight{}, byHash: map[common.Hash]*flight{}}
}

// sendClass is how a node's answer to eth_sendRawTransaction is handled.
type sendClass int

const (
	sendAccepted  sendClass = iota // in the pool now
	sendKnown                      // already in the pool: accepted earlier
	sendNonceUsed                  // the nonce is mined, or taken in the pool by a transaction from outside: resync and sign once more
	sendUncertain                  // no answer: the transaction may or may not be in the pool
	sendRejected                   // refused (underpriced, no funds, …): the nonce is not used
)

// classifySend is the one place that reads the node's send errors. geth's wording is matched
// case-insensitively ("nonce too low", "already known"), as every client that wraps it does.
func classifySend(err error) sendClass {
	if err == nil {
		return sendAccepted
	}
	if !chain.IsNodeAnswer(err) {
		return sendUncertain
	}
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "already known"), strings.Contains(msg, "known transaction"):
		return sendKnown
	case strings.Contains(msg, "nonce too low"):
		return sendNonceUsed
	case strings.Contains(msg, "replacement transaction underpriced"):
		// Our own transactions all have nonces below the counter (resync keeps it above them),
		// so the one in the pool at this nonce came from outside.
		return sendNonceUsed
	default:
		return sendRejected
	}
}

// resync sets the counter from the node's pending nonce, never below a nonce in flight.
// Callers hold m.mu.
func (m *txManager) resync(ctx context.Context) error {
	pending, err := m.client.PendingNonceAt(ctx, m.from)
	if err != nil {
		return err
	}
	for n := range m.inflight {
		pending = max(pending, n+1)
	}
	m.next, m.synced = pending, true
	m.metrics.nonce.Set(float64(pending))
	return nil
}

// adopt tracks the operator's transactions that wait in the node's pool with no flight (sent
// before a restart, or from outside): they are replaced if they linger, like the relayer's own,
// instead of holding every later nonce behind them. Callers hold m.mu, after a resync.
func (m *txManager) adopt(ctx context.Context) (int, error) {
	txs, err := m.client.PoolTransactions(ctx, m.from)
	if err != nil {
		return 0, err
	}
	now := time.Now()
	adopted := 0
	for _, tx := range txs {
		if _, tracked := m.inflight[tx.Nonce()]; tracked || tx.Nonce() >= m.next {
			continue
		}
		cost := new(big.Int).Mul(tx.GasFeeCap(), new(big.Int).SetUint64(tx.Gas()))
		f := &flight{nonce: tx.Nonce(), gasLimit: tx.Gas(), txs: []*types.Transaction{tx}, reserved: cost,
			done: make(chan struct{}), sentAt: now, lastSent: now, lastLookup: now}
		m.inflight[f.nonce] = f
		m.byHash[tx.Hash()] = f
		m.gate.reserve(cost)
		adopted++
	}
	m.metrics.inFlight.Set(float64(len(m.inflight)))
	return adopted, nil
}

// errSendRejected is a send the node refused for a reason other than the nonce.
var errSendRejected = errors.New("the node refused the transaction")

// send signs data for `to` with the next nonce and submits it, then tracks it in the
// background. The returned flight's done channel closes when it is mined (or given up).
func (m *txManager) send(ctx context.Context, to common.Address, data []byte, gasLimit uint64) (*flight, error) {
	tip, feeCap, err := m.fees(ctx, nil)
	if err != nil {
		return nil, err
	}
	cost := new(big.Int).Mul(feeCap, new(big.Int).SetUint64(gasLimit))

	m.mu.Lock()
	defer m.mu.Unlock()
	// The gate again, under the lock that reserves: requests that passed it together at arrival
	// cannot all be sent once the first of them has closed it.
	if err := m.gate.check(); err != nil {
		return nil, err
	}
	if !m.synced {
		if err := m.resync(ctx); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		nonce := m.next
		tx, err := types.SignNewTx(m.key, m.signer, &types.DynamicFeeTx{ChainID: m.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gasLimit, To: &to, Data: data})
		if err != nil {
			return nil, err
		}
		sendErr := m.client.SendTransaction(ctx, tx)
		class := classifySend(sendErr)
		if class == sendUncertain {
			// A lost answer is not a failed send: look the transaction up before reusing its nonce.
			if known, err := m.client.TransactionKnown(ctx, tx.Hash()); err == nil && known {
				class = sendKnown
			} else {
				m.synced = false // the next send asks the node, which counts this one if it landed
				return nil, sendErr
			}
		}
		switch class {
		case sendAccepted, sendKnown:
			m.next = nonce + 1
			now := time.Now()
			f := &flight{nonce: nonce, gasLimit: gasLimit, txs: []*types.Transaction{tx}, reserved: cost, done: make(chan struct{}), sentAt: now, lastSent: now, lastLookup: now}
			m.inflight[nonce] = f
			m.byHash[tx.Hash()] = f
			m.gate.reserve(cost)
			m.metrics.nonce.Set(float64(m.next))
			m.metrics.inFlight.Set(float64(len(m.inflight)))
			return f, nil
		case sendNonceUsed:
			if attempt > 0 {
				return nil, fmt.Errorf("%w: %w", errSendRejected, sendErr)
			}
			m.log.Warn("nonce already used (a transaction from the operator key outside this relayer?); resyncing", "nonce", nonce, "err", sendErr)
			if err := m.resync(ctx); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%w: %w", errSendRejected, sendErr)
		}
	}
}

// fees returns the tip and fee cap to use: the node's suggestion (tip + 2 × base fee), or for a
// replacement at least 12.5 % above prev (geth wants 10 %), capped by MaxFeePerGas.
func (m *txManager) fees(ctx context.Context, prev *types.Transaction) (tip, feeCap *big.Int, err error) {
	tip, base, err := m.client.Fees(ctx)
	if err != nil {
		return nil, nil, err
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
	return tip, feeCap, nil
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

// giveUpAfter bounds how long a flight is tracked after its request stopped waiting.
const giveUpAfter = 30 * time.Minute

// watch is the one loop that follows every flight: each poll it reads the head and, for each
// new block, the block's receipts in one call, settling the flights whose transaction (any
// version) is in it; it replaces flights that linger. One loop for all flights keeps the RPC
// load flat however many reveals are in flight.
func (m *txManager) watch(ctx context.Context) {
	ticker := time.NewTicker(m.cfg.ReceiptPoll)
	defer ticker.Stop()
	var seen uint64 // last block whose receipts were read
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		// The head first, then the in-flight set: a flight published after this read can only
		// be mined in a later block.
		head, err := m.client.BlockNumber(ctx)
		if err != nil {
			continue
		}
		m.mu.Lock()
		idle := len(m.inflight) == 0
		m.mu.Unlock()
		settled := false
		if idle || seen == 0 || seen > head {
			seen = head
			if idle {
				continue
			}
		}
		for ; seen < head && !m.oneByOne; seen++ {
			receipts, err := m.client.BlockReceipts(ctx, seen+1)
			if chain.IsMethodMissing(err) {
				m.oneByOne = true
				m.log.Warn("the node has no eth_getBlockReceipts; looking transactions up one by one each poll", "err", err)
				break
			}
			if err != nil {
				break // try this block again next poll
			}
			for _, r := range receipts {
				if f := m.flightOf(r.TxHash); f != nil {
					m.settle(f, r, nil)
					settled = true
				}
			}
		}
		if m.tend(ctx) || settled {
			m.gate.refresh(ctx) // once for everything this round mined
		}
	}
}

// lookupEvery is how often a flight's receipts are also asked for one by one.
const lookupEvery = time.Second

// lookup asks for the receipt of every version of f.
func (m *txManager) lookup(ctx context.Context, f *flight) *types.Receipt {
	m.mu.Lock()
	txs := append([]*types.Transaction(nil), f.txs...)
	m.mu.Unlock()
	for _, tx := range txs {
		if r, err := m.client.TransactionReceipt(ctx, tx.Hash()); err == nil && r != nil {
			return r
		}
	}
	return nil
}

// flightOf finds the flight a transaction hash belongs to.
func (m *txManager) flightOf(hash common.Hash) *flight {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byHash[hash]
}

// tend replaces flights that linger and gives up on those tracked too long; it reports whether
// it settled any.
func (m *txManager) tend(ctx context.Context) (settled bool) {
	m.mu.Lock()
	var flights []*flight
	for _, f := range m.inflight {
		flights = append(flights, f)
	}
	m.mu.Unlock()
	for _, f := range flights {
		if m.oneByOne || time.Since(f.lastLookup) >= lookupEvery { // a safety net under the block watch
			f.lastLookup = time.Now()
			if r := m.lookup(ctx, f); r != nil {
				m.settle(f, r, nil)
				settled = true
				continue
			}
		}
		switch {
		case time.Since(f.sentAt) > giveUpAfter:
			m.settle(f, nil, fmt.Errorf("transaction %s not mined after %s", f.latest(), giveUpAfter))
			settled = true
		case time.Since(f.lastSent) >= m.cfg.ReplaceAfter:
			if m.replace(ctx, f) {
				f.lastSent = time.Now()
			} else {
				f.lastSent = f.lastSent.Add(m.cfg.ReplaceAfter / 2) // try again a little later
			}
		}
	}
	return settled
}

// replace re-sends the flight's nonce with bumped fees; false when it could not.
func (m *txManager) replace(ctx context.Context, f *flight) bool {
	prev := m.newest(f)
	tip, feeCap, err := m.fees(ctx, prev)
	if err != nil || feeCap.Cmp(prev.GasFeeCap()) <= 0 {
		m.log.Debug("cannot replace a lingering transaction yet", "nonce", f.nonce, "feeCap", feeCap, "err", err)
		return false // fees unknown, or already at MAX_FEE_PER_GAS
	}
	tx, err := types.SignNewTx(m.key, m.signer, &types.DynamicFeeTx{ChainID: m.chainID, Nonce: f.nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: f.gasLimit, To: prev.To(), Value: prev.Value(), Data: prev.Data(), AccessList: prev.AccessList()})
	if err != nil {
		return false
	}
	sendErr := m.client.SendTransaction(ctx, tx)
	switch classifySend(sendErr) {
	case sendAccepted, sendKnown:
		extra := new(big.Int).Mul(new(big.Int).Sub(feeCap, prev.GasFeeCap()), new(big.Int).SetUint64(f.gasLimit))
		m.gate.reserve(extra)
		m.mu.Lock()
		f.reserved = new(big.Int).Add(f.reserved, extra)
		f.txs = append(f.txs, tx)
		m.byHash[tx.Hash()] = f
		m.mu.Unlock()
		m.metrics.replacements.Inc()
		m.log.Info("replaced a lingering transaction", "nonce", f.nonce, "old", prev.Hash(), "new", tx.Hash(), "feeCap", feeCap)
		return true
	default:
		m.log.Debug("replacement not accepted", "nonce", f.nonce, "err", sendErr)
		return false // mined meanwhile ("nonce too low") or refused: the receipt poll decides
	}
}

func (m *txManager) settle(f *flight, r *types.Receipt, err error) {
	m.mu.Lock()
	if m.inflight[f.nonce] != f { // settled already
		m.mu.Unlock()
		return
	}
	delete(m.inflight, f.nonce)
	for _, tx := range f.txs {
		delete(m.byHash, tx.Hash())
	}
	m.metrics.inFlight.Set(float64(len(m.inflight)))
	m.mu.Unlock()
	m.gate.release(f.reserved)
	f.receipt, f.err = r, err
	close(f.done)
}

// state is what the health report shows.
func (m *txManager) state() (next uint64, inFlight int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.next, len(m.inflight)
}
