package registry_test

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"
)

// Everything a registry starts, it stops: built, serving a request and closed, it leaves no
// goroutine behind (the dev chain's, running before, are not counted).
func TestNoGoroutineOutlivesTheRegistry(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	s := startServer(t, "", nil)
	if r, err := s.public.ListTokensWithResponse(ctx, nil); err != nil || r.JSON200 == nil {
		t.Fatalf("GET /tokens: %v", err)
	}
	s.close()
	http.DefaultClient.CloseIdleConnections()
	goleak.VerifyNone(t, ignore)
}
