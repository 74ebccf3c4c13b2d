package txmgr_test

import (
	"context"
	"errors"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

var ctx = context.Background()

// manager is a transaction manager of the dev faucet account, with its real balance gate.
func manager(t *testing.T, c *devchain.Chain, replaceAfter time.Duration) *txmgr.Manager {
	t.Helper()
	return managerWith(t, c, replaceAfter, gate.Budget{}, prometheus.NewRegistry(), nil)
}

// managerWith is manager with a spend budget, its metrics on reg, and a fence (nil: none).
func managerWith(t *testing.T, c *devchain.Chain, replaceAfter time.Duration, budget gate.Budget, reg *prometheus.Registry, fence txmgr.Fence) *txmgr.Manager {
	t.Helper()
	return managerCapped(t, c, replaceAfter, budget, reg, fence, nil)
}

// managerCapped is managerWith with a MAX_FEE_PER_GAS (nil: none).
func managerCapped(t *testing.T, c *devchain.Chain, replaceAfter time.Duration, budget gate.Budget, reg *prometheus.Registry, fence txmgr.Fence, maxFee *big.Int) *txmgr.Manager {
	t.Helper()
	return managerOn(t, c, c.RPCURL, replaceAfter, budget, reg, fence, maxFee)
}

// managerOn is managerCapped reading the chain through rpcURL; set runs on the manager before
// it syncs.
func managerOn(t *testing.T, c *devchain.Chain, rpcURL string, replaceAfter time.Duration, budget gate.Budget, reg *prometheus.Registry, fence txmgr.Fence, maxFee *big.Int, set ...func(*txmgr.Manager)) *txmgr.Manager {
	t.Helper()
	m := unsynced(t, c, rpcURL, replaceAfter, budget, reg, fence, maxFee, set...)
	if _, err := m.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	m.Start()
	t.Cleanup(m.Close)
	return m
}

// unsynced is managerOn before its Sync and Start.
func unsynced(t *testing.T, c *devchain.Chain, rpcURL string, replaceAfter time.Duration, budget gate.Budget, reg *prometheus.Registry, fence txmgr.Fence, maxFee *big.Int, set ...func(*txmgr.Manager)) *txmgr.Manager {
	t.Helper()
	client, err := chain.Dial(rpcURL, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	g := gate.New(client, gate.Config{Wallet: c.Accounts.Faucet.Address, Min: big.NewInt(0), Poll: time.Second, Name: "test", Work: "tests",
		Setting: "MIN", Budget: budget, BudgetSetting: "LIMIT"}, gate.NewMetrics(reg, "test", "balance"), nil)
	m := txmgr.New(client, txmgr.KeySigner(c.Accounts.Faucet.Key), c.ChainID, txmgr.Config{ReplaceAfter: replaceAfter, ReceiptPoll: 20 * time.Millisecond, MaxFeePerGas: maxFee},
		g, txmgr.NewMetrics(reg, "test"), nil)
	if fence != nil {
		m.SetFence(fence)
	}
	for _, f := range set {
		f(m)
	}
	return m
}

func fresh(t *testing.T) common.Address {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey)
}

// Every signed version of a transaction, the first and each fee-bumped replacement, is handed
// to Record while the node does not know it yet; the one mined is among them.
func TestEveryVersionIsRecordedBeforeItIsSent(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	m := manager(t, c, 100*time.Millisecond)
	var mu sync.Mutex
	var recorded []*types.Transaction
	record := func(_ context.Context, tx *types.Transaction) error {
		// Bounded: this check is the test's, and a node slow to answer it (a loaded CI machine
		// once took 30 s) must not hold the manager's replacement up behind it.
		lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		switch _, _, err := c.Client().TransactionByHash(lctx, tx.Hash()); {
		case errors.Is(err, ethereum.NotFound):
		case lctx.Err() != nil:
			t.Logf("version %s: the node did not say in time whether it had it", tx.Hash())
		default:
			t.Errorf("version %s recorded after the node had it (%v)", tx.Hash(), err)
		}
		mu.Lock()
		defer mu.Unlock()
		recorded = append(recorded, tx)
		return nil
	}
	c.PauseSealing()
	to := fresh(t)
	f, err := m.Send(ctx, txmgr.Tx{To: to, Value: big.NewInt(1234), Gas: 21_000, Record: record})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second) // replacements every 100 ms; a loaded CI machine once stalled them ~10 s (two 5 s RPC timeouts)
	for {
		mu.Lock()
		n := len(recorded)
		mu.Unlock()
		if n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d versions recorded, want a replacement or two", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ResumeSealing()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not mined")
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, tx := range recorded {
		if tx.Nonce() != f.Nonce() || tx.Value().Cmp(big.NewInt(1234)) != 0 {
			t.Fatalf("a recorded version with nonce %d value %s, want %d and 1234", tx.Nonce(), tx.Value(), f.Nonce())
		}
		found = found || tx.Hash() == f.Receipt().TxHash
	}
	if !found {
		t.Fatalf("the mined version %s was never recorded", f.Receipt().TxHash)
	}
	if got, _ := c.Client().BalanceAt(ctx, to, nil); got.Cmp(big.NewInt(1234)) != 0 {
		t.Fatalf("recipient holds %s", got)
	}
}

