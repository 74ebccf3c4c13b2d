package chain

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// On a fallback, the first endpoint is tried again after the failback time, however steady the
// traffic on the fallback, and used again if it answers; if it fails again, it waits another
// failback time.
func TestFailback(t *testing.T) {
	t.Parallel()
	var down atomic.Bool
	var hits [2]atomic.Int32
	server := func(i int) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			if i == 0 && down.Load() {
				http.Error(w, "down", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`))
		}))
		t.Cleanup(s.Close)
		return s
	}
	first, second := server(0), server(1)
	f, err := newFailover([]string{first.URL, second.URL}, http.DefaultTransport, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.failback = time.Second
	client := &http.Client{Transport: f}
	call := func() {
		t.Helper()
		resp, err := client.Post(placeholderURL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("call: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	// Steady traffic on the fallback (a call every 20 ms) does not push the failback off.
	down.Store(true)
	for range 5 {
		call()
		time.Sleep(20 * time.Millisecond)
	}
	if h0, h1 := hits[0].Load(), hits[1].Load(); h0 != 1 || h1 != 5 || f.current != 1 {
		t.Fatalf("first asked %d times, second %d, in use %d; want 1, 5, 1", h0, h1, f.current)
	}
	down.Store(false)
	for deadline := time.Now().Add(5 * time.Second); f.current != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still on the fallback 5 s after the first recovered (failback 1 s): first asked %d times", hits[0].Load())
		}
		call()
	}

	// A first endpoint that fails again on the failback try waits another failback time.
	down.Store(true)
	call() // to the fallback
	before := hits[0].Load()
	for range 5 {
		call()
		time.Sleep(20 * time.Millisecond)
	}
	if hits[0].Load() != before {
		t.Fatalf("the failed first endpoint was asked again within the failback time")
	}
}
