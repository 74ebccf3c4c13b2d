package txmgr

// Fast, deterministic tests of the manager's nonce handling against fakeChain, a Backend kept in
// memory. The fake stands in for what a real node cannot be made to do on cue: hold a send's
// answer while others arrive, or refuse one particular send of several. The dev-chain tests
// (txmgr_test.go) remain the acceptance layer.

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// fakeChain is one wallet's view of a chain: a pool by nonce, blocks that mine the pool's run of
// consecutive nonces (mine), and onSend, called with every transaction sent before the pool sees
// it (an error is the node's answer).
type fakeChain struct {
	mu       sync.Mutex
	mined    uint64 // the wallet's next nonce to mine
	pool     map[uint64]*types.Transaction
	blocks   [][]*types.Receipt // blocks[n-1] is block n
	receipts map[common.Hash]*types.Receipt
	sent     []*types.Transaction // every transaction the pool took, in order

	onSend func(tx *types.Transaction) error
	// findNonce, when set, answers FindNonce (else ethereum.NotFound).
	findNonce func(nonce uint64) (chain.MinedNonce, error)
	heads     atomic.Int64 // BlockNumber calls: one at the start of each watch round
	read      atomic.Int64 // BlockReceipts answers with a block
}

var _ Backend = (*fakeChain)(nil)

func newFakeChain() *fakeChain {
	return &fakeChain{pool: map[uint64]*types.Transaction{}, receipts: map[common.Hash]*types.Receipt{}}
}

func (c *fakeChain) BlockNumber(context.Context) (uint64, error) {
	c.heads.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint64(len(c.blocks)), nil
}

func (c *fakeChain) Fees(context.Context) (tip, baseFee *big.Int, head uint64, err error) {
	n, _ := c.BlockNumber(context.Background())
	return big.NewInt(params.GWei), big.NewInt(params.GWei), n, nil
}

// PendingNonceAt is the next nonce after the pool's run of consecutive nonces, as geth answers.
func (c *fakeChain) PendingNonceAt(context.Context, common.Address) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.mined
	for c.pool[n] != nil {
		n++
	}
	return n, nil
}

func (c *fakeChain) PoolTransactions(context.Context, common.Address) ([]*types.Transaction, error) {
	return nil, nil
}

func (c *fakeChain) FindNonce(_ context.Context, _ common.Address, nonce uint64) (chain.MinedNonce, error) {
	c.mu.Lock()
	find := c.findNonce
	c.mu.Unlock()
	if find != nil {
		return find(nonce)
	}
	return chain.MinedNonce{}, ethereum.NotFound
}

func (c *fakeChain) SendTransaction(_ context.Context, tx *types.Transaction) error {
	if c.onSend != nil {
		if err := c.onSend(tx); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if tx.Nonce() < c.mined {
		return rpcErr{"nonce too low"}
	}
	if old := c.pool[tx.Nonce()]; old != nil {
		if old.Hash() == tx.Hash() {
			return rpcErr{"already known"}
		}
		if tx.GasFeeCap().Cmp(old.GasFeeCap()) <= 0 {
			return rpcErr{"replacement transaction underpriced"}
		}
	}
	c.pool[tx.Nonce()] = tx
	c.sent = append(c.sent, tx)
	return nil
}

func (c *fakeChain) TransactionKnown(_ context.Context, hash common.Hash) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tx := range c.pool {
		if tx.Hash() == hash {
			return true, nil
		}
	}
	return c.receipts[hash] != nil, nil
}

func (c *fakeChain) TransactionReceipt(_ context.Context, hash common.Hash) (*types.Receipt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.receipts[hash]; r != nil {
		return r, nil
	}
	return nil, ethereum.NotFound
}

func (c *fakeChain) TransactionReceipts(_ context.Context, hashes []common.Hash) ([]*types.Receipt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*types.Receipt, len(hashes))
	for i, h := range hashes {
		out[i] = c.receipts[h]
	}
	return out, nil
}

func (c *fakeChain) BlockReceipts(_ context.Context, n uint64) ([]*types.Receipt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n == 0 || n > uint64(len(c.blocks)) {
		return nil, ethereum.NotFound
	}
	c.read.Add(1)
	return c.blocks[n-1], nil
}

