package txmgr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
)

func TestBumpIsStrictlyHigherAndAtLeastTenPercent(t *testing.T) {
	t.Parallel()
	for _, v := range []int64{0, 1, 7, 9, 10, 100, 1_000_000_007} {
		b := bump(big.NewInt(v))
		if b.Cmp(big.NewInt(v)) <= 0 || new(big.Int).Mul(b, big.NewInt(100)).Cmp(new(big.Int).Mul(big.NewInt(v), big.NewInt(110))) < 0 {
			t.Errorf("bump(%d) = %s", v, b)
		}
	}
}

// rpcErr is a JSON-RPC error object as the node answers it.
type rpcErr struct{ msg string }

func (e rpcErr) Error() string  { return e.msg }
func (e rpcErr) ErrorCode() int { return -32000 }

var _ rpc.Error = rpcErr{}

// Each class of the node's answers to a send is told apart, including the -32603 wrapping of
// "nonce too low" that deadlocked other relayers, and the transport failures.
func TestClassifySend(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want sendClass
	}{
		{nil, sendAccepted},
		{rpcErr{"already known"}, sendKnown},
		{rpcErr{"ALREADY KNOWN"}, sendKnown},
		{fmt.Errorf("send: %w", rpcErr{"nonce too low: next nonce 5, tx nonce 4"}), sendNonceUsed},
		{rpcErr{"replacement transaction underpriced"}, sendNonceUsed},
		{rpcErr{"transaction underpriced"}, sendRejected},
		// Nethermind's results and OpenEthereum's sentences.
		{rpcErr{"AlreadyKnown"}, sendKnown},
		{rpcErr{"Transaction with the same hash was already imported."}, sendKnown},
		{rpcErr{"OldNonce, Current nonce: 5, nonce of rejected tx: 4"}, sendNonceUsed},
		{rpcErr{"Transaction nonce is too low. Try incrementing the nonce."}, sendNonceUsed},
		{rpcErr{"NonceGap, Future nonce. Expected nonce: 5"}, sendNonceAhead},
		{rpcErr{"ReplacementNotAllowed"}, sendNonceUsed},
		{rpcErr{"Transaction gas price is too low. There is another transaction with same nonce in the queue."}, sendNonceUsed},
		{rpcErr{"FeeTooLowToCompete"}, sendRejected},
		{rpcErr{"insufficient funds for gas * price + value"}, sendRejected},
		{errors.New("Post \"http://127.0.0.1:8545\": context deadline exceeded"), sendUncertain},
		{errors.New("connection reset by peer"), sendUncertain},
	} {
		if got := classifySend(c.err); got != c.want {
			t.Errorf("classifySend(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// Fees never exceed MAX_FEE_PER_GAS, and a replacement is not attempted once the cap is reached.
func TestFeesRespectTheCap(t *testing.T) {
	c := devchaintest.Start(t)
	client, err := chain.Dial(c.RPCURL, 2*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	m := &Manager{client: client, cfg: Config{MaxFeePerGas: big.NewInt(1_000)}}
	tip, feeCap, _, err := m.fees(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if feeCap.Cmp(big.NewInt(1_000)) > 0 || tip.Cmp(feeCap) > 0 {
		t.Fatalf("fees %s/%s above the cap", tip, feeCap)
	}
	prev := types.NewTx(&types.DynamicFeeTx{GasTipCap: big.NewInt(1_000), GasFeeCap: big.NewInt(1_000)})
	if _, feeCap, _, _ := m.fees(context.Background(), prev); feeCap.Cmp(big.NewInt(1_000)) > 0 {
		t.Fatalf("a replacement bid %s, above the cap", feeCap)
	}
	uncapped := &Manager{client: client, cfg: Config{}}
	_, high, _, _ := uncapped.fees(context.Background(), prev)
	if high.Cmp(big.NewInt(1_125)) < 0 {
		t.Fatalf("an uncapped replacement bid %s, less than 12.5%% more", high)
	}
}

// A transaction never mined is followed for giveUpAfter (30 minutes, by the manager's clock) and
// then given up: its flight ends with an error that says so. The clock is moved, not waited for;
// the chain is the dev chain with sealing paused (nothing is mined meanwhile).
func TestAFlightIsGivenUpAfterThirtyMinutes(t *testing.T) {
	c := devchaintest.Start(t)
	client, err := chain.Dial(c.RPCURL, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	reg := prometheus.NewRegistry()
	g := gate.New(client, gate.Config{Wallet: c.Accounts.Faucet.Address, Min: big.NewInt(0), Poll: time.Second, Name: "test", Work: "tests"},
		gate.NewMetrics(reg, "test", "balance"), nil)
	g.Refresh(context.Background())
	m := New(client, KeySigner(c.Accounts.Faucet.Key), c.ChainID, Config{ReplaceAfter: time.Hour, ReceiptPoll: 20 * time.Millisecond}, g, NewMetrics(reg, "test"), nil)
	var ahead atomic.Int64 // how far the manager's clock is ahead of the wall's
	m.now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	if _, err := m.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Start()
	defer m.Close()

	c.PauseSealing()
	defer c.ResumeSealing()
	f, err := m.Send(context.Background(), Tx{To: c.Accounts.Users[0].Address, Value: big.NewInt(1), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // a few rounds of lookups: still followed
	select {
	case <-f.Done():
		t.Fatalf("given up before its time: %v", f.Err())
	default:
	}
	ahead.Store(int64(giveUpAfter - time.Minute))
	time.Sleep(200 * time.Millisecond)
	select {
	case <-f.Done():
		t.Fatalf("given up at 29 minutes: %v", f.Err())
	default:
	}
	ahead.Store(int64(giveUpAfter + time.Minute))
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not given up after 31 minutes")
	}
	if f.Receipt() != nil || f.Err() == nil || !strings.Contains(f.Err().Error(), "not mined after 30m0s") {
		t.Fatalf("given up with receipt %v, error %v", f.Receipt(), f.Err())
	}
}

// lockedBuffer is a log's destination that the test reads while the manager writes to it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Transactions the node's pool dropped are noticed at the next block and sent again as they
// were, not replaced at REPLACE_AFTER (a minute here). The gateway loses the send of the second
// nonce (502, never forwarded), so the later ones wait in the dev chain's pool behind a gap, and
// the pool keeps 64 of them (go-ethereum's AccountQueue) and drops the rest, for real. Once a
// block is sealed, every one is mined within seconds: the same hashes, no replacement, the
// rebroadcasts counted, and one warning for the incident.
func TestTransactionsThePoolDroppedAreSentAgainAtTheNextBlock(t *testing.T) {
	const n = 100
	c := devchaintest.Start(t)
	gateway := devchaintest.Faults(t, c.RPCURL)
	var sends atomic.Int64
	gateway.SetRule(func(method string) devchain.Fault {
		if method == "eth_sendRawTransaction" && sends.Add(1) == 2 {
			return devchain.Refuse
		}
		return devchain.Pass
	})
	client, err := chain.Dial(gateway.URL, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	reg := prometheus.NewRegistry()
	g := gate.New(client, gate.Config{Wallet: c.Accounts.Faucet.Address, Min: big.NewInt(0), Poll: time.Second, Name: "test", Work: "tests"},
		gate.NewMetrics(reg, "test", "balance"), nil)
	g.Refresh(context.Background())
	var logs lockedBuffer
	m := New(client, KeySigner(c.Accounts.Faucet.Key), c.ChainID, Config{ReplaceAfter: time.Minute, ReceiptPoll: 20 * time.Millisecond}, g,
		NewMetrics(reg, "test"), slog.New(slog.NewTextHandler(&logs, nil)))
	if _, err := m.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Start()
	defer m.Close()

	c.PauseSealing()
	flights := make([]*Flight, n)
	var wg sync.WaitGroup
	for i := range flights {
		wg.Go(func() {
			f, err := m.Send(context.Background(), Tx{To: c.Accounts.Users[0].Address, Value: big.NewInt(1), Gas: 21_000})
			if err != nil {
				t.Error(err)
			}
			flights[i] = f
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	var pool struct{ Pending, Queued hexutil.Uint }
	if err := c.Client().Client().Call(&pool, "txpool_status"); err != nil {
		t.Fatal(err)
	}
	held := int(pool.Pending + pool.Queued)
	if held >= n {
		t.Fatalf("the pool holds %d of the %d transactions: it dropped none, and this tests nothing", held, n)
	}
	c.ResumeSealing()
	for _, f := range flights {
		select {
		case <-f.Done():
		case <-time.After(20 * time.Second):
			t.Fatalf("nonce %d not mined 20 s after sealing resumed (the pool had %d of %d)", f.Nonce(), held, n)
		}
		if f.Receipt() == nil || f.Receipt().TxHash != f.txs[0].Hash() {
			t.Fatalf("nonce %d: receipt %v, want its first version %s mined", f.Nonce(), f.Receipt(), f.txs[0].Hash())
		}
	}
	if got := gauge(t, reg, "vaultd_test_transaction_replacements_total"); got != 0 {
		t.Fatalf("%v replacements", got)
	}
	if got := gauge(t, reg, "vaultd_test_transaction_rebroadcasts_total"); got < float64(n-held) {
		t.Fatalf("%v rebroadcasts, want at least the %d the pool lacked", got, n-held)
	}
	if warned := strings.Count(logs.String(), "the node no longer had"); warned != 1 {
		t.Fatalf("%d warnings of dropped transactions, want 1 for the incident:\n%s", warned, logs.String())
	}
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

// StandingLast keeps every hash and puts the standing version's last, after the refused one.
func TestStandingLast(t *testing.T) {
	t.Parallel()
	a, b, c := common.HexToHash("0xa"), common.HexToHash("0xb"), common.HexToHash("0xc")
	for _, tc := range []struct {
		hashes            []string
		refused, standing common.Hash
		want              []string
	}{
		{[]string{a.Hex(), b.Hex()}, b, a, []string{b.Hex(), a.Hex()}},
		{[]string{a.Hex(), b.Hex(), c.Hex()}, c, b, []string{a.Hex(), c.Hex(), b.Hex()}},
		{[]string{a.Hex()}, b, a, []string{b.Hex(), a.Hex()}},
	} {
		if got := StandingLast(tc.hashes, tc.refused, tc.standing); !slices.Equal(got, tc.want) {
			t.Errorf("StandingLast(%v, %s, %s) = %v, want %v", tc.hashes, tc.refused, tc.standing, got, tc.want)
		}
	}
}
