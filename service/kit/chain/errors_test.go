package chain

import (
	"errors"
	"fmt"
	"testing"
)

// rpcError is a JSON-RPC error object as a node answers it.
type rpcError struct {
	code int
	msg  string
}

func (e rpcError) Error() string  { return e.msg }
func (e rpcError) ErrorCode() int { return e.code }

func TestIsMethodMissing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{rpcError{-32601, "the method eth_getBlockReceipts does not exist/is not available"}, true},
		{rpcError{-32601, "Method not found"}, true},
		{fmt.Errorf("block_receipts: %w", rpcError{-32000, "method eth_getBlockReceipts not supported"}), true},
		{rpcError{-32000, "header not found"}, false},
		{rpcError{3, "execution reverted"}, false},
		{errors.New("method not found"), false}, // not an answer of the node
		{nil, false},
	} {
		if got := IsMethodMissing(c.err); got != c.want {
			t.Errorf("IsMethodMissing(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
