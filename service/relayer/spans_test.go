package relayer_test

import (
	"context"
	"net"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

// A reveal makes a server span carrying the outcome and the transaction hash, with a child span
// for each stage: the chain checks, the off-chain verification, the simulation, the send and the
// receipt wait.
func TestRevealSpans(t *testing.T) {
	c := devchaintest.Start(t)
	exp := tracetest.NewInMemoryExporter()
	tp, err := platform.NewTracerProvider(ctx, "relayer", func(string) string { return "" }, sdktrace.NewSimpleSpanProcessor(exp))
	if err != nil {
		t.Fatal(err)
	}
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
	byName := map[string]tracetest.SpanStub{}
	for _, s := range exp.GetSpans() {
		byName[s.Name] = s
	}
	server, ok := byName["POST /reveal"]
	if !ok {
		t.Fatalf("no server span among %v", keys2(byName))
	}
	attrs := map[string]string{}
	for _, a := range server.Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if attrs["vaultd.outcome"] != "SUCCESS" || attrs["vaultd.tx_hash"] != resp.JSON200.TxHash {
		t.Fatalf("server span attributes %v", attrs)
	}
	for _, stage := range []string{"check.chain", "check.verify", "simulate", "send", "receipt"} {
		s, ok := byName[stage]
		if !ok {
			t.Errorf("no %s span among %v", stage, keys2(byName))
			continue
		}
		if s.Parent.SpanID() != server.SpanContext.SpanID() || s.SpanContext.TraceID() != server.SpanContext.TraceID() {
			t.Errorf("%s is not a child of the request's span", stage)
		}
	}

	exp.Reset()
	again, _ := client.RevealWithResponse(ctx, req)
	for _, s := range exp.GetSpans() {
		if s.Name == "POST /reveal" {
			for _, a := range s.Attributes {
				if a.Key == "vaultd.outcome" && a.Value.Emit() != "NULLIFIER_USED" {
					t.Fatalf("refused request's outcome attribute %s (%s)", a.Value.Emit(), again.Body)
				}
			}
		}
	}
}

func keys2(m map[string]tracetest.SpanStub) (out []string) {
	for k := range m {
		out = append(out, k)
	}
	return out
}