// mine makes a block of the pool's run of consecutive nonces, and returns what it mined.
func (c *fakeChain) mine() []*types.Transaction {
	c.mu.Lock()
	defer c.mu.Unlock()
	var block []*types.Receipt
	var txs []*types.Transaction
	for tx := c.pool[c.mined]; tx != nil; tx = c.pool[c.mined] {
		delete(c.pool, c.mined)
		r := &types.Receipt{Status: types.ReceiptStatusSuccessful, TxHash: tx.Hash(), GasUsed: tx.Gas(),
			EffectiveGasPrice: tx.GasFeeCap(), BlockNumber: big.NewInt(int64(len(c.blocks) + 1))}
		c.receipts[tx.Hash()] = r
		block, txs = append(block, r), append(txs, tx)
		c.mined++
	}
	c.blocks = append(c.blocks, block)
	return txs
}

// countingGate admits everything and keeps the sum reserved.
type countingGate struct {
	mu       sync.Mutex
	reserved *big.Int
}

func (g *countingGate) Admit(ctx context.Context, cost *big.Int) error {
	g.Reserve(ctx, cost)
	return nil
}
func (g *countingGate) Reserve(_ context.Context, cost *big.Int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved.Add(g.reserved, cost)
}
func (g *countingGate) Settled(ctx context.Context, reserved, _ *big.Int) {
	g.Reserve(ctx, new(big.Int).Neg(reserved))
}
func (g *countingGate) Refresh(context.Context) {}
func (g *countingGate) held() *big.Int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return new(big.Int).Set(g.reserved)
}

type noMetrics struct{}

func (noMetrics) NextNonce(uint64)     {}
func (noMetrics) InFlight(int)         {}
func (noMetrics) Replaced()            {}
func (noMetrics) Rebroadcast()         {}
func (noMetrics) OldestPending(uint64) {}

// fakeManager is a started manager on c whose clock is ahead of the wall's by *ahead.
func fakeManager(t *testing.T, c *fakeChain) (m *Manager, g *countingGate, ahead *atomic.Int64) {
	t.Helper()
	return fakeManagerWith(t, c, Config{ReplaceAfter: time.Hour, ReceiptPoll: 2 * time.Millisecond})
}

// fakeManagerWith is fakeManager with cfg.
func fakeManagerWith(t *testing.T, c *fakeChain, cfg Config) (m *Manager, g *countingGate, ahead *atomic.Int64) {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	g = &countingGate{reserved: new(big.Int)}
	m = New(c, KeySigner(key), 1337, cfg, g, noMetrics{}, nil)
	ahead = new(atomic.Int64)
	m.now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	if _, err := m.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Start()
	t.Cleanup(m.Close)
	return m, g, ahead
}

func transfer(to common.Address) Tx { return Tx{To: to, Value: big.NewInt(1), Gas: params.TxGas} }

