package txmgr

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/prometheus/client_golang/prometheus"

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
