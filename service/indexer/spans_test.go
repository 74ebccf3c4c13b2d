package indexer_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/indexer"
)

// The indexer's traces, as a collector receives them over OTLP: each poll that indexes blocks is
// a trace of its own (indexer.sync: from which block to which, the chain calls and the SQL that
// stored them); a query is the request's span with its SQL statements beneath.
func TestIndexerSpans(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "indexer", nil)
	s := startIndexerWith(t, c, t.TempDir(), nil, indexer.Options{Traces: tp})
	commit(t, c, 0, 2)
	caughtUp(t, s, c)

	var sync otlptest.Trace
	for _, sp := range rx.Spans(t, tp) {
		if sp.Name == "indexer.sync" && sp.ParentID == "" {
			tr := otlptest.TraceOf(rx.Spans(t, tp), sp.TraceID)
			var rpc, sql bool
			for _, x := range tr {
				rpc = rpc || x.Attrs["rpc.system"] == "jsonrpc"
				sql = sql || x.Attrs["db.system.name"] != ""
			}
			if rpc && sql && sp.Attrs["vaultd.indexed_block"] != "" {
				sync = tr
			}
		}
	}
	if sync == nil {
		t.Fatalf("no indexer.sync trace with its chain calls and SQL among:\n%s", otlptest.Trace(rx.Spans(t, tp)))
	}
	t.Logf("a sync:\n%s", sync)

	resp, err := http.Get(s.url + "/api/indexer?event=CommitmentInserted&limit=10")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("query: %v %v", err, resp)
	}
	resp.Body.Close()
	parts := strings.Split(resp.Header.Get("traceresponse"), "-")
	var query otlptest.Trace
	for deadline := time.Now().Add(15 * time.Second); len(query) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		query = otlptest.TraceOf(rx.Spans(t, tp), parts[1])
	}
	server, _ := query.Named("GET /api/indexer")
	var sql int
	for _, sp := range query.Children(server) {
		if sp.Attrs["db.system.name"] != "" {
			sql++
		}
	}
	if server.Attrs["http.response.status_code"] != "200" || sql == 0 {
		t.Fatalf("the query's trace:\n%s", query)
	}
	t.Logf("a query:\n%s", query)
}
