// Package chain is vaultd's client of the chain's JSON-RPC. Every call has a timeout, is timed
// and counted by name, and a fault of the transport (unreachable, timed out, garbage answer) is
// told apart from an answer of the node (such as a revert): the first is ErrUnavailable.
package chain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// ErrUnavailable wraps every failure to get an answer from the node.
var ErrUnavailable = errors.New("chain unavailable")

// DeprecatedChainID is the vault's former chain id (docs/design.md, Chains): services start on it,
// with a warning; nothing new is deployed onto it.
const DeprecatedChainID = 47474

// Client calls the chain's JSON-RPC.
type Client struct {
	rpc       *rpc.Client
	eth       *ethclient.Client
	timeout   time.Duration
	metrics   *Metrics
	transport *http.Transport // this client's own connections (HTTP endpoints)
}

// Dial makes a client of the endpoints of rpcURL (Endpoints: one, or several that fail over to
// each other, failover.go). It does not contact the node.
func Dial(rpcURL string, timeout time.Duration, metrics *Metrics) (*Client, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	endpoints := Endpoints(rpcURL)
	var c *rpc.Client
	var err error
	if len(endpoints) == 1 && !strings.HasPrefix(endpoints[0], "http") { // a WebSocket or IPC endpoint
		c, err = rpc.DialOptions(context.Background(), endpoints[0])
	} else {
		var f *failover
		if f, err = newFailover(endpoints, transport, metrics); err == nil {
			c, err = rpc.DialOptions(context.Background(), placeholderURL, rpc.WithHTTPClient(&http.Client{Transport: f}))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	return &Client{rpc: c, eth: ethclient.NewClient(c), timeout: timeout, metrics: metrics, transport: transport}, nil
}

// Close releases the client's connections, the idle ones of its pool included (go-ethereum's
// client leaves them open, and a node's shutdown then waits on any that never carried a call).
func (c *Client) Close() {
	c.rpc.Close()
	c.transport.CloseIdleConnections()
}

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
	if errors.Is(err, ethereum.NotFound) || isRevert(err) { // "no such receipt yet", a contract's refusal: answers, not faults
		c.metrics.Observe(name, start, nil)
		return v, err
	}
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

// IsMethodMissing reports whether err is the node saying it has no such method (JSON-RPC
// -32601, or the wording nodes and providers use for it).
func IsMethodMissing(err error) bool {
	var rpcErr rpc.Error
	if !errors.As(err, &rpcErr) {
		return false
	}
	if rpcErr.ErrorCode() == -32601 {
		return true
	}
	msg := strings.ToLower(rpcErr.Error())
	return strings.Contains(msg, "method") &&
		(strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist") ||
			strings.Contains(msg, "not supported") || strings.Contains(msg, "not available"))
}

// BalanceAt returns addr's balance in the latest block.
func (c *Client) BalanceAt(ctx context.Context, addr common.Address) (*big.Int, error) {
	return do(c, ctx, "balance", func(ctx context.Context) (*big.Int, error) { return c.eth.BalanceAt(ctx, addr, nil) })
}

// PendingNonceAt returns the nonce of addr's next transaction, counting the pool.
func (c *Client) PendingNonceAt(ctx context.Context, addr common.Address) (uint64, error) {
	return do(c, ctx, "pending_nonce", func(ctx context.Context) (uint64, error) { return c.eth.PendingNonceAt(ctx, addr) })
}

// Fees returns the node's suggested priority fee, the latest base fee, and the number of the
// head block it read that base fee from.
func (c *Client) Fees(ctx context.Context) (tip, baseFee *big.Int, head uint64, err error) {
	tip, err = do(c, ctx, "gas_tip", c.eth.SuggestGasTipCap)
	if err != nil {
		return nil, nil, 0, err
	}
	h, err := do(c, ctx, "header", func(ctx context.Context) (*types.Header, error) { return c.eth.HeaderByNumber(ctx, nil) })
	if err != nil {
		return nil, nil, 0, err
	}
	if h.BaseFee == nil {
		return tip, new(big.Int), h.Number.Uint64(), nil
	}
	return tip, h.BaseFee, h.Number.Uint64(), nil
}

// NonceAt returns the nonce of addr's next transaction in the latest block (mined ones only).
func (c *Client) NonceAt(ctx context.Context, addr common.Address) (uint64, error) {
	return do(c, ctx, "nonce", func(ctx context.Context) (uint64, error) { return c.eth.NonceAt(ctx, addr, nil) })
}

// EstimateGas simulates msg against the latest block, named explicitly: without a block tag
// geth estimates against "latest" and Hardhat against "pending", where a transaction of ours
// waiting in the pool changes the outcome. A revert comes back as the node's answer (RevertOf).
func (c *Client) EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	return do(c, ctx, "estimate_gas", func(ctx context.Context) (uint64, error) { return c.eth.EstimateGasAtBlock(ctx, msg, nil) })
}

// SendTransaction submits a signed transaction.
func (c *Client) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	_, err := do(c, ctx, "send_transaction", func(ctx context.Context) (struct{}, error) { return struct{}{}, c.eth.SendTransaction(ctx, tx) })
	return err
}

