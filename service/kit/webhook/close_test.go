package webhook_test

import (
	"bytes"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Close while a sweep's announcement of this replica's endpoints is on its way to Postgres waits
// for it, and then removes the endpoints: none is left listed as live. Cancelling the sweep
// instead left one: pgx gives up on a statement already sent (it abandons the connection), the
// server still runs it, and after Close's removal. The server cannot be made to receive a
// statement late on demand, so a TCP proxy in front of it holds the announcement's bytes until
// the test lets them go.
func TestCloseWaitsForAnAnnouncementOnItsWay(t *testing.T) {
	t.Parallel()
	direct := sqldbtest.Postgres(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newHoldingProxy(t, u.Host)
	u.Host = proxy.addr
	q := u.Query()
	q.Set("default_query_exec_mode", "simple_protocol") // each statement's text, which the proxy looks for, sent every time
	u.RawQuery = q.Encode()
	db, err := sqldb.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o, err := webhook.Open(db, "relayer", "relayer-a", configOf(time.Second, 0, endpoint{"http://127.0.0.1:9/hooks", secret}), prometheus.NewRegistry(), nil)
	if err != nil {
		t.Fatal(err)
	}
	proxy.holdNext([]byte("INSERT INTO webhook_endpoints"))
	o.Start(time.Hour) // its first sweep announces the endpoint again
	waitFor(t, "the announcement held on its way", 5*time.Second, proxy.holding)

	closed := make(chan struct{})
	go func() { o.Close(); close(closed) }()
	select {
	case <-closed:
		t.Error("Close returned while the sweep's announcement was on its way")
	case <-time.After(500 * time.Millisecond):
	}
	proxy.release()
	<-closed
	time.Sleep(300 * time.Millisecond) // a statement let go after Close lands meanwhile

	check, err := sqldb.Open(direct)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	var n int
	if err := check.QueryRow(`SELECT COUNT(*) FROM webhook_endpoints`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d endpoints of the closed replica listed as live", n)
	}
}

// holdingProxy forwards TCP connections to a server, except that it can hold the first chunk a
// client sends that contains a marker until release.
type holdingProxy struct {
	addr string

	mu      sync.Mutex
	marker  []byte
	held    bool
	let     chan struct{} // closed by release
	letOnce sync.Once
}

func newHoldingProxy(t *testing.T, server string) *holdingProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &holdingProxy{addr: ln.Addr().String(), let: make(chan struct{})}
	t.Cleanup(func() { p.release(); ln.Close() })
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			upstream, err := net.Dial("tcp", server)
			if err != nil {
				client.Close()
				continue
			}
			go func() { io.Copy(client, upstream); client.Close() }()
			go func() { p.forward(upstream, client); upstream.Close() }()
		}
	}()
	return p
}

// forward copies what the client sends, holding the chunk with the marker until release.
func (p *holdingProxy) forward(upstream, client net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			p.mu.Lock()
			hold := p.marker != nil && bytes.Contains(buf[:n], p.marker)
			if hold {
				p.marker, p.held = nil, true
			}
			p.mu.Unlock()
			if hold {
				<-p.let
			}
			if _, err := upstream.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// release lets the held chunk go, and every one after it.
func (p *holdingProxy) release() { p.letOnce.Do(func() { close(p.let) }) }

func (p *holdingProxy) holdNext(marker []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.marker = marker
}

func (p *holdingProxy) holding() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}
