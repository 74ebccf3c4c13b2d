package txmgr_test

import (
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// deepManager is a manager of the dev faucet account that settles a cancel displacedAfter
// blocks deep, its watch loop's spans recorded in spans.
func deepManager(t *testing.T, c *devchain.Chain, displacedAfter uint64, spans *tracetest.SpanRecorder) *txmgr.Manager {
	t.Helper()
	client, err := chain.Dial(c.RPCURL, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	reg := prometheus.NewRegistry()
	g := gate.New(client, gate.Config{Wallet: c.Accounts.Faucet.Address, Min: big.NewInt(0), Poll: time.Second, Name: "test", Work: "tests",
		Setting: "MIN", BudgetSetting: "LIMIT"}, gate.NewMetrics(reg, "test", "balance"), nil)
	m := txmgr.New(client, txmgr.KeySigner(c.Accounts.Faucet.Key), c.ChainID,
		txmgr.Config{ReplaceAfter: time.Hour, ReceiptPoll: 20 * time.Millisecond, DisplacedAfter: displacedAfter}, g, txmgr.NewMetrics(reg, "test"), nil)
	m.SetTracer(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)).Tracer("test"))
	if _, err := m.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	m.Start()
	t.Cleanup(m.Close)
	return m
}

// cancelMined sends a transfer of 7 wei to a fresh address while sealing is paused, has the
// operator cancel it, and seals the cancel; it returns once the manager's watch loop has read
// the cancel's receipt (its txmgr.receipts span, ended after the flights it settles are settled).
// It returns the flight, the transfer cancelled, its recipient and the head before the cancel.
func cancelMined(t *testing.T, c *devchain.Chain, m *txmgr.Manager, spans *tracetest.SpanRecorder) (f *txmgr.Flight, cancelled *types.Transaction, to common.Address, parent common.Hash) {
	t.Helper()
	c.PauseSealing()
	to = fresh(t)
	f, err := m.Send(ctx, txmgr.Tx{To: to, Value: big.NewInt(7), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	cancelled = f.Transaction()
	if replacing, err := m.Cancel(f.Nonce()); err != nil || replacing != cancelled.Hash() {
		t.Fatalf("cancel: %v, replacing %s", err, replacing)
	}
	for deadline := time.Now().Add(10 * time.Second); f.Hash() == cancelled.Hash(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no cancel sent")
		}
	}
	cancel := f.Transaction()
	if *cancel.To() != m.From() || cancel.Value().Sign() != 0 {
		t.Fatalf("the cancel: %+v", cancel)
	}
	head, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.ResumeSealing()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		for _, s := range spans.Ended() {
			for _, e := range s.Events() {
				if s.Name() == "txmgr.receipts" && e.Name == "mined" && hasAttr(e.Attributes, "vaultd.tx_hash", cancel.Hash().Hex()) {
					return f, cancelled, to, head.Hash()
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the watch loop did not read the cancel's receipt")
		}
	}
}

// A cancel mined one block deep does not end its flight: a reorg drops it for a branch whose
// proposer still held the transaction it cancelled, which is mined there, and the flight ends
// with that transaction's receipt (the payment happened; a caller that took the cancel for final
// would pay again). A real reorg of the dev chain (devchain.Reorg).
func TestACancelUndoneByAReorgIsNotTheOutcome(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	spans := tracetest.NewSpanRecorder()
	m := deepManager(t, c, 3, spans)
	f, cancelled, to, parent := cancelMined(t, c, m, spans)
	select {
	case <-f.Done():
		t.Fatalf("the flight settled on a cancel one block deep: %v", f.Err())
	default:
	}
	if _, err := m.Bump(f.Nonce()); !errors.Is(err, txmgr.ErrNotReplaceable) {
		t.Fatalf("a bump of a flight whose cancel is mined: %v", err)
	}
	if err := c.Reorg(parent, cancelled); err != nil {
		t.Fatal(err)
	}
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the flight did not settle after the reorg")
	}
	if f.Err() != nil || f.Receipt() == nil || f.Receipt().TxHash != cancelled.Hash() {
		t.Fatalf("the flight ended %v, receipt %v; want the cancelled transfer %s mined", f.Err(), f.Receipt(), cancelled.Hash())
	}
	if b, err := c.Client().BalanceAt(ctx, to, nil); err != nil || b.Int64() != 7 {
		t.Fatalf("the recipient holds %v (%v), want 7", b, err)
	}
}

// A cancel that stays on the chain ends its flight ErrCancelled once DisplacedAfter blocks deep.
func TestACancelSettlesDeep(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	spans := tracetest.NewSpanRecorder()
	m := deepManager(t, c, 3, spans)
	f, _, to, _ := cancelMined(t, c, m, spans)
	select {
	case <-f.Done():
		t.Fatalf("the flight settled on a cancel one block deep: %v", f.Err())
	default:
	}
	for range 2 { // two more blocks, one after the other: sent at once, the second could read the
		// first's nonce again, be the same transaction ("already known") and make no block
		tx, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &to, big.NewInt(1), nil)
		if err == nil {
			_, err = devchain.WaitReceipt(ctx, c.Client(), tx.Hash())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the cancel three blocks deep did not settle the flight")
	}
	if f.Receipt() != nil || !errors.Is(f.Err(), txmgr.ErrCancelled) {
		t.Fatalf("the flight ended %v, receipt %v; want ErrCancelled", f.Err(), f.Receipt())
	}
}

// A bump or a cancel of a transaction whose newest version is at MAX_FEE_PER_GAS is refused
// (ErrNotReplaceable), nothing marked: a node takes a replacement only with higher fees.
func TestAFlightAtTheFeeCapIsNotReplaceable(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	c.PauseSealing()
	m := managerCapped(t, c, time.Hour, gate.Budget{}, prometheus.NewRegistry(), nil, big.NewInt(1)) // 1 wei: every version at the cap
	f, err := m.Send(ctx, txmgr.Tx{To: fresh(t), Value: big.NewInt(7), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	if f.Transaction().GasFeeCap().Int64() != 1 {
		t.Fatalf("fee cap %s, want the cap", f.Transaction().GasFeeCap())
	}
	if _, err := m.Bump(f.Nonce()); !errors.Is(err, txmgr.ErrNotReplaceable) {
		t.Fatalf("bump at the cap: %v", err)
	}
	if _, err := m.Cancel(f.Nonce()); !errors.Is(err, txmgr.ErrNotReplaceable) {
		t.Fatalf("cancel at the cap: %v", err)
	}
}

func hasAttr(attrs []attribute.KeyValue, key, value string) bool {
	for _, a := range attrs {
		if string(a.Key) == key && a.Value.Emit() == value {
			return true
		}
	}
	return false
}