// A failed Record stops the version: nothing is sent and the nonce stays free.
func TestFailedRecordSendsNothing(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	m := manager(t, c, time.Minute)
	next, _ := m.State()
	_, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000, Record: func(context.Context, *types.Transaction) error { return errors.New("disk full") }})
	if err == nil {
		t.Fatal("sent although the record failed")
	}
	if pending, _ := c.Client().PendingNonceAt(ctx, c.Accounts.Faucet.Address); pending != next {
		t.Fatalf("pending nonce %d, want %d: something was sent", pending, next)
	}
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000})
	if err != nil || f.Nonce() != next {
		t.Fatalf("next send: nonce %v, err %v; want nonce %d", f, err, next)
	}
}

// A transaction recorded by one manager is followed by the next one with Resend (the same hash,
// no second transaction); a transaction whose nonce another used is ErrNonceUsed.
func TestResend(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	c.PauseSealing()
	first := manager(t, c, time.Minute)
	var kept *types.Transaction
	if _, err := first.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(7), Gas: 21_000, Record: func(_ context.Context, tx *types.Transaction) error { kept = tx; return nil }}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	second := manager(t, c, time.Minute) // adopts it from the pool
	f, err := second.Resend(ctx, kept, nil, nil)
	if err != nil || f.Hash() != kept.Hash() {
		t.Fatalf("Resend: %v, %v", f, err)
	}
	c.ResumeSealing()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not mined")
	}
	if f.Receipt().TxHash != kept.Hash() {
		t.Fatalf("mined %s, want the kept %s", f.Receipt().TxHash, kept.Hash())
	}
	// Another transaction at the same nonce with other contents: its nonce is used.
	other, _ := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(kept.ChainId()), &types.DynamicFeeTx{
		ChainID: kept.ChainId(), Nonce: kept.Nonce(), GasTipCap: kept.GasTipCap(), GasFeeCap: kept.GasFeeCap(), Gas: 21_000, To: kept.To(), Value: big.NewInt(8)})
	if _, err := second.Resend(ctx, other, nil, nil); !errors.Is(err, txmgr.ErrNonceUsed) {
		t.Fatalf("Resend of a displaced transaction: %v, want ErrNonceUsed", err)
	}
}