// TransactionReceipt returns the receipt of a mined transaction, or ethereum.NotFound.
func (c *Client) TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	return do(c, ctx, "receipt", func(ctx context.Context) (*types.Receipt, error) { return c.eth.TransactionReceipt(ctx, hash) })
}

// receiptBatch is how many receipts one JSON-RPC batch asks for: what providers take.
const receiptBatch = 100

// TransactionReceipts looks up the receipts of hashes in JSON-RPC batches of receiptBatch: one
// request for many transactions (a node without eth_getBlockReceipts is asked this way). An
// entry is nil where the node has no receipt (yet); the error is the first batch's that failed.
func (c *Client) TransactionReceipts(ctx context.Context, hashes []common.Hash) ([]*types.Receipt, error) {
	out := make([]*types.Receipt, len(hashes))
	for start := 0; start < len(hashes); start += receiptBatch {
		end := min(start+receiptBatch, len(hashes))
		_, err := do(c, ctx, "receipts", func(ctx context.Context) (struct{}, error) {
			batch := make([]rpc.BatchElem, end-start)
			for i := range batch {
				batch[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{hashes[start+i]}, Result: &out[start+i]}
			}
			if err := c.rpc.BatchCallContext(ctx, batch); err != nil {
				return struct{}{}, err
			}
			for i := range batch {
				if batch[i].Error != nil {
					out[start+i] = nil // this one unknown: looked up again next time
				}
			}
			return struct{}{}, nil
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// TransactionKnown reports whether the node has the transaction, in its pool or in a block.
//
// A node answers eth_getTransactionByHash by looking in its blocks, then in its pool (geth does),
// so a transaction mined between the two looks is found in neither. Its callers take "not known"
// to mean "send it again", so "not known" is said only when a second answer agrees: by then a
// transaction that left the pool is in the block that took it.
func (c *Client) TransactionKnown(ctx context.Context, hash common.Hash) (bool, error) {
	known, err := c.transactionFound(ctx, hash)
	if err == nil && !known {
		known, err = c.transactionFound(ctx, hash)
	}
	return known, err
}

// transactionFound asks the node once for hash.
func (c *Client) transactionFound(ctx context.Context, hash common.Hash) (bool, error) {
	_, err := do(c, ctx, "transaction", func(ctx context.Context) (*types.Transaction, error) {
		tx, _, err := c.eth.TransactionByHash(ctx, hash)
		return tx, err
	})
	if errors.Is(err, ethereum.NotFound) {
		return false, nil
	}
	return err == nil, err
}

// PoolTransactions returns addr's transactions waiting in the node's pool, in nonce order: the
// executable ones and the queued ones (behind a nonce gap, or not yet promoted: geth moves a
// transaction from its queue to pending in the background, a moment after it accepted it), from
// txpool_contentFrom, which geth, erigon and reth answer; a node without it answers an error.
func (c *Client) PoolTransactions(ctx context.Context, addr common.Address) ([]*types.Transaction, error) {
	return do(c, ctx, "pool_transactions", func(ctx context.Context) ([]*types.Transaction, error) {
		var content struct {
			Pending map[string]*types.Transaction `json:"pending"`
			Queued  map[string]*types.Transaction `json:"queued"`
		}
		if err := c.rpc.CallContext(ctx, &content, "txpool_contentFrom", addr); err != nil {
			return nil, err
		}
		txs := make([]*types.Transaction, 0, len(content.Pending)+len(content.Queued))
		for _, part := range []map[string]*types.Transaction{content.Pending, content.Queued} {
			for _, tx := range part {
				if tx != nil {
					txs = append(txs, tx)
				}
			}
		}
		slices.SortFunc(txs, func(a, b *types.Transaction) int { return cmp.Compare(a.Nonce(), b.Nonce()) })
		return txs, nil
	})
}

// BlockReceipts returns every receipt of block n.
func (c *Client) BlockReceipts(ctx context.Context, n uint64) ([]*types.Receipt, error) {
	return do(c, ctx, "block_receipts", func(ctx context.Context) ([]*types.Receipt, error) {
		return c.eth.BlockReceipts(ctx, rpc.BlockNumberOrHashWithNumber(rpc.BlockNumber(n)))
	})
}

// ReceiptSource is what WaitMined needs of a client.
type ReceiptSource interface {
	TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error)
	BlockNumber(context.Context) (uint64, error)
}

// WaitMined polls for hash's receipt every poll, then waits until the node's head has reached
// the receipt's block: geth shows a receipt as soon as the block is inserted, a moment before
// the head moves, and a call made in that moment would run on the state before the block.
func WaitMined(ctx context.Context, c ReceiptSource, hash common.Hash, poll time.Duration) (*types.Receipt, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	var receipt *types.Receipt
	for {
		if receipt == nil {
			if r, err := c.TransactionReceipt(ctx, hash); err == nil && r != nil {
				receipt = r
			}
		}
		if receipt != nil {
			if head, err := c.BlockNumber(ctx); err == nil && head >= receipt.BlockNumber.Uint64() {
				return receipt, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w", hash, ctx.Err())
		case <-t.C:
		}
	}
}

// CheckChainID applies the rule of docs/design.md ("Chains") to the chain's answer: CHAIN_ID, when set (non-zero),
// must match it; the deprecated id 47474 is accepted with a warning.
func CheckChainID(configured, actual uint64) error {
	if configured != 0 && configured != actual {
		return fmt.Errorf("CHAIN_ID is %d but the chain at RPC_URL says %d", configured, actual)
	}
	if actual == DeprecatedChainID {
		slog.Warn("chain id 47474 is deprecated", "chainId", actual)
	}
	return nil
}

// Simulate runs msg as an eth_call against the latest block, once; a revert comes back as the
// node's answer (see RevertOf).
func (c *Client) Simulate(ctx context.Context, msg ethereum.CallMsg) error {
	return c.SimulateAt(ctx, msg, nil)
}

// SimulateAt runs msg as an eth_call on the state after block n (nil: the latest), once.
func (c *Client) SimulateAt(ctx context.Context, msg ethereum.CallMsg, n *big.Int) error {
	_, err := do(c, ctx, "simulate", func(ctx context.Context) ([]byte, error) { return c.eth.CallContract(ctx, msg, n) })
	return err
}

// HeaderByNumber returns block n's header, or the head's when n is nil.
func (c *Client) HeaderByNumber(ctx context.Context, n *big.Int) (*types.Header, error) {
	return do(c, ctx, "header", func(ctx context.Context) (*types.Header, error) { return c.eth.HeaderByNumber(ctx, n) })
}

// BlockReceiptsByHash returns every receipt of the block with hash h: the receipts of exactly
// that block, even if a reorg replaced it meanwhile.
func (c *Client) BlockReceiptsByHash(ctx context.Context, h common.Hash) ([]*types.Receipt, error) {
	return do(c, ctx, "block_receipts", func(ctx context.Context) ([]*types.Receipt, error) {
		return c.eth.BlockReceipts(ctx, rpc.BlockNumberOrHashWithHash(h, false))
	})
}

// TransactionHashes returns the hashes of the transactions of the block with hash h.
func (c *Client) TransactionHashes(ctx context.Context, h common.Hash) ([]common.Hash, error) {
	return do(c, ctx, "block", func(ctx context.Context) ([]common.Hash, error) {
		var block *struct {
			Transactions []common.Hash `json:"transactions"`
		}
		if err := c.rpc.CallContext(ctx, &block, "eth_getBlockByHash", h, false); err != nil {
			return nil, err
		}
		if block == nil { // the node does not have it (any more)
			return nil, ethereum.NotFound
		}
		return block.Transactions, nil
	})
}
