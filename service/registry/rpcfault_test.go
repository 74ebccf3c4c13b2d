package registry_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
)

// These two faults cannot be produced by a real node, so a fake JSON-RPC endpoint stands in for
// the chain: one that answers garbage, one that never answers. Both must give 502
// CHAIN_UNAVAILABLE within RPC_TIMEOUT, change nothing, and leave health degraded.
func TestRPCFaultsTheNodeCannotProduce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		minTime time.Duration
		handler func(release <-chan struct{}) http.HandlerFunc
	}{
		{"garbage answer", 0, func(<-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`<html>502 Bad Gateway</html>`))
			}
		}},
		{"no answer", 300 * time.Millisecond, func(release <-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-release:
				}
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			fake := httptest.NewServer(c.handler(release))
			t.Cleanup(fake.Close)
			t.Cleanup(func() { close(release) }) // runs first: lets a hung handler return
			s := startServer(t, "", map[string]string{"RPC_URL": fake.URL, "CHAIN_ID": "1337", "RPC_TIMEOUT": "300ms"})
			start := time.Now()
			resp := upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
			took := time.Since(start)
			wantError(t, c.name, 502, resp.Body, resp.StatusCode(), "CHAIN_UNAVAILABLE")
			if took < c.minTime || took > 3*time.Second {
				t.Fatalf("the request took %v: RPC_TIMEOUT (300ms) was not what ended it", took)
			}
			if n := len(listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)}).JSON200.Tokens); n != 0 {
				t.Fatalf("%d tokens after a failed write", n)
			}
			h, err := s.public.GetHealthWithResponse(ctx)
			if err != nil || h.JSON200.Status != registryapi.Degraded {
				t.Fatalf("health: %v %s", err, h.Body)
			}
		})
	}
}
