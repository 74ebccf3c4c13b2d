package registry_test

import (
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// A registry write's trace, as a collector receives it over OTLP: the request's span, the
// token's metadata read from the chain (one eth_call each for its name, symbol and decimals) and
// the store's write; a token the chain does not have is refused where that is decided.
func TestWriteSpans(t *testing.T) {
	t.Parallel()
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "registry", nil)
	s := startServerWith(t, "", nil, registry.Options{Traces: tp})
	resp := upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	if resp.StatusCode() != 201 {
		t.Fatalf("write: %d %s", resp.StatusCode(), resp.Body)
	}
	tr := otlptest.TraceOf(rx.Spans(t, tp), strings.Split(resp.HTTPResponse.Header.Get("traceresponse"), "-")[1])
	t.Logf("a write:\n%s", tr)
	server, _ := tr.Named("POST /tokens")
	metadata, ok := tr.Named("metadata")
	store, ok2 := tr.Named("store")
	if !ok || !ok2 || metadata.ParentID != server.SpanID || store.ParentID != server.SpanID {
		t.Fatalf("the write's steps:\n%s", tr)
	}
	calls := 0
	for _, sp := range tr.Children(metadata) {
		if sp.Attrs["rpc.method"] == "eth_call" {
			calls++
		}
	}
	if calls == 0 {
		t.Errorf("no eth_call under the metadata read:\n%s", tr)
	}

	resp = upsert(t, s, registryapi.TokenInput{Address: "0x1111111111111111111111111111111111111111"})
	tr = otlptest.TraceOf(rx.Spans(t, tp), strings.Split(resp.HTTPResponse.Header.Get("traceresponse"), "-")[1])
	metadata, _ = tr.Named("metadata")
	if resp.StatusCode() < 400 || metadata.Attrs["vaultd.code"] == "" || len(metadata.Events) == 0 {
		t.Fatalf("a token the chain does not have (%d):\n%s\nmetadata %+v", resp.StatusCode(), tr, metadata)
	}
	if _, stored := tr.Named("store"); stored {
		t.Errorf("a refused write reached the store:\n%s", tr)
	}
}