// A transaction of the wallet's queued in the node's pool, behind a nonce no node has (its send
// lost, or not yet promoted by the pool), is adopted at start like an executable one: the next
// send does not take its nonce, and the nonce below it is filled, so that it is mined. One
// further ahead than a pool keeps is left alone.
func TestAQueuedTransactionIsAdopted(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	next, err := c.Client().PendingNonceAt(ctx, c.Accounts.Faucet.Address)
	if err != nil {
		t.Fatal(err)
	}
	m := unsynced(t, c, c.RPCURL, time.Minute, gate.Budget{}, prometheus.NewRegistry(), nil, nil)
	head, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	to := fresh(t)
	queued, err := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(c.ChainID), Nonce: next + 1, GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Add(big.NewInt(params.GWei), new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
		Gas: 21_000, To: &to, Value: big.NewInt(5)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client().SendTransaction(ctx, queued); err != nil {
		t.Fatal(err)
	}
	// One further ahead than a pool keeps is left alone: adopting it would fill every nonce below.
	far, err := types.SignNewTx(c.Accounts.Faucet.Key, types.LatestSignerForChainID(new(big.Int).SetUint64(c.ChainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(c.ChainID), Nonce: next + 500, GasTipCap: queued.GasTipCap(), GasFeeCap: queued.GasFeeCap(), Gas: 21_000, To: &to, Value: big.NewInt(6)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Client().SendTransaction(ctx, far); err != nil {
		t.Fatal(err)
	}
	if adopted, err := m.Sync(ctx); err != nil || adopted != 1 {
		t.Fatalf("Sync adopted %d (%v), want the queued transaction alone (not the one 500 nonces ahead)", adopted, err)
	}
	m.Start()
	t.Cleanup(m.Close)
	edgetest.WaitFor(t, "the queued transaction mined, the nonce below it filled", func() bool {
		r, err := c.Client().TransactionReceipt(ctx, queued.Hash())
		return err == nil && r.Status == types.ReceiptStatusSuccessful
	})
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(7), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	if f.Nonce() != next+2 {
		t.Fatalf("the next send took nonce %d, want %d (above the adopted one)", f.Nonce(), next+2)
	}
	select {
	case <-f.Done():
		if f.Err() != nil {
			t.Fatal(f.Err())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the send after the adopted transaction was not mined")
	}
}

// What a mined transaction cost the wallet is what the spend budget counts: once it settles, the
// window's spending is exactly the balance's decrease (the gas it used at the price it paid,
// and its value), not its reservation at the fee cap.
func TestSpendingCountsWhatWasPaid(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	reg := prometheus.NewRegistry()
	m := managerWith(t, c, time.Minute, gate.Budget{Limit: new(big.Int).Lsh(big.NewInt(1), 100), Window: time.Hour}, reg, nil)
	from := c.Accounts.Faucet.Address
	before, err := c.Client().BalanceAt(ctx, from, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1e15), Gas: 50_000}) // 21,000 used of 50,000
	if err != nil {
		t.Fatal(err)
	}
	<-f.Done()
	after, err := c.Client().BalanceAt(ctx, from, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := gate.WeiToEther(new(big.Int).Sub(before, after))
	spent := func() float64 {
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range families {
			if mf.GetName() == "vaultd_test_spend_window_ether" {
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Fatal("no vaultd_test_spend_window_ether")
		return 0
	}
	deadline := time.Now().Add(5 * time.Second)
	for spent() != want { // the reservation is released after the balance refresh that follows the receipt
		if time.Now().After(deadline) {
			t.Fatalf("spend_window_ether %v, want the balance's decrease %v", spent(), want)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// And never both: from the send until it is settled, the window holds the transaction's
	// reservation, then what it paid; never the two at once (which refused claims under the limit
	// for the moment between the receipt and the balance refresh).
	reserved := 0.0
	var most float64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			default:
			}
			most = max(most, spent()-want) // what the second transaction adds to the first's payment
		}
	}()
	f2, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1e15), Gas: 50_000})
	if err != nil {
		t.Fatal(err)
	}
	reserved = gate.WeiToEther(new(big.Int).Add(new(big.Int).Mul(f2.Transaction().GasFeeCap(), big.NewInt(50_000)), big.NewInt(1e15)))
	<-f2.Done()
	for deadline := time.Now().Add(5 * time.Second); spent() > 2*want+1e-12; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(20 * time.Millisecond)
	close(stop)
	<-sampled
	if most > reserved*(1+1e-9) {
		t.Fatalf("the window held %v for the second transaction, more than its reservation %v: counted as reserved and paid at once", most, reserved)
	}
}

// switchFence is a fence the test opens and closes. The lease behind the relayer's fence, with
// its timing against a real Redis, is tested in service/kit/lease; here, what the manager does with
// a fence's answer.
type switchFence struct {
	mu     sync.Mutex
	closed bool
}

func (f *switchFence) set(closed bool) { f.mu.Lock(); f.closed = closed; f.mu.Unlock() }

func (f *switchFence) Hold() (time.Time, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return time.Time{}, errors.New("lease lapsed (test)")
	}
	return time.Now().Add(time.Minute), nil
}

// A closed fence stops every send: a new transaction (ErrFenced, nothing sent, the nonce kept
// for the next) and the replacement of a lingering one (none while closed, resumed once open).
func TestAClosedFenceSendsNothing(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	fence := &switchFence{}
	m := managerWith(t, c, 100*time.Millisecond, gate.Budget{}, prometheus.NewRegistry(), fence)
	next, _ := m.State()
	fence.set(true)
	if _, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000}); !errors.Is(err, txmgr.ErrFenced) {
		t.Fatalf("a send through a closed fence: %v, want ErrFenced", err)
	}
	if pending, _ := c.Client().PendingNonceAt(ctx, c.Accounts.Faucet.Address); pending != next {
		t.Fatalf("pending nonce %d, want %d: something was sent", pending, next)
	}
	fence.set(false)

	var mu sync.Mutex
	versions := 0
	record := func(context.Context, *types.Transaction) error { mu.Lock(); versions++; mu.Unlock(); return nil }
	count := func() int { mu.Lock(); defer mu.Unlock(); return versions }
	c.PauseSealing()
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000, Record: record})
	if err != nil {
		t.Fatal(err)
	}
	if f.Nonce() != next {
		t.Fatalf("nonce %d after a fenced send, want %d", f.Nonce(), next)
	}
	fence.set(true)
	before := count()
	time.Sleep(600 * time.Millisecond) // six REPLACE_AFTERs
	if n := count(); n != before {
		t.Fatalf("%d replacements signed through a closed fence", n-before)
	}
	fence.set(false)
	deadline := time.Now().Add(10 * time.Second)
	for count() == before {
		if time.Now().After(deadline) {
			t.Fatal("no replacement once the fence opened again")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.ResumeSealing()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not mined")
	}
}

