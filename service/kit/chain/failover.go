package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Endpoints splits RPC_URL into its endpoints: one URL, or several separated by commas, the
// first preferred and the others its fallbacks in order.
func Endpoints(rpcURL string) []string {
	var out []string
	for _, e := range strings.Split(rpcURL, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// failbackAfter is how long a client stays on a fallback endpoint before it tries the first
// one again.
const failbackAfter = time.Minute

// failover is the HTTP transport of a client of the chain: each JSON-RPC request goes to the
// endpoint in use. When that endpoint cannot be reached, or answers 429 or a 5xx, the same
// request goes to the next endpoint, which is then in use. A transaction's send is the
// exception: it goes on to the next endpoint only when the first could not be connected to; an
// answer of 429 or 5xx, or a connection lost after the request left, is passed back as it is,
// since the transaction may have reached a node all the same. A request that times out leaves the
// next request to start at the next endpoint. After failbackAfter on a fallback, the first
// endpoint is tried again. Credentials in an endpoint's URL go to that endpoint alone, and
// errors and logs name an endpoint by its position and host, never by its URL (which may hold an
// API key): go-ethereum's client only ever sees placeholderURL.
type failover struct {
	endpoints []*url.URL // without their user info
	auth      []*url.Userinfo
	next      http.RoundTripper
	metrics   *Metrics
	failback  time.Duration

	mu      sync.Mutex
	current int
	since   time.Time // when current became the endpoint in use
}

// placeholderURL is the address go-ethereum's client is given: the transport replaces it with
// an endpoint's, and it is what the client's own errors show.
const placeholderURL = "http://rpc-url/"

func newFailover(endpoints []string, next http.RoundTripper, metrics *Metrics) (*failover, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("RPC_URL has no endpoint")
	}
	f := &failover{next: next, metrics: metrics, failback: failbackAfter}
	for i, e := range endpoints {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("RPC_URL: endpoint %d is not an http(s) URL", i+1)
		}
		f.auth = append(f.auth, u.User)
		u.User = nil
		f.endpoints = append(f.endpoints, u)
	}
	return f, nil
}

// name is how logs and errors name endpoint i: its position in RPC_URL (from 1) and its host.
func (f *failover) name(i int) string {
	return fmt.Sprintf("endpoint %d (%s)", i+1, f.endpoints[i].Host)
}

// pick is the endpoint a request starts at.
func (f *failover) pick() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.current != 0 && time.Since(f.since) >= f.failback {
		return 0
	}
	return f.current
}

// use makes endpoint i the one in use. triedFirst says the request began at the first endpoint:
// if it ends on the fallback already in use, the first failed again, and gets another
// failbackAfter before it is tried once more. (Requests that begin on the fallback leave that
// time be: with steady traffic they would otherwise push the failback off for ever.)
func (f *failover) use(i int, triedFirst bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i == f.current {
		if i != 0 && triedFirst {
			f.since = time.Now()
		}
		return
	}
	from := f.current
	f.current, f.since = i, time.Now()
	f.metrics.Switched(i)
	if i == 0 {
		slog.Info("back on the chain's first JSON-RPC endpoint", "from", f.name(from), "to", f.name(i))
	} else {
		slog.Warn("the chain's JSON-RPC endpoint in use changed: the one before failed", "from", f.name(from), "to", f.name(i))
	}
}

func (f *failover) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := f.body(req)
	if err != nil {
		return nil, err
	}
	send := isSend(body)
	first := f.pick()
	var errs []error
	for k := range f.endpoints {
		i := (first + k) % len(f.endpoints)
		r := req.Clone(req.Context())
		r.URL, r.Host = f.endpoints[i], ""
		r.Header.Del("Authorization")
		if a := f.auth[i]; a != nil {
			pw, _ := a.Password()
			r.SetBasicAuth(a.Username(), pw)
		}
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		}
		if !send {
			// A read may be written twice: net/http then asks it again on another connection
			// when a kept-alive one was closed or reset before any answer (a node ending a
			// keep-alive as the call is written; geth resets some under load), and stops at the
			// first answer or at a fresh connection's failure. A key with no value marks it so
			// and is not sent.
			r.Header["Idempotency-Key"] = nil
		}
		span, call := f.startCall(req.Context(), body, i)
		resp, err := f.next.RoundTrip(r)
		endCall(span, call, resp, err)
		if err == nil && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			f.use(i, first == 0)
			return resp, nil
		}
		if send && (err == nil || !neverSent(err)) {
			// The endpoint (or a gateway in front of it) may have passed the transaction on
			// before it failed: sent again elsewhere, it could be mined twice over, or a
			// fallback's "nonce too low" could be taken for a refusal. Its fate is decided by
			// its hash (txmgr), never by another send.
			if err == nil {
				f.use(i, first == 0)
				return resp, nil
			}
			return nil, fmt.Errorf("%s: %w", f.name(i), err)
		}
		if err == nil {
			err = fmt.Errorf("answered %s", resp.Status)
			if k == len(f.endpoints)-1 {
				f.use(i, first == 0)
				return resp, nil // the last one's answer, as it is
			}
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		errs = append(errs, fmt.Errorf("%s: %w", f.name(i), err))
		if ctxErr := req.Context().Err(); ctxErr != nil {
			if errors.Is(ctxErr, context.DeadlineExceeded) {
				f.use((i+1)%len(f.endpoints), first == 0) // it hung: the next request tries another
			}
			break
		}
	}
	return nil, errors.Join(errs...)
}

// isSend reports whether a JSON-RPC request body sends a transaction. The method's name cannot
// appear in a request for anything else: parameters are hex, addresses and block tags.
func isSend(body []byte) bool {
	return bytes.Contains(body, []byte(`"eth_send`)) // eth_sendRawTransaction, eth_sendTransaction, eth_sendRawTransactionSync
}

// neverSent reports whether a transport error happened before the request left: the endpoint
// could not be connected to, so it cannot have received anything.
func neverSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// body reads the request's body once, to send it to each endpoint it tries.
func (f *failover) body(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}
