package webhook_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/paralleltest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

func TestMain(m *testing.M) {
	paralleltest.Default(8) // the tests wait on backoffs and timeouts
	os.Exit(sqldbtest.Main(m))
}

const secret = "a webhook secret for the tests"

// receiver is a real HTTP endpoint on loopback that an operator would run: it checks each
// delivery's signature with its secret and keeps the ids it accepted; it can refuse (500), be
// slow (longer than a delivery's timeout), hang (answer nothing until the test ends), take each
// delivery after a delay (shorter than the timeout) or be down (its port closed), and come back
// on the same port.
type receiver struct {
	t      *testing.T
	addr   string
	secret string
	hang   chan struct{} // closed when the test ends

	mu       sync.Mutex
	mode     string        // "ok", "refuse", "slow", "hang"
	delay    time.Duration // in "ok", before taking a delivery
	accepted map[string]int
	refused  int
	srv      *http.Server
}

func newReceiver(t *testing.T) *receiver { return newReceiverWith(t, secret) }

func newReceiverWith(t *testing.T, secret string) *receiver {
	r := &receiver{t: t, secret: secret, hang: make(chan struct{}), mode: "ok", accepted: map[string]int{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	r.serve(ln)
	t.Cleanup(r.down)
	t.Cleanup(func() { close(r.hang) }) // before down: a hanging handler returns
	return r
}

func (r *receiver) serve(ln net.Listener) {
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		mode, delay := r.mode, r.delay
		r.mu.Unlock()
		switch mode {
		case "refuse":
			r.mu.Lock()
			r.refused++
			r.mu.Unlock()
			http.Error(w, "not now", http.StatusInternalServerError)
			return
		case "slow": // past the sender's timeout: its answer never reaches the sender
			time.Sleep(time.Second)
			return
		case "hang":
			<-r.hang
			return
		}
		time.Sleep(delay)
		if err := webhook.Verify(r.secret, req.Header.Get("Vaultd-Signature"), body, 5*time.Minute, time.Now()); err != nil {
			r.t.Errorf("a delivery's signature: %v", err)
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var ev webhook.Event
		if json.Unmarshal(body, &ev) != nil || ev.ID != req.Header.Get("Vaultd-Delivery") || ev.Type != "reveal.mined" || ev.Service != "relayer" {
			r.t.Errorf("a delivery: %s (%s)", body, req.Header.Get("Vaultd-Delivery"))
		}
		r.mu.Lock()
		r.accepted[ev.ID]++
		r.mu.Unlock()
	})}
	go r.srv.Serve(ln)
}

func (r *receiver) set(mode string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mode = mode
}

func (r *receiver) down() { r.srv.Close() }

func (r *receiver) up() {
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.serve(ln)
}

func (r *receiver) counts() (accepted map[string]int, refused int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.accepted {
		out[k] = v
	}
	return out, r.refused
}

func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Events recorded while the endpoint refuses (500), is slower than the timeout, then is down,
// are delivered once it is back, each once, signed; none counts as delivered meanwhile; an outbox
// opened again (a restart) delivers what the one before left. On SQLite and on Postgres.
func TestEveryEventIsDeliveredOnceTheEndpointIsBack(t *testing.T) {
	t.Parallel()
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			url := "sqlite:" + filepath.Join(t.TempDir(), "outbox.db")
			if dialect == "postgres" {
				url = sqldbtest.Postgres(t)
			}
			db, err := sqldb.Open(url)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rcv := newReceiver(t)
			cfg := configOf(300*time.Millisecond, 0, endpoint{"http://" + rcv.addr + "/hooks?token=abc", secret})
			open := func() *webhook.Outbox {
				o, err := webhook.Open(db, "relayer", "relayer-a", cfg, prometheus.NewRegistry(), nil)
				if err != nil {
					t.Fatal(err)
				}
				o.Start(50 * time.Millisecond)
				return o
			}
			o := open()
			ctx := context.Background()

			rcv.set("refuse")
			for i := range 3 {
				if err := o.Emit(ctx, nil, "reveal.mined", map[string]int{"n": i}); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, "the refusals", 5*time.Second, func() bool { _, refused := rcv.counts(); return refused >= 3 })
			rcv.set("slow")
			time.Sleep(2 * time.Second) // the retries meet a receiver slower than the timeout
			if accepted, _ := rcv.counts(); len(accepted) != 0 {
				t.Fatalf("accepted while refusing or slow: %v", accepted)
			}
			rcv.down()
			for i := 3; i < 5; i++ {
				if err := o.Emit(ctx, nil, "reveal.mined", map[string]int{"n": i}); err != nil {
					t.Fatal(err)
				}
			}
			o.Close() // a restart while the endpoint is down: the outbox keeps them
			time.Sleep(200 * time.Millisecond)
			rcv.up()
			rcv.set("ok")
			o = open()
			defer o.Close()
			// The first failures back off 1 s, 2 s, 4 s…: within 20 s every event is delivered.
			waitFor(t, "every event delivered", 20*time.Second, func() bool { accepted, _ := rcv.counts(); return len(accepted) == 5 })
			time.Sleep(300 * time.Millisecond)
			accepted, _ := rcv.counts()
			for id, n := range accepted {
				if n != 1 {
					t.Errorf("delivery %s accepted %d times", id, n)
				}
			}
		})
	}
}

// A signature made with another secret, too old, from the future (made to be replayed later),
// malformed, or over another body is refused.
func TestVerifyRefusesForgedAndStaleSignatures(t *testing.T) {
	body := []byte(`{"id":"x"}`)
	now := time.Now()
	ts := func(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }
	good := "t=" + ts(now) + ",v1=" + webhook.Sign(secret, ts(now), body)
	if err := webhook.Verify(secret, good, body, time.Minute, now); err != nil {
		t.Fatal(err)
	}
	for name, header := range map[string]string{
		"another secret":  "t=" + ts(now) + ",v1=" + webhook.Sign("another secret entirely", ts(now), body),
		"stale":           "t=" + ts(now.Add(-time.Hour)) + ",v1=" + webhook.Sign(secret, ts(now.Add(-time.Hour)), body),
		"from the future": "t=" + ts(now.Add(time.Hour)) + ",v1=" + webhook.Sign(secret, ts(now.Add(time.Hour)), body),
		"malformed":       "v1=abc",
	} {
		if webhook.Verify(secret, header, body, time.Minute, now) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if webhook.Verify(secret, good, []byte(`{"id":"y"}`), time.Minute, now) == nil {
		t.Error("a changed body: accepted")
	}
}