// waitAll waits for every flight to settle and fails on one given up.
func waitAll(t *testing.T, flights ...*Flight) {
	t.Helper()
	for _, f := range flights {
		select {
		case <-f.Done():
			if f.Receipt() == nil {
				t.Fatalf("nonce %d given up: %v", f.Nonce(), f.Err())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("nonce %d not settled", f.Nonce())
		}
	}
}

// waitReleased waits for every reservation to come back to g (the round after the last receipt).
func waitReleased(t *testing.T, g *countingGate) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for g.held().Sign() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s wei still reserved after everything was mined", g.held())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Sends run side by side but for the node: n sends are all recorded at once (none waits for
// another's record or answer), and reach the node in nonce order, each after the one below it
// was answered, however their records end: here the highest nonces' records end first. While
// nonce 0's answer is held, the manager's state can be read and no other send is out. (Sent as
// soon as recorded, as before, they reached the node out of order, and a pool keeps only so many
// transactions it cannot execute yet: go-ethereum drops those beyond 64 per account.)
func TestSendsAreRecordedSideBySideAndReachTheNodeInNonceOrder(t *testing.T) {
	t.Parallel()
	const n = 8
	c := newFakeChain()
	var mu sync.Mutex
	var order []uint64
	arrived := make(chan struct{}, n)
	answer := make(chan struct{})
	c.onSend = func(tx *types.Transaction) error {
		mu.Lock()
		order = append(order, tx.Nonce())
		first := len(order) == 1
		mu.Unlock()
		arrived <- struct{}{}
		if first {
			<-answer
		}
		return nil
	}
	m, g, _ := fakeManager(t, c)
	recording := make(chan struct{}, n)
	release := make([]chan struct{}, n) // by nonce
	for i := range release {
		release[i] = make(chan struct{})
	}
	tx := transfer(common.Address{1})
	tx.Record = func(_ context.Context, signed *types.Transaction) error {
		recording <- struct{}{}
		<-release[signed.Nonce()]
		return nil
	}
	results := make(chan *Flight, n)
	for range n {
		go func() {
			f, err := m.Send(context.Background(), tx)
			if err != nil {
				t.Error(err)
			}
			results <- f
		}()
	}
	for i := range n {
		select {
		case <-recording:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d records under way at once: sends wait for each other", i, n)
		}
	}
	for i := n - 1; i > 0; i-- {
		close(release[i])
	}
	time.Sleep(20 * time.Millisecond) // the sends recorded first have time to go out of turn
	close(release[0])
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("no send reached the node")
	}
	time.Sleep(20 * time.Millisecond) // the others have time to go before its answer
	mu.Lock()
	early := slices.Clone(order)
	mu.Unlock()
	if !slices.Equal(early, []uint64{0}) {
		t.Fatalf("nonces %v reached the node while nonce 0's answer was held, want [0] alone", early)
	}
	if _, inFlight := m.State(); inFlight != n {
		t.Fatalf("State while a send waits for its answer: %d in flight, want %d", inFlight, n)
	}
	close(answer)
	var flights []*Flight
	for range n {
		flights = append(flights, <-results)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, got := range order {
		if got != uint64(i) {
			t.Fatalf("the node received nonces %v, want 0…%d in order", order, n-1)
		}
	}
	c.mine()
	waitAll(t, flights...)
	waitReleased(t, g)
}

// refuseNonce makes c refuse (as a node refuses an underpriced transaction) the first send at
// nonce.
func refuseNonce(c *fakeChain, nonce uint64) {
	var mu sync.Mutex
	refused := false
	c.onSend = func(tx *types.Transaction) error {
		mu.Lock()
		defer mu.Unlock()
		if tx.Nonce() == nonce && !refused {
			refused = true
			return rpcErr{"transaction underpriced"}
		}
		return nil
	}
}

// together is a Record that returns once n sends have called it: their nonces are all taken
// before any is sent.
func together(n int) func(context.Context, *types.Transaction) error {
	var wg sync.WaitGroup
	wg.Add(n)
	return func(context.Context, *types.Transaction) error {
		wg.Done()
		wg.Wait()
		return nil
	}
}

// A send whose caller gives up while it waits for its turn (the send below it not answered yet)
// sends nothing: it answers the caller's error, and its nonce, recorded but never sent, is free
// again for the next send. Sent regardless, it would be a transaction its caller was told failed.
func TestASendGivenUpBeforeItsTurnSendsNothing(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, g, _ := fakeManager(t, c)
	release := make(chan struct{})
	first := transfer(common.Address{6})
	first.Record = func(context.Context, *types.Transaction) error { <-release; return nil }
	done := make(chan *Flight)
	go func() {
		f, err := m.Send(context.Background(), first)
		if err != nil {
			t.Error(err)
		}
		done <- f
	}()
	for next, _ := m.State(); next != 1; next, _ = m.State() { // nonce 0 taken, its record under way
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	second := transfer(common.Address{6})
	second.Record = func(context.Context, *types.Transaction) error { cancel(); return nil }
	if _, err := m.Send(ctx, second); !errors.Is(err, context.Canceled) {
		t.Fatalf("a send given up before its turn answered %v", err)
	}
	close(release)
	f := <-done
	third, err := m.Send(context.Background(), transfer(common.Address{6}))
	if err != nil {
		t.Fatal(err)
	}
	if third.Nonce() != 1 {
		t.Fatalf("the send after one given up took nonce %d, want its nonce 1", third.Nonce())
	}
	c.mu.Lock()
	sent := len(c.sent)
	c.mu.Unlock()
	if sent != 2 {
		t.Fatalf("%d transactions reached the node, want 2 (the one given up never)", sent)
	}
	c.mine()
	waitAll(t, f, third)
	waitReleased(t, g)
}

// A send the node refuses gives its nonce back while later nonces are out: the next send takes
// it, so the nonces stay without a gap and every flight is mined.
func TestARefusedNonceIsTheNextSendsNonce(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	refuseNonce(c, 1)
	m, g, _ := fakeManager(t, c)
	to := common.Address{2}
	recordAll := together(3)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var flights []*Flight
	refused := 0
	for range 3 {
		wg.Go(func() {
			tx := transfer(to)
			tx.Record = recordAll
			f, err := m.Send(context.Background(), tx)
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(err, ErrRejected) {
				refused++
			} else if err != nil {
				t.Error(err)
			} else {
				flights = append(flights, f)
			}
		})
	}
	wg.Wait()
	if refused != 1 || len(flights) != 2 {
		t.Fatalf("%d refused, %d sent; want 1 and 2", refused, len(flights))
	}
	if got := c.mine(); len(got) != 1 {
		t.Fatalf("mined %d before the gap is taken, want 1 (nonce 0)", len(got))
	}
	f, err := m.Send(context.Background(), transfer(to))
	if err != nil {
		t.Fatal(err)
	}
	if f.Nonce() != 1 {
		t.Fatalf("the send after the refusal took nonce %d, want the one given back (1)", f.Nonce())
	}
	c.mine()
	waitAll(t, append(flights, f)...)
	if next, _ := m.State(); next != 3 {
		t.Fatalf("next nonce %d, want 3", next)
	}
	waitReleased(t, g)
}

// A nonce given back that no send takes, with a later flight waiting behind it, is filled after
// gapFillAfter (by the manager's clock) with a transfer of nothing from the wallet to itself,
// and then everything is mined.
func TestAGapNoSendTakesIsFilled(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	refuseNonce(c, 1)
	m, g, ahead := fakeManager(t, c)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var flights []*Flight
	recordAll := together(3)
	for range 3 {
		wg.Go(func() {
			tx := transfer(common.Address{3})
			tx.Record = recordAll
			if f, err := m.Send(context.Background(), tx); err == nil {
				mu.Lock()
				flights = append(flights, f)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	time.Sleep(50 * time.Millisecond) // many watch rounds: not filled before its time
	c.mu.Lock()
	early := len(c.sent)
	c.mu.Unlock()
	if early != 2 {
		t.Fatalf("%d transactions in the pool before gapFillAfter, want the 2 sent", early)
	}
	ahead.Store(int64(gapFillAfter + time.Second))
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		filler := c.pool[1]
		c.mu.Unlock()
		if filler != nil {
			if *filler.To() != m.From() || filler.Value().Sign() != 0 || filler.Gas() != params.TxGas {
				t.Fatalf("the gap was filled with a transfer of %s to %s (gas %d), want nothing to the wallet itself", filler.Value(), filler.To(), filler.Gas())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the gap at nonce 1 was not filled")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := c.mine(); len(got) != 3 {
		t.Fatalf("mined %d, want nonces 0, 1 (the filler) and 2", len(got))
	}
	waitAll(t, flights...)
	waitReleased(t, g) // the filler's reservation included
}

// A refused send with nothing after it leaves no gap: the counter goes back, and the next send
// takes the same nonce.
func TestARefusedLastNonceIsNotSkipped(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	refuse := true
	c.onSend = func(*types.Transaction) error {
		if refuse {
			refuse = false
			return rpcErr{"insufficient funds for gas * price + value"}
		}
		return nil
	}
	m, _, _ := fakeManager(t, c)
	if _, err := m.Send(context.Background(), transfer(common.Address{4})); !errors.Is(err, ErrRejected) {
		t.Fatalf("the refused send answered %v", err)
	}
	f, err := m.Send(context.Background(), transfer(common.Address{4}))
	if err != nil {
		t.Fatal(err)
	}
	if f.Nonce() != 0 {
		t.Fatalf("the send after a refused one took nonce %d, want 0", f.Nonce())
	}
	c.mine()
	waitAll(t, f)
}

// A transaction signed before a crash and sent again beyond the counter (the crash came after a
// later nonce went out but before an earlier one did) leaves the nonces it skips free: the next
// send takes them, so it does not wait behind a gap forever.
func TestNoncesAResendSkipsAreTakenNext(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, _, _ := fakeManager(t, c)
	signed, err := m.sign(context.Background(), &types.DynamicFeeTx{Nonce: 1, GasTipCap: big.NewInt(params.GWei),
		GasFeeCap: big.NewInt(3 * params.GWei), Gas: params.TxGas, To: &common.Address{5}, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	late, err := m.Resend(context.Background(), signed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Send(context.Background(), transfer(common.Address{5}))
	if err != nil {
		t.Fatal(err)
	}
	if f.Nonce() != 0 {
		t.Fatalf("the send after a resend at nonce 1 took nonce %d, want the skipped 0", f.Nonce())
	}
	c.mine()
	waitAll(t, f, late)
}

// An operator's Bump replaces a transaction in flight at the next round, not after ReplaceAfter
// (an hour here): a second version at its nonce with a higher fee cap, which is the one mined and
// followed. A nonce with nothing in flight is ErrNoFlight.
func TestABumpReplacesAFlightNow(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, g, _ := fakeManager(t, c)
	f, err := m.Send(context.Background(), transfer(common.Address{7}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Bump(f.Nonce() + 1); !errors.Is(err, ErrNoFlight) {
		t.Fatalf("bump of a nonce with nothing in flight: %v", err)
	}
	if replacing, err := m.Bump(f.Nonce()); err != nil || replacing != f.Hash() {
		t.Fatalf("bump: %v, replacing %s, want %s", err, replacing, f.Hash())
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.mu.Lock()
		sent := append([]*types.Transaction(nil), c.sent...)
		c.mu.Unlock()
		if len(sent) == 2 {
			if sent[1].Nonce() != f.Nonce() || sent[1].GasFeeCap().Cmp(sent[0].GasFeeCap()) <= 0 {
				t.Fatalf("the bump sent nonce %d at fee cap %s after %s", sent[1].Nonce(), sent[1].GasFeeCap(), sent[0].GasFeeCap())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no replacement 5 s after a bump (%d sent)", len(sent))
		}
		time.Sleep(2 * time.Millisecond)
	}
	mined := c.mine()
	waitAll(t, f)
	if f.Receipt().TxHash != mined[0].Hash() || mined[0].Hash() != c.sent[1].Hash() {
		t.Fatal("the replacement is not the version mined and followed")
	}
	waitReleased(t, g)
}

// Every version given to Record that the node does not take is given to Unsent, with the
// version that stands: a refused first send with none, a refused replacement with the version
// before it.
func TestVersionsNotTakenAreUnsent(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, _, _ := fakeManager(t, c)
	var mu sync.Mutex
	var recorded []common.Hash
	type unsent struct{ version, standing common.Hash }
	var gone []unsent
	tx := transfer(common.Address{7})
	tx.Record = func(_ context.Context, v *types.Transaction) error {
		mu.Lock()
		defer mu.Unlock()
		recorded = append(recorded, v.Hash())
		return nil
	}
	tx.Unsent = func(_ context.Context, v, standing *types.Transaction) {
		mu.Lock()
		defer mu.Unlock()
		u := unsent{version: v.Hash()}
		if standing != nil {
			u.standing = standing.Hash()
		}
		gone = append(gone, u)
	}
	var refuse atomic.Bool
	refuse.Store(true)
	c.onSend = func(*types.Transaction) error {
		if refuse.Load() {
			return rpcErr{"insufficient funds for gas * price + value"}
		}
		return nil
	}
	if _, err := m.Send(context.Background(), tx); !errors.Is(err, ErrRejected) {
		t.Fatalf("a refused send: %v", err)
	}
	mu.Lock()
	if len(recorded) != 1 || !slices.Equal(gone, []unsent{{version: recorded[0]}}) {
		t.Fatalf("after a refused send: recorded %v, unsent %v", recorded, gone)
	}
	recorded, gone = nil, nil
	mu.Unlock()

	refuse.Store(false)
	f, err := m.Send(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	refuse.Store(true)
	if _, err := m.Bump(f.Nonce()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		mu.Lock()
		n := len(gone)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a refused replacement was not unsent 5 s after a bump")
		}
	}
	mu.Lock()
	if len(recorded) != 2 || gone[0] != (unsent{recorded[1], f.Hash()}) || recorded[0] != f.Hash() {
		t.Fatalf("after a refused replacement: recorded %v, unsent %v (the flight's version %s)", recorded, gone, f.Hash())
	}
	mu.Unlock()
	refuse.Store(false)
	c.mine()
	waitAll(t, f)
}

// A flight given up (giveUpAfter) whose transaction the pool then drops leaves its nonce with
// nothing at it: the flights after it would wait for ever. The nonce is found empty at the
// node's pending nonce and filled, and the later flight is mined.
func TestAGivenUpNonceDroppedIsFilled(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, _, ahead := fakeManager(t, c)
	first, err := m.Send(context.Background(), transfer(common.Address{7}))
	if err != nil {
		t.Fatal(err)
	}
	ahead.Store(int64(giveUpAfter + time.Minute))
	select {
	case <-first.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not given up")
	}
	c.mu.Lock()
	delete(c.pool, first.Nonce()) // the pool drops it
	c.mu.Unlock()
	second, err := m.Send(context.Background(), transfer(common.Address{8}))
	if err != nil {
		t.Fatal(err)
	}
	if second.Nonce() != first.Nonce()+1 {
		t.Fatalf("the second send at nonce %d, want %d", second.Nonce(), first.Nonce()+1)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		c.mine() // a block: the node's pending nonce is looked at
		select {
		case <-second.Done():
			if second.Receipt() == nil {
				t.Fatalf("the flight after the gap: %v", second.Err())
			}
			return
		default:
		}
		ahead.Add(int64(time.Second)) // the gap waits gapFillAfter for a send to take it
		if time.Now().After(deadline) {
			t.Fatal("the flight after a given-up, dropped nonce is never mined")
		}
	}
}

// Under a MAX_FEE_PER_GAS less than 10 % above a version's fee cap, no replacement a node would
// take exists: a Bump is refused, and a lingering flight is broadcast again as it is rather
// than replaced by a version the node refuses.
func TestNoReplacementWithinTenPercentOfTheLimit(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, _, ahead := fakeManagerWith(t, c, Config{ReplaceAfter: time.Minute, ReceiptPoll: 2 * time.Millisecond,
		MaxFeePerGas: big.NewInt(3*params.GWei + params.GWei/5)})
	f, err := m.Send(context.Background(), transfer(common.Address{7}))
	if err != nil {
		t.Fatal(err)
	}
	if f.newest().GasFeeCap().Cmp(big.NewInt(3*params.GWei)) != 0 {
		t.Fatalf("the first version's fee cap %s, want the fake's 3 gwei", f.newest().GasFeeCap())
	}
	if _, err := m.Bump(f.Nonce()); !errors.Is(err, ErrNotReplaceable) {
		t.Fatalf("a bump 7 %% under the limit: %v, want ErrNotReplaceable", err)
	}
	var sends atomic.Int64
	c.onSend = func(*types.Transaction) error { sends.Add(1); return nil }
	ahead.Store(int64(2 * time.Minute)) // lingering: the watch loop's replacement rounds
	for deadline := time.Now().Add(5 * time.Second); sends.Load() < 1; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no replacement round 5 s after the flight lingered")
		}
	}
	c.mu.Lock()
	sent := len(c.sent)
	c.mu.Unlock()
	if sent != 1 {
		t.Fatalf("%d versions sent, want the first alone (a replacement 7 %% above it is refused by nodes)", sent)
	}
	c.mine()
	waitAll(t, f)
}

// An operator's Cancel has the next round replace a flight with a transfer of nothing to the
// wallet itself, fees above its newest version's; a Bump then replaces the cancel with another
// (a cancel's replacement is a cancel); mined, the flight ends ErrCancelled with no receipt, no
// cancel was recorded, and its reservation comes back. A nonce with nothing in flight is
// ErrNoFlight.
func TestACancelEndsAFlightCancelled(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, g, _ := fakeManager(t, c)
	recorded := 0
	tx := transfer(common.Address{9})
	tx.Record = func(context.Context, *types.Transaction) error { recorded++; return nil }
	f, err := m.Send(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Cancel(f.Nonce() + 1); !errors.Is(err, ErrNoFlight) {
		t.Fatalf("cancel of a nonce with nothing in flight: %v", err)
	}
	if replacing, err := m.Cancel(f.Nonce()); err != nil || replacing != f.Hash() {
		t.Fatalf("cancel: %v, replacing %s, want %s", err, replacing, f.Hash())
	}
	sent := func(n int) []*types.Transaction {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			c.mu.Lock()
			out := append([]*types.Transaction(nil), c.sent...)
			c.mu.Unlock()
			if len(out) >= n {
				return out
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d sent, want %d", len(out), n)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	cancel := sent(2)[1]
	if cancel.Nonce() != f.Nonce() || *cancel.To() != m.From() || cancel.Value().Sign() != 0 || len(cancel.Data()) != 0 ||
		cancel.GasFeeCap().Cmp(c.sent[0].GasFeeCap()) <= 0 {
		t.Fatalf("the cancel: nonce %d to %s value %s fee cap %s", cancel.Nonce(), cancel.To(), cancel.Value(), cancel.GasFeeCap())
	}
	if _, err := m.Bump(f.Nonce()); err != nil {
		t.Fatal(err)
	}
	if again := sent(3)[2]; *again.To() != m.From() || len(again.Data()) != 0 {
		t.Fatal("the cancel's replacement is not a cancel")
	}
	c.mine()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled flight did not settle")
	}
	if f.Receipt() != nil || !errors.Is(f.Err(), ErrCancelled) {
		t.Fatalf("the cancelled flight: receipt %v, err %v", f.Receipt(), f.Err())
	}
	if recorded != 1 {
		t.Fatalf("%d versions recorded, want 1 (the cancels are not the flight's own)", recorded)
	}
	waitReleased(t, g)
}

// deadlineFence is a fence held all along whose Hold answers the deadline the test sets: a
// deadline already past stands for one taken when a send began that passed while the send
// waited for its turn, the lease renewed meanwhile (a real lease cannot be made to do that on
// cue).
type deadlineFence struct {
	mu    sync.Mutex
	until time.Time
}

func (f *deadlineFence) set(until time.Time) { f.mu.Lock(); f.until = until; f.mu.Unlock() }
func (f *deadlineFence) Hold() (time.Time, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.until, nil
}

// The fence's deadline bounds the handing to the node, not the wait for a turn: a send whose
// first deadline passed while the send below it waited for its answer is sent once its turn
// comes, by the deadline the fence gives then, the lease being held. (Bounded from the start,
// it timed out in a long burst, its nonce given back and filled with a transfer to the wallet
// itself.)
func TestALeaseDeadlineDoesNotBoundTheWaitForATurn(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	answer := make(chan struct{})
	c.onSend = func(tx *types.Transaction) error {
		if tx.Nonce() == 0 {
			<-answer
		}
		return nil
	}
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	g := &countingGate{reserved: new(big.Int)}
	m := New(c, KeySigner(key), 1337, Config{ReplaceAfter: time.Hour, ReceiptPoll: 2 * time.Millisecond}, g, noMetrics{}, nil)
	fence := &deadlineFence{until: time.Now().Add(time.Hour)}
	m.SetFence(fence)
	if _, err := m.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Start()
	t.Cleanup(m.Close)

	first := make(chan *Flight, 1)
	go func() {
		f, err := m.Send(context.Background(), transfer(common.Address{10}))
		if err != nil {
			t.Error(err)
		}
		first <- f
	}()
	for next, _ := m.State(); next != 1; next, _ = m.State() { // nonce 0 out, its answer held
		time.Sleep(time.Millisecond)
	}
	fence.set(time.Now().Add(-time.Second))
	type result struct {
		f   *Flight
		err error
	}
	second := make(chan result, 1)
	go func() {
		f, err := m.Send(context.Background(), transfer(common.Address{10}))
		second <- result{f, err}
	}()
	var r result
	for next, _ := m.State(); next != 2; next, _ = m.State() { // nonce 1 taken: it waits for its turn
		select {
		case r = <-second:
			close(answer)
			t.Fatalf("a send whose first fence deadline passed while it waited for its turn: %v", r.err)
		case <-time.After(time.Millisecond):
		}
	}
	fence.set(time.Now().Add(time.Hour))
	close(answer)
	r = <-second
	if r.err != nil {
		t.Fatalf("a send whose first fence deadline passed while it waited for its turn: %v", r.err)
	}
	f := <-first
	c.mine()
	waitAll(t, f, r.f)
	waitReleased(t, g)
}

// A block that mines flights still being sent does not settle them: a transaction sent before a
// crash (Resend, at nonce 1) and the send below it, whose answer is held, are both mined in block
// 1 before either is answered. Settled then, the resend waited for a turn nothing passed (it hung),
// and released its reservation again on an error. Once answered, both settle by the lookup, and
// the reservations come back once. (A fake: a real node cannot hold one send's answer on cue.)
func TestABlockDoesNotSettleAFlightBeingSent(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	out, answer := make(chan struct{}), make(chan struct{})
	c.onSend = func(tx *types.Transaction) error {
		if tx.Nonce() == 0 {
			c.mu.Lock()
			c.pool[0] = tx // in the pool, its answer not given yet
			c.mu.Unlock()
			close(out)
			<-answer
		}
		return nil
	}
	m, g, _ := fakeManager(t, c)
	first := make(chan *Flight, 1)
	go func() {
		f, err := m.Send(context.Background(), transfer(common.Address{11}))
		if err != nil {
			t.Error(err)
		}
		first <- f
	}()
	<-out
	signed, err := m.sign(context.Background(), &types.DynamicFeeTx{Nonce: 1, GasTipCap: big.NewInt(params.GWei),
		GasFeeCap: big.NewInt(3 * params.GWei), Gas: params.TxGas, To: &common.Address{11}, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.pool[1] = signed // sent before the crash
	c.mu.Unlock()
	type result struct {
		f   *Flight
		err error
	}
	second := make(chan result, 1)
	go func() {
		f, err := m.Resend(context.Background(), signed, nil, nil)
		second <- result{f, err}
	}()
	for _, inFlight := m.State(); inFlight != 2; _, inFlight = m.State() { // the resend waits for its turn
		time.Sleep(time.Millisecond)
	}
	if got := c.mine(); len(got) != 2 {
		t.Fatalf("mined %d, want nonces 0 and 1", len(got))
	}
	for c.read.Load() == 0 { // the watch read block 1's receipts
		time.Sleep(time.Millisecond)
	}
	for round := c.heads.Load(); c.heads.Load() == round; { // and ended that round (or went idle)
		if _, inFlight := m.State(); inFlight == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(answer)
	var r result
	select {
	case r = <-second:
	case <-time.After(10 * time.Second):
		t.Fatal("the resend still waits for its turn: its flight was settled while it was being sent")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	waitAll(t, <-first, r.f)
	waitReleased(t, g)
}

// A mined cancel whose receipt a lagging index no longer finds by hash is not taken for a reorg
// while the chain's state shows it at its nonce (FindNonce): the flight is neither followed again
// nor given up (by the clock, it is past giveUpAfter), and it settles cancelled once deep enough.
// (A fake: a dev chain's receipt index does not lag.)
func TestALaggingReceiptIndexIsNotTakenForACancelsReorg(t *testing.T) {
	t.Parallel()
	c := newFakeChain()
	m, g, ahead := fakeManagerWith(t, c, Config{ReplaceAfter: time.Hour, ReceiptPoll: 2 * time.Millisecond, DisplacedAfter: 3})
	f, err := m.Send(context.Background(), transfer(common.Address{12}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Cancel(f.Nonce()); err != nil {
		t.Fatal(err)
	}
	for {
		c.mu.Lock()
		sent := len(c.sent)
		c.mu.Unlock()
		if sent == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel := c.mine()[0]
	if *cancel.To() != m.From() {
		t.Fatal("the transaction mined is not the cancel")
	}
	for { // the watch saw it mined, too shallow to settle
		m.mu.Lock()
		seen := f.cancelMined != nil
		m.mu.Unlock()
		if seen {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var asked atomic.Int64
	c.mu.Lock()
	lost := c.receipts[cancel.Hash()]
	delete(c.receipts, cancel.Hash()) // the index lags
	c.findNonce = func(uint64) (chain.MinedNonce, error) {
		asked.Add(1)
		return chain.MinedNonce{Tx: cancel.Hash(), Block: 1, Head: 1}, nil
	}
	c.mu.Unlock()
	ahead.Store(int64(giveUpAfter + time.Minute)) // every round looks up, and the flight is due to be given up
	for asked.Load() < 2 {                        // two lookups that missed
		select {
		case <-f.Done():
			t.Fatalf("a cancel the index lost was taken for a reorg: the flight ended %v", f.Err())
		case <-time.After(time.Millisecond):
		}
	}
	m.mu.Lock()
	kept := f.cancelMined != nil
	m.mu.Unlock()
	if !kept {
		t.Fatal("the mined cancel was forgotten though the chain still has it at its nonce")
	}
	c.mu.Lock()
	c.receipts[cancel.Hash()] = lost
	c.mu.Unlock()
	c.mine()
	c.mine()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled flight did not settle once deep enough")
	}
	if !errors.Is(f.Err(), ErrCancelled) {
		t.Fatalf("the flight ended %v, want ErrCancelled", f.Err())
	}
	waitReleased(t, g)
}
