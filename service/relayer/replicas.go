package relayer

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
)

// shareWithReplicas makes the nullifier holds and the count of inserts in flight every
// replica's that shares the limits' Redis (REDIS_URL); without it they are this process's.
func (r *Relayer) shareWithReplicas() {
	if r.redis == nil {
		r.inserts = &localInserts{}
		return
	}
	r.holds = holds.New(r.redis, r.cfg.Limits.HoldTTL, time.Hour, r.cfg.Operator.LeaseTTL)
	r.inserts = &fleetInserts{client: r.redis, owner: edge.Instance(), ttl: 10 * time.Minute}
}

// giveBack gives the nullifier back to the other replicas when nothing was sent, or the send was
// refused, or its transaction ended unrevealed (a send whose answer was lost is followed as sent:
// it never gets here before it settles).
func (r *Relayer) giveBack(ctx context.Context, nullifier common.Hash, hold *holds.Token) {
	if hold != nil {
		r.holds.Release(ctx, nullifier, hold)
	}
}

// holdsUnavailable is a hold that cannot be checked: the relayer refuses rather than risk a
// second transaction.
func holdsUnavailable(err error) *RevealError {
	return &RevealError{Reason: HoldsUnavailable, Retry: time.Second, Cause: err,
		Message: "the relayer cannot coordinate with its other replicas right now; try again later"}
}

// errHoldReleased is another replica giving a nullifier back unsent: this copy may hold it.
var errHoldReleased = errors.New("hold released")

// awaitOther answers a copy of a reveal whose nullifier another replica holds: with that
// transaction's outcome once mined (200, or 422 TX_REVERTED), 504 TX_PENDING after
// RECEIPT_TIMEOUT, or errHoldReleased when the other replica gave it back unsent.
//
// Its span links to the request that held the nullifier, on whichever replica.
func (r *Relayer) awaitOther(ctx context.Context, n common.Hash) (RevealResult, error) {
	wctx, end := r.stage(ctx, "receipt")
	deadline := time.Now().Add(r.cfg.Tx.ReceiptTimeout)
	var last common.Hash
	linked := false
	for {
		hash, held, by, err := r.holds.State(ctx, n)
		if by.IsValid() && !linked {
			trace.SpanFromContext(wctx).AddLink(trace.Link{SpanContext: by, Attributes: []attribute.KeyValue{attribute.String("vaultd.link", "held by")}})
			linked = true
		}
		switch {
		case err != nil:
			end(err)
			return RevealResult{}, holdsUnavailable(err)
		case !held:
			end(nil)
			return RevealResult{}, errHoldReleased
		case hash != common.Hash{}:
			last = hash
			if rc, err := r.client.TransactionReceipt(ctx, hash); err == nil && rc != nil {
				end(nil)
				res := resultOf(rc)
				if !res.Success {
					return res, &RevealError{Reason: TxReverted, Message: "the reveal transaction reverted on chain; it is not retried", TxHash: res.TxHash}
				}
				return res, nil
			}
		}
		if time.Now().After(deadline) {
			err := &RevealError{Reason: TxPending, Message: "the reveal was sent by another replica but not mined in time; it may still be mined", TxHash: hexOrEmpty(last)}
			end(err)
			return RevealResult{TxHash: hexOrEmpty(last)}, err
		}
		time.Sleep(r.cfg.Tx.ReceiptPoll)
	}
}

func hexOrEmpty(h common.Hash) string {
	if h == (common.Hash{}) {
		return ""
	}
	return h.Hex()
}