// spendWindow reads the gate's vaultd_test_spend_window_ether from reg.
func spendWindow(t *testing.T, reg *prometheus.Registry) float64 {
	return gauge(t, reg, "vaultd_test_spend_window_ether")
}

// gauge reads the value of the metric (a gauge or a counter) named name from reg.
func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range families {
		if mf.GetName() == name {
			m := mf.GetMetric()[0]
			if m.GetCounter() != nil {
				return m.GetCounter().GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	t.Fatalf("no %s", name)
	return 0
}

// A lingering transaction's fee-bumped replacements do not grow what the spend budget holds for
// it: its worst case (gas × MAX_FEE_PER_GAS) was reserved when it was admitted, so the
// documented bound (the limit plus one transaction) holds however long it lingers. Before, each
// replacement reserved its extra cost after admission, past the limit.
func TestReplacementsStayWithinTheReservation(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	reg := prometheus.NewRegistry()
	maxFee := big.NewInt(1_000 * params.GWei)
	m := managerCapped(t, c, 50*time.Millisecond, gate.Budget{Limit: new(big.Int).Lsh(big.NewInt(1), 100), Window: time.Hour}, reg, nil, maxFee)
	c.PauseSealing()
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	worst := gate.WeiToEther(new(big.Int).Mul(maxFee, big.NewInt(21_000)))
	if got := spendWindow(t, reg); got != worst {
		t.Fatalf("reserved at admission %v, want the worst case %v", got, worst)
	}
	for deadline := time.Now().Add(30 * time.Second); gauge(t, reg, "vaultd_test_transaction_replacements_total") < 4; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("fewer than 4 replacements in 30 s")
		}
	}
	if got := spendWindow(t, reg); got != worst {
		t.Fatalf("after replacements the window holds %v, more than the worst case %v reserved at admission", got, worst)
	}
	c.ResumeSealing()
	<-f.Done()
}

