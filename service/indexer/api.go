package indexer

import (
	"context"
	"io"
	"strconv"
	"time"

	"github.com/seed018cc74c/vaultd/gen/indexerapi"
	"github.com/seed018cc74c/vaultd/gen/indexerserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
)

// api implements the generated strict server; the errors its handlers return are answered by
// answers.go's answer, the indexer's one way from an error to its HTTP answer.
type api struct {
	ix      *Indexer
	chainID uint64
	started time.Time
	streams *streamSlots
	schema  map[string]int64 // the database's migrations at start (GET /health)
}

var _ indexerserver.StrictServerInterface = (*api)(nil)

func (a *api) ListEvents(ctx context.Context, req indexerserver.ListEventsRequestObject) (indexerserver.ListEventsResponseObject, error) {
	p := req.Params
	q := Query{Name: string(p.Event), Limit: 1000}
	if p.FromBlock != nil {
		q.From = uint64(*p.FromBlock) // the schema's minimum is 0
	}
	if p.ToBlock != nil && *p.ToBlock != "latest" {
		to, err := strconv.ParseUint(*p.ToBlock, 10, 64)
		if err != nil {
			return nil, edge.InvalidRequest("toBlock must be a block number or latest, got %q", *p.ToBlock)
		}
		q.To = &to
	}
	if p.Limit != nil {
		q.Limit = *p.Limit
	}
	if p.Cursor != nil {
		q.Cursor = *p.Cursor
	}
	page, err := a.ix.Events(ctx, q)
	if err != nil {
		return nil, err
	}
	out := indexerapi.EventPage{Events: make([]indexerapi.Event, len(page.Events)), IndexedTo: block(page.IndexedTo)}
	for i, e := range page.Events {
		out.Events[i] = eventJSON(e)
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	return indexerserver.ListEvents200JSONResponse{Body: out}, nil
}

func (a *api) StreamEvents(ctx context.Context, req indexerserver.StreamEventsRequestObject) (indexerserver.StreamEventsResponseObject, error) {
	p := req.Params
	if err := a.ix.knownEvent(string(p.Event)); err != nil {
		return nil, err
	}
	var from uint64
	if p.FromBlock != nil {
		from = uint64(*p.FromBlock)
	}
	// Last-Event-ID first: it is what an EventSource sends when it reconnects, newer than the
	// cursor in the URL it was opened with.
	var c *cursor
	for _, s := range []*string{p.LastEventID, p.Cursor} {
		if s != nil && *s != "" {
			parsed, err := readCursor(*s)
			if err != nil {
				return nil, err
			}
			c = &parsed
			break
		}
	}
	if c != nil { // a cursor of another event is refused now, not sent a reorg later
		if _, err := a.ix.checkCursor(ctx, string(p.Event), *c); err != nil {
			return nil, err
		}
	}
	release, err := a.streams.take(ratelimit.ClientKey(edge.ClientIP(ctx), a.ix.cfg.Limits.IPv6Prefix))
	if err != nil {
		return nil, err
	}
	body, w := io.Pipe()
	go func() {
		defer release()
		w.CloseWithError(a.ix.stream(ctx, w, string(p.Event), from, c))
	}()
	noCache, noBuffering := "no-cache", "no"
	return indexerserver.StreamEvents200TexteventStreamResponse{Body: body,
		Headers: indexerserver.StreamEvents200ResponseHeaders{CacheControl: &noCache, XAccelBuffering: &noBuffering}}, nil
}

func (a *api) GetHealth(ctx context.Context, req indexerserver.GetHealthRequestObject) (indexerserver.GetHealthResponseObject, error) {
	indexed, head, reachable := a.ix.State()
	h := indexerapi.Health{
		Status: indexerapi.Healthy, Version: buildversion.String(), Schema: edge.Schema(a.schema), ChainId: int64(a.chainID), IndexedTo: block(indexed), Head: int64(head),
		StartBlock: int64(a.ix.cfg.StartBlock), Confirmations: int(a.ix.cfg.Confirmations), Uptime: int(time.Since(a.started) / time.Second),
	}
	if head > indexed.Number {
		h.Lag = int64(head - indexed.Number)
	}
	if !reachable || h.Lag > int64(a.ix.cfg.Confirmations)+healthyLag {
		h.Status = indexerapi.Degraded
	}
	return indexerserver.GetHealth200JSONResponse{Body: h}, nil
}

// GetReady is the readiness probe: 503 while the chain is unreachable or the indexer lags, its
// code and message answer's. It is answered, not logged, however often a load balancer asks.
func (a *api) GetReady(ctx context.Context, req indexerserver.GetReadyRequestObject) (indexerserver.GetReadyResponseObject, error) {
	if err := a.ix.ready(); err != nil {
		e := answer(err)
		return indexerserver.GetReady503JSONResponse{Body: indexerapi.NotReadyError{Code: e.Code, Error: e.Message}}, nil
	}
	return indexerserver.GetReady200JSONResponse{Body: indexerapi.Ready{Ready: true}}, nil
}

func block(b Block) indexerapi.Block {
	return indexerapi.Block{BlockNumber: int64(b.Number), BlockHash: b.Hash.Hex()}
}
