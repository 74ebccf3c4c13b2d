package faucet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

// A claim's traces, as a collector receives them over OTLP: the request's span carrying the
// outcome and the transaction hash, a child span for each stage (the existing claim looked up,
// the estimate, the limit, the record, the send) with the SQL statements and JSON-RPC calls made
// for it; then the settlement, a trace of its own linked to the claim's send, holding the
// outcome's write. A second claim is refused where it is decided, the lookup.
func TestClaimSpans(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "faucet", nil)
	s := startFaucetWith(t, c, t.TempDir(), nil, faucet.Options{Traces: tp})
	addr := freshAddress(t)
	r := claim(t, s, addr.Hex())
	if r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	parts := strings.Split(r.HTTPResponse.Header.Get("traceresponse"), "-")
	tr := otlptest.TraceOf(rx.Spans(t, tp), parts[1])
	t.Logf("the claim's trace:\n%s", tr)
	server, _ := tr.Named("POST /api/faucet/claim")
	if server.Attrs["vaultd.outcome"] != "ACCEPTED" || server.Attrs["vaultd.tx_hash"] != *r.JSON202.TxHash {
		t.Fatalf("server span attributes %v", server.Attrs)
	}
	for _, stage := range []string{"check.claimed", "estimate", "limits", "record", "send"} {
		if sp, ok := tr.Named(stage); !ok || sp.ParentID != server.SpanID {
			t.Errorf("no %s span under the request's", stage)
		}
	}
	send, _ := tr.Named("send")
	var sqlUnderSend, rpcUnderSend bool
	for _, sp := range tr.Children(send) {
		sqlUnderSend = sqlUnderSend || sp.Attrs["db.system.name"] != ""
		rpcUnderSend = rpcUnderSend || sp.Attrs["rpc.method"] == "eth_sendRawTransaction"
	}
	if !sqlUnderSend || !rpcUnderSend {
		t.Errorf("the send holds no SQL statement (the record) or no eth_sendRawTransaction:\n%s", tr)
	}
	waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
	var settlement otlptest.Trace
	for deadline := time.Now().Add(10 * time.Second); settlement == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no settlement trace linked to the claim's send")
		}
		for _, sp := range rx.Spans(t, tp) {
			if sp.Name == "faucet.settle" && len(sp.Links) == 1 && sp.Links[0].SpanID == send.SpanID {
				settlement = otlptest.TraceOf(rx.Spans(t, tp), sp.TraceID)
			}
		}
	}
	t.Logf("its settlement:\n%s", settlement)
	settle, _ := settlement.Named("faucet.settle")
	if settle.ParentID != "" || settle.Attrs["vaultd.tx_hash"] != *r.JSON202.TxHash || settle.Attrs["vaultd.block"] == "" || len(settlement.Children(settle)) == 0 {
		t.Errorf("the settlement: %+v\n%s", settle, settlement)
	}

	again := claim(t, s, addr.Hex())
	parts = strings.Split(again.HTTPResponse.Header.Get("traceresponse"), "-")
	tr = otlptest.TraceOf(rx.Spans(t, tp), parts[1])
	lookup, _ := tr.Named("check.claimed")
	if again.StatusCode() != 409 || lookup.Attrs["vaultd.code"] != "ALREADY_CLAIMED" || len(lookup.Events) != 1 {
		t.Fatalf("a second claim (%d):\n%s\nlookup %+v", again.StatusCode(), tr, lookup)
	}
}
