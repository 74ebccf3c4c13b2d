package chain_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// Inside a traced operation each JSON-RPC request is a client span: its method, the endpoint's
// position (never its URL), and for an answer that is a JSON-RPC error object, its code and an
// error status. Outside any operation a call makes no span.
func TestCallSpans(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	client, err := chain.Dial("http://127.0.0.1:1,"+c.RPCURL, 5*time.Second, chain.NewMetrics(prometheus.NewRegistry()).Traced(tp))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if _, err := client.BlockNumber(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Ended()); n != 0 {
		t.Fatalf("%d spans of a call outside any operation", n)
	}
	ctx, op := tp.Tracer("test").Start(context.Background(), "operation")
	if _, err := client.BlockNumber(ctx); err != nil {
		t.Fatal(err)
	}
	var x any
	if err := client.Eth().Client().CallContext(ctx, &x, "vaultd_noSuchMethod"); err == nil {
		t.Fatal("an unknown method answered")
	}
	op.End()
	got := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		got[s.Name()] = s
	}
	attrs := func(s sdktrace.ReadOnlySpan) map[string]string {
		m := map[string]string{}
		for _, a := range s.Attributes() {
			m[string(a.Key)] = a.Value.Emit()
		}
		return m
	}
	block, ok := got["eth_blockNumber"]
	if a := attrs(block); !ok || a["rpc.system"] != "jsonrpc" || a["vaultd.rpc.endpoint"] != "1" || block.Status().Code != codes.Unset || block.Parent().SpanID() != op.SpanContext().SpanID() {
		t.Errorf("eth_blockNumber's span: %v %v", a, block.Status())
	}
	unknown, ok := got["vaultd_noSuchMethod"]
	if a := attrs(unknown); !ok || a["rpc.jsonrpc.error_code"] != "-32601" || unknown.Status().Code != codes.Error {
		t.Errorf("an unknown method's span: %v %v", a, unknown.Status())
	}
	for _, s := range rec.Ended() {
		for _, a := range s.Attributes() {
			if a.Value.Emit() == c.RPCURL {
				t.Errorf("a span names the endpoint's URL: %s", s.Name())
			}
		}
	}
}

// A call the contract refuses (a revert) is an answer, not a failing call: it is timed but not
// counted in vaultd_chain_call_errors_total, which the alert on a failing RPC reads.
func TestARevertIsNotACallError(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	reg := prometheus.NewRegistry()
	client, err := chain.Dial(c.RPCURL, 5*time.Second, chain.NewMetrics(reg))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	_, err = client.Call(context.Background(), "no_such_function", c.Contracts.Vault, []byte{0xde, 0xad, 0xbe, 0xef})
	if err == nil || !chain.IsNodeAnswer(err) {
		t.Fatalf("an unknown selector: %v, want the node's revert", err)
	}
	timed, err := testutil.GatherAndCount(reg, "vaultd_chain_call_duration_seconds")
	if err != nil || timed != 1 {
		t.Fatalf("%d timed calls (%v), want the reverted one", timed, err)
	}
	if n, err := testutil.GatherAndCount(reg, "vaultd_chain_call_errors_total"); err != nil || n != 0 {
		t.Fatalf("%d call error series after a revert (%v), want none", n, err)
	}
}
