package localkms

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Fault is what Faults does to one Sign call.
type Fault string

const (
	// Slow: KMS signs and answers, a second later, after a signer with a shorter timeout
	// stopped waiting.
	Slow Fault = "slow"
	// InternalError: KMS is not asked; the answer is a 500 KMSInternalException (the SDK retries it).
	InternalError Fault = "500"
	// Lost: KMS signs, and the connection drops before its answer reaches the caller.
	Lost Fault = "lost"
)

// Faults stands between a service and Local KMS and does to the next Sign calls what it was
// told: a fake, for faults Local KMS cannot produce (an answer slower than the signer's
// timeout, a 500, an answer lost after KMS signed). Every other call passes. It counts the Sign
// calls that reached KMS, per digest.
type Faults struct {
	URL   string // where the service reaches KMS: give it to Setenv
	proxy *httputil.ReverseProxy
	mu    sync.Mutex
	next  []Fault        // for the next Sign calls in turn
	signs map[string]int // Sign calls forwarded to KMS, by digest (base64)
}

// StartFaults serves a Faults in front of the KMS at target until the test ends.
func StartFaults(t testing.TB, target string) *Faults {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &Faults{proxy: httputil.NewSingleHostReverseProxy(u), signs: map[string]int{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Fail does faults to the next Sign calls, one each, in turn.
func (p *Faults) Fail(faults ...Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = append(p.next, faults...)
}

// ServeHTTP forwards r to KMS, or does the next fault to it if it is a Sign call.
func (p *Faults) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.Header.Get("X-Amz-Target") != "TrentService.Sign" {
		p.proxy.ServeHTTP(w, r)
		return
	}
	var in struct{ Message string }
	_ = json.Unmarshal(body, &in)
	p.mu.Lock()
	var fault Fault
	if len(p.next) > 0 {
		fault, p.next = p.next[0], p.next[1:]
	}
	if fault != InternalError {
		p.signs[in.Message]++
	}
	p.mu.Unlock()
	switch fault {
	case InternalError:
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"__type":"KMSInternalException","message":"injected"}`))
	case Slow:
		time.Sleep(time.Second)
		p.proxy.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
	case Lost:
		p.proxy.ServeHTTP(httptest.NewRecorder(), r)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	default:
		p.proxy.ServeHTTP(w, r)
	}
}

// Signed is how many Sign calls reached KMS, and the most for one digest.
func (p *Faults) Signed() (calls, most int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.signs {
		calls += n
		most = max(most, n)
	}
	return calls, most
}
