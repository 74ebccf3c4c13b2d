package relayer_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
	"github.com/seed018cc74c/vaultd/service/kit/platform/otlptest"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

// A reveal's trace, as a collector receives it over OTLP: the request's server span carrying
// the outcome and the transaction hash, a child span for each stage (the chain checks, the
// off-chain verification, the simulation, the send, the receipt wait), and under them every
// JSON-RPC call (rpc.method, the endpoint's position) and SQL statement made for it.
func TestRevealSpans(t *testing.T) {
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "relayer", nil)
	cfg, err := relayer.LoadConfig(env(t, c, nil))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{Traces: tp})
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	runCtx, cancel := context.WithCancel(context.Background())
	svc.Start()
	done := make(chan struct{})
	go func() { platform.Serve(runCtx, ln, svc.Handler(), 5*time.Second); close(done) }()
	t.Cleanup(func() { cancel(); <-done; svc.Close() })
	client, _ := relayerapi.NewClientWithResponses("http://" + ln.Addr().String())

	_, req := request(t, c, devUsers(c, 0), 8)
	resp, err := client.RevealWithResponse(ctx, req)
	if err != nil || resp.StatusCode() != 200 {
		t.Fatalf("reveal: %v %s", err, resp.Body)
	}
	spans := rx.Spans(t, tp)
	var server otlptest.Span
	for _, s := range spans {
		if s.Name == "POST /reveal" {
			server = s
		}
	}
	tr := otlptest.TraceOf(spans, server.TraceID)
	t.Logf("the reveal's trace:\n%s", tr)
	if server.Attrs["vaultd.outcome"] != "SUCCESS" || server.Attrs["vaultd.tx_hash"] != resp.JSON200.TxHash {
		t.Fatalf("server span attributes %v", server.Attrs)
	}
	for _, stage := range []string{"check.chain", "check.verify", "simulate", "send", "receipt"} {
		s, ok := tr.Named(stage)
		if !ok || s.ParentID != server.SpanID {
			t.Errorf("no %s span under the request's:\n%s", stage, tr)
		}
	}
	rpc, sql := 0, 0
	for _, s := range tr {
		if s.Attrs["rpc.system"] == "jsonrpc" {
			rpc++
			if s.Attrs["rpc.method"] == "" || s.Attrs["vaultd.rpc.endpoint"] != "0" || !tr.Under(s, server) {
				t.Errorf("a JSON-RPC span: %+v", s)
			}
		}
		if s.Attrs["db.system.name"] != "" {
			sql++
		}
	}
	if rpc == 0 || sql == 0 {
		t.Errorf("%d JSON-RPC and %d SQL spans in the reveal's trace:\n%s", rpc, sql, tr)
	}
}
