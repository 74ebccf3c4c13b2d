package devchaintest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// CallCounter stands between a service and the dev chain, forwards every JSON-RPC call as it is,
// and counts them by method: what a metered provider would bill.
type CallCounter struct {
	URL string // give this to the service as its RPC_URL

	mu    sync.Mutex
	calls map[string]int
}

// CountCalls starts a counter in front of the JSON-RPC endpoint target, closed when t ends.
func CountCalls(t testing.TB, target string) *CallCounter {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	c := &CallCounter{calls: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var one struct{ Method string }
		var batch []struct{ Method string }
		c.mu.Lock()
		if json.Unmarshal(body, &batch) == nil {
			for _, call := range batch {
				c.calls[call.Method]++
			}
		} else if json.Unmarshal(body, &one) == nil {
			c.calls[one.Method]++
		}
		c.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// Take returns the calls counted since the last Take, by method, and their total.
func (c *CallCounter) Take() (byMethod map[string]int, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	byMethod, c.calls = c.calls, map[string]int{}
	for _, n := range byMethod {
		total += n
	}
	return byMethod, total
}
