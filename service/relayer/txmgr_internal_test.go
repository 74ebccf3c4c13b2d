package relayer

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"
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
		{fmt.Errorf("send: %w", rpcErr{"nonce too low: next nonce 5, tx nonce 4"}), sendNonceLow},
		{rpcErr{"replacement transaction underpriced"}, sendRejected},
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
