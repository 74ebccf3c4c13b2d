// Package chain is vaultd's client of the chain's JSON-RPC. Every call has a timeout, is timed
// and counted by name, and a fault of the transport (unreachable, timed out, garbage answer) is
// told apart from an answer of the node (such as a revert): the first is ErrUnavailable.
package chain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/seed018cc74c/vaultd/service/platform"
)

// ErrUnavailable wraps every failure to get an answer from the node.
var ErrUnavailable = errors.New("chain unavailable")

// DeprecatedChainID is the chain id the seed calls deprecated: services start on it, with a warning.
const DeprecatedChainID = 47474

// Client calls the chain's JSON-RPC.
type Client struct {
	rpc     *rpc.Client
	eth     *ethclient.Client
	timeout time.Duration
	metrics *platform.ChainMetrics
}

// Dial makes a client of the endpoint at url. It does not contact the node.
func Dial(url string, timeout time.Duration, metrics *platform.ChainMetrics) (*Client, error) {
	c, err := rpc.DialOptions(context.Background(), url)
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	return &Client{rpc: c, eth: ethclient.NewClient(c), timeout: timeout, metrics: metrics}, nil
}

// Close releases the client's connections.
func (c *Client) Close() { c.rpc.Close() }

// Eth is the underlying go-ethereum client, for calls this package does not wrap.
func (c *Client) Eth() *ethclient.Client { return c.eth }

// ChainID asks eth_chainId.
func (c *Client) ChainID(ctx context.Context) (uint64, error) {
	return do(c, ctx, "chain_id", func(ctx context.Context) (uint64, error) {
		id, err := c.eth.ChainID(ctx)
		if err != nil {
			return 0, err
		}
		if !id.IsUint64() {
			return 0, fmt.Errorf("chain id %s does not fit 64 bits", id)
		}
		return id.Uint64(), nil
	})
}

// BlockNumber asks eth_blockNumber; it is also the health probe.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	return do(c, ctx, "block_number", c.eth.BlockNumber)
}

// CodeAt returns the code at addr in the latest block.
func (c *Client) CodeAt(ctx context.Context, addr common.Address) ([]byte, error) {
	return do(c, ctx, "code_at", func(ctx context.Context) ([]byte, error) { return c.eth.CodeAt(ctx, addr, nil) })
}

// Call makes an eth_call to `to` with data against the latest block; name labels the metrics.
func (c *Client) Call(ctx context.Context, name string, to common.Address, data []byte) ([]byte, error) {
	return do(c, ctx, name, func(ctx context.Context) ([]byte, error) {
		return c.eth.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	})
}

// do runs one call with the client's timeout, records it, and marks transport faults.
func do[T any](c *Client, ctx context.Context, name string, call func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	start := time.Now()
	v, err := call(ctx)
	c.metrics.Observe(name, start, err)
	if err != nil && !IsNodeAnswer(err) {
		err = fmt.Errorf("%s: %w: %w", name, ErrUnavailable, err)
	}
	return v, err
}

// IsNodeAnswer reports whether err is an error the node answered with (a JSON-RPC error object,
// such as a revert), rather than a failure to get an answer.
func IsNodeAnswer(err error) bool {
	var rpcErr rpc.Error
	return errors.As(err, &rpcErr) && !errors.Is(err, ErrUnavailable)
}
