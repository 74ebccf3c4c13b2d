package indexer_test

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// hookedTraces is a tracer provider that calls onQuery with the text and the context of every SQL
// statement the store runs inside a request (before it runs): where a test acts between the
// service's store queries.
type hookedTraces struct {
	trace.TracerProvider
	onQuery func(ctx context.Context, query string)
}

func (p hookedTraces) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	return hookedTracer{Tracer: p.TracerProvider.Tracer(name, opts...), onQuery: p.onQuery}
}

type hookedTracer struct {
	trace.Tracer
	onQuery func(ctx context.Context, query string)
}

func (t hookedTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	for _, a := range cfg.Attributes() {
		if a.Key == "db.statement" || a.Key == "db.query.text" {
			t.onQuery(ctx, a.Value.AsString())
			break
		}
	}
	return t.Tracer.Start(ctx, name, opts...)
}

// A client that leaves while its stream is being served (its request's context cancelled
// during the stream's store queries) is no fault of the service: the stream ends without an
// ERROR line. It was logged as an internal error ("context canceled"), after the 200 was sent.
// Deterministic, whatever the timing: the client leaves, and the server has seen it leave, as
// the stream's own lookup of its Last-Event-ID starts (after the handler's, and the 200), so
// that lookup, or the store query after it, fails with the request's context done.
func TestAClientLeavingAStreamIsNoError(t *testing.T) {
	eachStore(t, testAClientLeavingAStreamIsNoError)
}

func testAClientLeavingAStreamIsNoError(t *testing.T) {
	c := devchaintest.Start(t)
	logs := &edgetest.Logs{}
	reqCtx, leave := context.WithCancel(context.Background())
	defer leave()
	var lookups atomic.Int32
	var seen atomic.Bool // the server saw the client leave
	tp := sdktrace.NewTracerProvider()
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	traces := hookedTraces{TracerProvider: tp, onQuery: func(ctx context.Context, query string) {
		if !strings.Contains(query, "SELECT event, block_hash FROM events") { // a cursor's lookup
			return
		}
		if lookups.Add(1) != 2 { // the second: the stream's own, after the handler's and the 200
			return
		}
		leave()
		select {
		case <-ctx.Done():
			seen.Store(true)
		case <-time.After(10 * time.Second):
		}
	}}
	s := startIndexerWith(t, c, t.TempDir(), nil, indexer.Options{Traces: traces, Logger: edge.NewLogger(logs, slog.LevelDebug, "indexer")})
	cursor := base64.RawURLEncoding.EncodeToString([]byte("1:0:0x" + strings.Repeat("ab", 32)))
	req, _ := http.NewRequestWithContext(reqCtx, "GET", s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	req.Header.Set("Last-Event-ID", cursor)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	waitFor(t, "the stream's access line", func() bool { return strings.Contains(logs.String(), `"route":"/api/indexer/stream"`) })
	if !seen.Load() {
		t.Fatalf("the server did not see the client leave within 10 s; logs:\n%s", logs)
	}
	if errs := edgetest.Grep(logs.String(), `"level":"ERROR"`); errs != "" {
		t.Fatalf("a client leaving its stream was logged as an error:\n%s", errs)
	}
}

// A fault of the store in the middle of a stream, its client still there, is still a fault: one
// ERROR line, and the stream ends. The fault: a row no indexer writes (a negative log index),
// which the stream's next query cannot read back.
func TestAStoreFaultMidStreamIsAnError(t *testing.T) { eachStore(t, testAStoreFaultMidStreamIsAnError) }

func testAStoreFaultMidStreamIsAnError(t *testing.T) {
	c := devchaintest.Start(t)
	logs := &edgetest.Logs{}
	dir := t.TempDir()
	s := startIndexerWith(t, c, dir, nil, indexer.Options{Logger: edge.NewLogger(logs, slog.LevelDebug, "indexer")})
	commit(t, c, 0, 1)
	caughtUp(t, s, c)
	events := subscribe(t, s.url+"/api/indexer/stream?event=CommitmentInserted", nil)
	next(t, events)

	head, err := c.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqldb.Open(databaseURL(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `INSERT INTO events (event, block_number, log_index, block_hash, tx_hash, address, args)
		VALUES ('CommitmentInserted', $1, -1, '0x', '0x', '0x', '{}')`, head.Number.Int64()+1); err != nil {
		t.Fatal(err)
	}
	// The next block (a transfer: no event of its own) wakes the stream, whose query reads the row.
	self := c.Accounts.Deployer.Address
	if _, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &self, big.NewInt(1), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case e, ok := <-events:
		if ok {
			t.Fatalf("an event after the fault: %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end at the fault")
	}
	waitFor(t, "the stream's access line", func() bool { return strings.Contains(logs.String(), `"route":"/api/indexer/stream"`) })
	errs := edgetest.Grep(logs.String(), `"level":"ERROR"`)
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `"route":"/api/indexer/stream"`) || !strings.Contains(errs, "log_index") {
		t.Fatalf("a fault of the store mid-stream logged as:\n%s\nwant one ERROR line of the stream, with its cause", errs)
	}
}
