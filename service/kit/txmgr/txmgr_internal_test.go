package txmgr

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

func TestBumpIsStrictlyHigherAndAtLeastTenPercent(t *testing.T) {
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