// A replacement whose send's answer is lost (the gateway forwarded it, then answered 502) may be
// the version mined: it is followed like the others, and the flight settles when it is mined.
func TestAReplacementWhoseAnswerIsLostIsFollowed(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	var sends atomic.Int64
	gateway.SetRule(func(method string) devchain.Fault {
		if method == "eth_sendRawTransaction" && sends.Add(1) > 1 { // every replacement
			return devchain.LoseAnswer
		}
		return devchain.Pass
	})
	m := managerOn(t, c, gateway.URL, 100*time.Millisecond, gate.Budget{}, prometheus.NewRegistry(), nil, nil)
	c.PauseSealing()
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	first := f.Transaction().Hash()
	for deadline := time.Now().Add(10 * time.Second); sends.Load() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) { // what the manager asked meanwhile says where it stalled
			asked := map[string]int{}
			for _, m := range []string{"eth_blockNumber", "eth_getTransactionReceipt", "eth_getBlockReceipts", "eth_maxPriorityFeePerGas", "eth_getBlockByNumber", "eth_getTransactionByHash"} {
				asked[m] = gateway.Calls(m)
			}
			t.Fatalf("no replacement sent in 10 s; calls through the gateway: %v", asked)
		}
	}
	// The gateway counts a send before the node has it: the block is sealed once the
	// replacement has taken the original's place in the pool.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, _, err := c.Client().TransactionByHash(ctx, first); errors.Is(err, ethereum.NotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the replacement never took the original's place in the node's pool")
		}
	}
	c.ResumeSealing()
	select {
	case <-f.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("the flight did not settle: the mined version was a replacement whose answer was lost")
	}
	if f.Receipt() == nil || f.Receipt().TxHash == first {
		t.Fatalf("settled with %v; want the receipt of a replacement", f.Receipt())
	}
}

// A node that says "nonce too high" (Hardhat's words when its state went back, or a node that
// lags) has the counter read from it again and the transaction signed once more: before, the
// send was refused as it was, and so was every later one until a restart.
func TestNonceTooHighResyncs(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	node := devchaintest.Faults(t, c.RPCURL)
	m := managerOn(t, c, node.URL, time.Minute, gate.Budget{}, prometheus.NewRegistry(), nil, nil)
	node.SetReply("eth_sendRawTransaction", `"error":{"code":-32000,"message":"Nonce too high. Expected nonce to be 0 but got 1. Note that transactions can't be queued when automining."}`, 1)
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000})
	if err != nil {
		t.Fatalf("a send the node first said was ahead of it: %v", err)
	}
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not mined")
	}
	if f.Receipt() == nil {
		t.Fatalf("given up: %v", f.Err())
	}
}

