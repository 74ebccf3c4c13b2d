package faucet_test

import (
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
)

// A claim makes a server span carrying the outcome and the transaction hash, with a child span
// for each stage: the estimate, the record in the store and the send.
func TestClaimSpans(t *testing.T) {
	c := devchaintest.Start(t)
	exp := tracetest.NewInMemoryExporter()
	tp, err := platform.NewTracerProvider(ctx, "faucet", func(string) string { return "" }, sdktrace.NewSimpleSpanProcessor(exp))
	if err != nil {
		t.Fatal(err)
	}
	s := startFaucetWith(t, c, t.TempDir(), nil, faucet.Options{Traces: tp})
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	byName := map[string]tracetest.SpanStub{}
	for _, sp := range exp.GetSpans() {
		byName[sp.Name] = sp
	}
	server, ok := byName["POST /api/faucet/claim"]
	if !ok {
		t.Fatalf("no server span among %v", byName)
	}
	attrs := map[string]string{}
	for _, a := range server.Attributes {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if attrs["vaultd.outcome"] != "ACCEPTED" || attrs["vaultd.tx_hash"] != *r.JSON202.TxHash {
		t.Fatalf("server span attributes %v", attrs)
	}
	for _, stage := range []string{"estimate", "record", "send"} {
		sp, ok := byName[stage]
		if !ok || sp.Parent.SpanID() != server.SpanContext.SpanID() {
			t.Errorf("no %s span under the request's", stage)
		}
	}
	exp.Reset()
	claim(t, s, addr.Hex())
	for _, sp := range exp.GetSpans() {
		for _, a := range sp.Attributes {
			if sp.Name == "POST /api/faucet/claim" && a.Key == "vaultd.outcome" && a.Value.Emit() != "ALREADY_CLAIMED" {
				t.Fatalf("a second claim's outcome attribute: %s", a.Value.Emit())
			}
		}
	}
}
