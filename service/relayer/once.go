package relayer

import (
	"context"
	"reflect"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// A reveal request's way in: read, then run once per nullifier, however many copies of it arrive
// (the copies get the first's outcome), then counted and timed by its outcome.

// Reveal runs one reveal request to its end, read in its "parse" span by read (the edge's reading
// of what arrived): a request that does not read is counted and timed like any other refusal.
func (r *Relayer) Reveal(ctx context.Context, read func() (RevealRequest, error)) (res RevealResult, err error) {
	start := time.Now()
	defer func() {
		outcomeCode := "SUCCESS"
		if err != nil {
			outcomeCode = named(err).Code
		}
		r.metrics.reveals.WithLabelValues(outcomeCode).Inc()
		edge.ObserveWithTrace(ctx, r.metrics.stage.WithLabelValues("total"), time.Since(start).Seconds())
		span := trace.SpanFromContext(ctx)
		span.SetAttributes(attribute.String("vaultd.outcome", outcomeCode))
		if res.TxHash != "" {
			span.SetAttributes(attribute.String("vaultd.tx_hash", res.TxHash))
		}
	}()
	_, end := r.span(ctx, "parse")
	in, err := read()
	end(err)
	if err != nil {
		return res, err
	}
	return r.once(ctx, in)
}

// once runs a parsed reveal once per nullifier: a reveal whose transaction is in flight gets its
// outcome (mined within RECEIPT_TIMEOUT, or 504 TX_PENDING again), and a concurrent request for
// the nullifier waits for the first's: an identical one takes it, and another (its own proof, its
// own payment) takes it only if the first went through, or runs on its own: a request that
// names someone's nullifier with a proof that does not verify must not refuse theirs.
func (r *Relayer) once(ctx context.Context, in RevealRequest) (res RevealResult, err error) {
	r.mu.Lock()
	if f, ok := r.sent[in.nullifier]; ok {
		r.mu.Unlock()
		// Its span links to the send of the request that sent the transaction (none for one
		// adopted at start).
		jctx, span := r.tracer.Start(ctx, "join", trace.WithLinks(trace.Link{SpanContext: f.Origin()}),
			trace.WithAttributes(attribute.String("vaultd.tx_hash", f.Hash().Hex())))
		defer span.End()
		return r.await(context.WithoutCancel(jctx), f)
	}
	if o, ok := r.running[in.nullifier]; ok {
		r.mu.Unlock()
		select {
		case <-o.done:
		case <-ctx.Done():
			return res, ctx.Err()
		}
		if o.err != nil && !reflect.DeepEqual(o.in, in) {
			return r.once(ctx, in)
		}
		return o.result, o.err
	}
	o := &outcome{in: in, done: make(chan struct{})}
	r.running[in.nullifier] = o
	r.mu.Unlock()
	defer func() {
		o.result, o.err = res, err
		r.mu.Lock()
		delete(r.running, in.nullifier)
		r.mu.Unlock()
		close(o.done)
	}()
	if err := r.gate.Check(ctx); err != nil {
		return res, err
	}
	// A client that goes away does not abort a reveal half done: its checks, its send and the
	// wait for its receipt are bounded by RPC_TIMEOUT and RECEIPT_TIMEOUT, and identical requests
	// waiting on it get its real outcome.
	return r.reveal(context.WithoutCancel(ctx), in)
}
