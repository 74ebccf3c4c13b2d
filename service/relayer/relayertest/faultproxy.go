package relayertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// FaultProxy stands between the relayer and the real dev node and forwards every JSON-RPC call,
// except that a test can make it produce faults the real node cannot: no answer at all for a
// method (the RPC hangs), a late answer (held until Heal, then forwarded), or a lost answer (the
// call reaches the node, the answer is dropped). devchain.FaultProxy injects a provider's faults
// by a rule on each call; this one holds calls until the test says Heal, which a rule cannot.
type FaultProxy struct {
	URL   string
	proxy *httputil.ReverseProxy

	mu      sync.Mutex
	hang    map[string]bool   // method → never answer
	stall   map[string]bool   // method → answer only after Heal
	drop    map[string]bool   // method → forward, then answer garbage
	refuse  map[string]string // method → answer this JSON-RPC error without forwarding
	release chan struct{}
	Hung    atomic.Int32 // calls held unanswered so far
}

// NewFaultProxy forwards to the JSON-RPC endpoint at target until t ends.
func NewFaultProxy(t testing.TB, target string) *FaultProxy {
	u, _ := url.Parse(target)
	p := &FaultProxy{proxy: httputil.NewSingleHostReverseProxy(u), hang: map[string]bool{}, stall: map[string]bool{}, drop: map[string]bool{}, refuse: map[string]string{}, release: make(chan struct{})}
	srv := httptest.NewServer(p)
	t.Cleanup(func() { p.Heal(); srv.Close() })
	p.URL = srv.URL
	return p
}

// Set makes calls of method ("*": every method) hang unanswered, or reach the node and lose
// their answer (drop).
func (p *FaultProxy) Set(method string, hang, drop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hang[method], p.drop[method] = hang, drop
}

// Down makes every method hang (the node is down).
func (p *FaultProxy) Down() { p.Set("*", true, false) }

// Heal undoes every fault and lets the calls held go.
func (p *FaultProxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hang, p.stall, p.drop, p.refuse = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]string{}
	close(p.release)
	p.release = make(chan struct{})
}

// StallUntilHeal holds every call of method until Heal, then forwards it: a slow node.
func (p *FaultProxy) StallUntilHeal(method string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stall[method] = true
}

// RefuseWith makes the node's answer to method a JSON-RPC error with message.
func (p *FaultProxy) RefuseWith(method, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refuse[method] = message
}

// ServeHTTP forwards one call, or produces the fault set for its method.
func (p *FaultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var call struct {
		ID     json.RawMessage
		Method string
	}
	json.Unmarshal(body, &call) // batches have no single method: they pass
	p.mu.Lock()
	hang := p.hang[call.Method] || p.hang["*"]
	stall := p.stall[call.Method]
	drop := p.drop[call.Method]
	refusal := p.refuse[call.Method]
	release := p.release
	p.mu.Unlock()
	if refusal != "" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": call.ID, "error": map[string]any{"code": -32000, "message": refusal}})
		return
	}
	if hang || stall {
		p.Hung.Add(1)
		select {
		case <-r.Context().Done():
			return
		case <-release:
		}
		if hang {
			return
		}
	}
	if drop {
		rec := httptest.NewRecorder()
		p.proxy.ServeHTTP(rec, r) // the node gets the call ...
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, "upstream connection reset") // ... the answer is lost
		return
	}
	p.proxy.ServeHTTP(w, r)
}
