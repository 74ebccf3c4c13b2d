package devchain

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
)

// CallCounter stands between a service and a JSON-RPC endpoint, forwards every call as it is,
// and counts them by method: what a metered provider would bill. Tests and load commands use it
// to measure how many calls a service makes.
type CallCounter struct {
	URL string // give this to the service as its RPC_URL

	srv   *http.Server
	mu    sync.Mutex
	calls map[string]int
}

// CountCalls starts a counter on a loopback port in front of target.
func CountCalls(target string) (*CallCounter, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	c := &CallCounter{URL: "http://" + ln.Addr().String(), calls: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(u)
	c.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		c.count(body)
		proxy.ServeHTTP(w, r)
	})}
	go c.srv.Serve(ln)
	return c, nil
}

func (c *CallCounter) count(body []byte) {
	var one struct{ Method string }
	var batch []struct{ Method string }
	c.mu.Lock()
	defer c.mu.Unlock()
	if json.Unmarshal(body, &batch) == nil {
		for _, call := range batch {
			c.calls[call.Method]++
		}
	} else if json.Unmarshal(body, &one) == nil {
		c.calls[one.Method]++
	}
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

// Close stops the counter.
func (c *CallCounter) Close() error { return c.srv.Close() }