// The transactions in flight are looked up together, in one JSON-RPC batch a round, whatever
// their number (they were asked one request each: on a node without eth_getBlockReceipts, every
// poll, a cost growing with what is in flight).
func TestLookupsWithoutBlockReceiptsAreBatched(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	node := devchaintest.Faults(t, c.RPCURL)
	node.SetRule(func(method string) devchain.Fault {
		if method == "eth_getBlockReceipts" {
			return devchain.MethodMissing
		}
		return devchain.Pass
	})
	m := managerOn(t, c, node.URL, time.Minute, gate.Budget{}, prometheus.NewRegistry(), nil, nil)
	c.PauseSealing()
	var flights []*txmgr.Flight
	for range 10 {
		f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000})
		if err != nil {
			t.Fatal(err)
		}
		flights = append(flights, f)
	}
	time.Sleep(2500 * time.Millisecond) // at least two lookup rounds
	requests, calls := node.Requests("eth_getTransactionReceipt"), node.Calls("eth_getTransactionReceipt")
	if calls < 10 || requests*5 > calls {
		t.Fatalf("%d receipt lookups in %d requests with 10 transactions in flight: want them batched", calls, requests)
	}
	c.ResumeSealing()
	for _, f := range flights {
		select {
		case <-f.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("not settled")
		}
	}
}

// vaultd_<svc>_oldest_transaction_pending_blocks counts the blocks mined since the oldest flight
// was first sent, through its replacements (an alert fires on it), and is 0 once nothing is in
// flight. The gateway refuses every send until told otherwise, so the node never has the
// transaction while blocks are mined.
func TestTheOldestFlightsAgeInBlocks(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	var refuse atomic.Bool
	refuse.Store(true)
	gateway.SetRule(func(method string) devchain.Fault {
		if method == "eth_sendRawTransaction" && refuse.Load() {
			return devchain.Refuse
		}
		return devchain.Pass
	})
	reg := prometheus.NewRegistry()
	m := managerOn(t, c, gateway.URL, 100*time.Millisecond, gate.Budget{}, reg, nil, nil)
	const age = "vaultd_test_oldest_transaction_pending_blocks"
	c.SetBlockTime(50 * time.Millisecond)
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(1), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); gauge(t, reg, age) < 10; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s is %v after 20 s of 50 ms blocks with the transaction unsent", age, gauge(t, reg, age))
		}
	}
	if gauge(t, reg, "vaultd_test_transaction_replacements_total") == 0 {
		t.Fatal("no replacement meanwhile: the age did not live through one")
	}
	refuse.Store(false)
	select {
	case <-f.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("not mined once sends pass")
	}
	for deadline := time.Now().Add(10 * time.Second); gauge(t, reg, age) != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s is %v with nothing in flight, want 0", age, gauge(t, reg, age))
		}
	}
}

// A manager's work is traced: adopting a transaction from the pool at start is a span
// (txmgr.adopt) that the adopted flight has as its origin, and the receipts read that find it
// mined are a trace of their own linked to it, with a "mined" event.
func TestTheManagersWorkIsTraced(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	c.PauseSealing()
	first := manager(t, c, time.Minute)
	if _, err := first.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(7), Gas: 21_000}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	managerOn(t, c, c.RPCURL, time.Minute, gate.Budget{}, prometheus.NewRegistry(), nil, nil, func(m *txmgr.Manager) { m.SetTracer(tp.Tracer("test")) })
	c.ResumeSealing()
	named := func(name string) []sdktrace.ReadOnlySpan {
		var out []sdktrace.ReadOnlySpan
		for _, s := range spans.Ended() {
			if s.Name() == name {
				out = append(out, s)
			}
		}
		return out
	}
	adopt := named("txmgr.adopt")
	if len(adopt) != 1 || attr(adopt[0], "vaultd.adopted") != "1" {
		t.Fatalf("adoption spans %v", adopt)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		for _, s := range named("txmgr.receipts") {
			if len(s.Links()) == 1 && s.Links()[0].SpanContext.SpanID() == adopt[0].SpanContext().SpanID() && len(s.Events()) == 1 && s.Events()[0].Name == "mined" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no txmgr.receipts span linked to the adoption with the transaction mined; spans: %d", len(spans.Ended()))
		}
	}
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, a := range s.Attributes() {
		if string(a.Key) == key {
			return a.Value.Emit()
		}
	}
	return ""
}
