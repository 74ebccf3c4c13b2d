package chain

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// On a fallback, the first endpoint is tried again after the failback time, and used again if
// it answers.
func TestFailback(t *testing.T) {
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
	f.failback = 200 * time.Millisecond
	client := &http.Client{Transport: f}
	call := func() {
		t.Helper()
		resp, err := client.Post(placeholderURL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("call: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	down.Store(true)
	call()
	call() // stays on the fallback: the first is not asked again yet
	if h0, h1 := hits[0].Load(), hits[1].Load(); h0 != 1 || h1 != 2 || f.current != 1 {
		t.Fatalf("first asked %d times, second %d, in use %d; want 1, 2, 1", h0, h1, f.current)
	}
	down.Store(false)
	time.Sleep(250 * time.Millisecond)
	call()
	call()
	if h0, h1 := hits[0].Load(), hits[1].Load(); h0 != 3 || h1 != 2 || f.current != 0 {
		t.Fatalf("after the failback time: first asked %d times, second %d, in use %d; want 3, 2, 0", h0, h1, f.current)
	}
}
