package registry_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge"
)

// BenchmarkEdge is what the edge costs a GET /tokens (3 tokens), against the bare handler of
// .ci/barehttp writing the same bytes and the same Content-Type, Cache-Control and ETag:
//   - handler: the handler alone, into a writer that keeps nothing;
//   - server: the whole of net/http's server path as well (reading and parsing the request,
//     the answer's headers serialized and written), over one keep-alive connection that hands
//     over the next request as soon as the last answer is written, without the kernel's
//     loopback: the registry as edge.Serve runs it, bare as barehttp does (http.Serve), and
//     bare-with-headers, bare answering the edge's four headers besides.
//
// Each reports cpu-ns/op, the process's CPU time over the requests, which holds better than
// the wall time when other work shares the machine.
//
// The registry runs with the production defaults (productionOptions: spans with ids and no
// exporter, the access line at info into a LogWriter). With wrk over loopback, each request
// also costs both servers the same kernel time (docs/registry.md: about 24 µs here).
//
//	go test ./service/registry -run '^$' -bench Edge -benchmem -cpuprofile cpu.out
func BenchmarkEdge(b *testing.B) {
	// The per-IP limit out of reach, as .ci/registry-vs-bare sets it: every request is answered.
	s := startServerWith(b, "", map[string]string{"RATE_LIMIT_PER_IP": "1000000000/1s"}, productionOptions(b))
	for i, tok := range testChain.Tokens[:3] {
		if resp := upsert(b, s, registryapi.TokenInput{Address: tok.Address.Hex(), SortOrder: ptr(int32(i))}); resp.StatusCode() != 201 {
			b.Fatalf("upsert %s: %d %s", tok.Symbol, resp.StatusCode(), resp.Body)
		}
	}
	body, _ := s.svc.Registry.List(false)
	bare := bareHandler(body)
	reg := s.svc.Handler()
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare", bare}, {"registry", reg}} {
		b.Run("handler/"+c.name, func(b *testing.B) {
			req, _ := http.NewRequest("GET", "/tokens", nil)
			req.RemoteAddr = "127.0.0.1:1234"
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				clear(w.h)
				c.h.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
	b.Run("server/bare", func(b *testing.B) {
		serveConn(b, body, func(ln net.Listener) { http.Serve(ln, bare) })
	})
	b.Run("server/bare-with-headers", func(b *testing.B) {
		serveConn(b, body, func(ln net.Listener) { http.Serve(ln, withEdgeHeaders(bare)) })
	})
	b.Run("server/registry", func(b *testing.B) {
		serveConn(b, body, func(ln net.Listener) { edge.Serve(context.Background(), ln, reg, time.Second) })
	})
}

// cpuTime is the process's CPU time so far (user and system), in nanoseconds: on a machine
// that other work shares, it holds better than the wall time a request.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// bareHandler is .ci/barehttp's handler.
func bareHandler(body []byte) http.Handler {
	sum := sha256.Sum256(body)
	etag := []string{`"` + hex.EncodeToString(sum[:16]) + `"`}
	contentType, cacheControl := []string{"application/json"}, []string{"public, max-age=15"}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"], h["Cache-Control"], h["Etag"] = contentType, cacheControl, etag
		w.Write(body)
	})
}

// withEdgeHeaders is h answering the four headers the edge adds to GET /tokens, with values of
// their lengths: what net/http's writing them costs, apart from what making them does.
func withEdgeHeaders(h http.Handler) http.Handler {
	id, tr := []string{"0123456789abcdef"}, []string{"00-0123456789abcdef0123456789abcdef-0123456789abcdef-01"}
	policy, quota := []string{`"ip";q=1000000000;w=1`}, []string{`"ip";r=999999999;t=1`}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["X-Request-Id"], hd["Traceresponse"], hd["Ratelimit-Policy"], hd["Ratelimit"] = id, tr, policy, quota
		h.ServeHTTP(w, r)
	})
}

// serveConn serves b.N requests of GET /tokens with serve, over one connection (loopConn), and
// checks that the answers carried body.
func serveConn(b *testing.B, body []byte, serve func(net.Listener)) {
	c := &loopConn{req: []byte("GET /tokens HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), closed: make(chan struct{})}
	ln := &oneConnListener{conn: c, done: make(chan struct{})}
	b.ReportAllocs()
	// b.Loop would time each iteration's wait for the server: the requests are counted out
	// to the connection instead, and the server's time is the benchmark's.
	c.left = b.N
	b.ResetTimer()
	cpu := cpuTime()
	go serve(ln)
	<-c.closed
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	ln.Close()
	if c.answers != b.N || !bytes.HasSuffix(c.last, body) {
		b.Fatalf("%d answers to %d requests; the last ends %q", c.answers, b.N, c.last[max(0, len(c.last)-40):])
	}
	b.ReportMetric(float64(c.written)/float64(b.N), "B/answer")
}

// loopConn is a keep-alive connection whose client sends the next request as soon as the
// last answer is written (as wrk does), left of them, then hangs up.
type loopConn struct {
	req []byte

	mu      sync.Mutex
	left    int  // requests still to send
	asked   bool // a request is sent and its answer not yet written
	pending []byte
	wake    chan struct{}

	answers, written int
	last             []byte
	closed           chan struct{}
	closing          sync.Once
}

func (c *loopConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	for len(c.pending) == 0 {
		if c.left == 0 {
			c.mu.Unlock()
			<-c.closed // net/http's background read waits here until the server hangs up
			return 0, io.EOF
		}
		if c.asked {
			wake := make(chan struct{})
			c.wake = wake
			c.mu.Unlock()
			select {
			case <-wake:
			case <-c.closed:
				return 0, io.EOF
			}
			c.mu.Lock()
			continue
		}
		c.pending, c.asked = c.req, true
		c.left--
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	c.mu.Unlock()
	return n, nil
}

// Write takes one answer (the answers here are smaller than net/http's 4 KiB buffer: one Write
// each) and lets the client send the next request; after the last, the client hangs up.
func (c *loopConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.answers++
	c.written += len(p)
	c.last = append(c.last[:0], p...)
	c.asked = false
	if c.wake != nil {
		close(c.wake)
		c.wake = nil
	}
	done := c.left == 0 && len(c.pending) == 0
	c.mu.Unlock()
	if done {
		c.Close()
	}
	return len(p), nil
}

func (c *loopConn) Close() error {
	c.closing.Do(func() { close(c.closed) })
	return nil
}

func (c *loopConn) LocalAddr() net.Addr              { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80} }
func (c *loopConn) RemoteAddr() net.Addr             { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1234} }
func (c *loopConn) SetDeadline(time.Time) error      { return nil }
func (c *loopConn) SetReadDeadline(time.Time) error  { return nil }
func (c *loopConn) SetWriteDeadline(time.Time) error { return nil }

// oneConnListener accepts conn once, then waits until it is closed.
type oneConnListener struct {
	conn     net.Conn
	accepted bool
	done     chan struct{}
	closing  sync.Once
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	if !l.accepted {
		l.accepted = true
		return l.conn, nil
	}
	<-l.done
	return nil, net.ErrClosed
}

func (l *oneConnListener) Close() error {
	l.closing.Do(func() { close(l.done) })
	return nil
}

func (l *oneConnListener) Addr() net.Addr { return l.conn.LocalAddr() }
