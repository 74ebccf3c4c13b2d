package funding

import (
	"context"
	"math/big"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// The chain's figures quotes and fee checks read (the fee per gas; a partial quote, the tree's
// next leaf index) are read at most once per figuresTTL, by one caller for all who ask
// meanwhile: a quote is cheap to ask for (RATE_LIMIT_QUOTE_PER_IP, from any number of IPs), and
// each read is JSON-RPC calls a metered provider bills. A second is at most one block on most
// chains (12 s on Ethereum, 2 s on the OP Stack), and a quote's margin absorbs what the fees move
// within one.
const figuresTTL = time.Second

// figure is one of the chain's figures, read at most once per figuresTTL; its zero value holds
// none yet.
type figure[T any] struct {
	mu     sync.Mutex
	value  T
	readAt time.Time // when the read of value started; zero: none yet
	flight singleflight.Group
}

// fresh is the figure if it was read within figuresTTL.
func (f *figure[T]) fresh() (T, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.value, !f.readAt.IsZero() && time.Since(f.readAt) < figuresTTL
}

// get is the figure, read by read when the last read is older than figuresTTL. Callers asking
// while a read is under way share it; one whose ctx ends stops waiting, not the read.
func (f *figure[T]) get(ctx context.Context, read func(context.Context) (T, error)) (T, error) {
	if v, ok := f.fresh(); ok {
		return v, nil
	}
	ch := f.flight.DoChan("", func() (any, error) {
		if v, ok := f.fresh(); ok { // read by the flight that ended since this caller looked
			return v, nil
		}
		start := time.Now()
		v, err := read(context.WithoutCancel(ctx))
		if err == nil {
			f.mu.Lock()
			f.value, f.readAt = v, start
			f.mu.Unlock()
		}
		return v, err
	})
	var zero T
	select {
	case res := <-ch:
		if res.Err != nil {
			return zero, res.Err
		}
		return res.Val.(T), nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// figures are the chain's figures shared by quotes and fee checks.
type figures struct {
	feePerGas figure[*big.Int] // the head's base fee + the node's suggested tip
	nextIndex figure[uint64]   // the tree's next leaf index
}

// Figures are the chain's figures as quotes value them: the fee per gas now and the tree's next
// leaf index. The relayer's status reads them in the background, so that answering it reads no
// chain. Each is taken from what quotes read within figuresTTL, else read from the chain without
// keeping it for quotes: a read kept would make a quote asked within figuresTTL after it price a
// tree that has grown since, where it was read for that quote before.
func (f *Funding) Figures(ctx context.Context) (feePerGas *big.Int, nextIndex uint64, err error) {
	feePerGas, ok := f.figures.feePerGas.fresh()
	if !ok {
		if feePerGas, err = f.chain.FeePerGas(ctx); err != nil {
			return nil, 0, err
		}
	}
	if nextIndex, ok = f.figures.nextIndex.fresh(); !ok {
		if nextIndex, err = f.chain.NextIndex(ctx); err != nil {
			return nil, 0, err
		}
	}
	return feePerGas, nextIndex, nil
}
