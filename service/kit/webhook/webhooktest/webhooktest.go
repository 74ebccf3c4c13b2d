// Package webhooktest is an operator's webhook endpoint for tests: a server on loopback that
// checks each delivery's signature, as a receiver must, and keeps the events in arrival order.
package webhooktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// Receiver is the endpoint; URL is where the service sends (WEBHOOK_URLS).
type Receiver struct {
	URL    string
	mu     sync.Mutex
	events []webhook.Event
}

// Start serves a receiver until the test ends: a delivery whose signature does not verify with
// secret fails the test and is answered 401.
func Start(t testing.TB, secret string) *Receiver {
	t.Helper()
	h := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := webhook.Verify(secret, r.Header.Get("Vaultd-Signature"), body, time.Minute, time.Now()); err != nil {
			t.Errorf("a webhook's signature: %v", err)
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var ev webhook.Event
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Errorf("a webhook's body %q: %v", body, err)
		}
		h.mu.Lock()
		h.events = append(h.events, ev)
		h.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL + "/hooks"
	return h
}

// Events are the events received so far, in arrival order.
func (h *Receiver) Events() []webhook.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]webhook.Event(nil), h.events...)
}

// Types are the received events' types, in arrival order.
func (h *Receiver) Types() []string {
	var out []string
	for _, e := range h.Events() {
		out = append(out, e.Type)
	}
	return out
}

// Quiet is how long a test waits, once what it expects has arrived, for a delivery that
// should not come (a second copy, an event too many).
const Quiet = 300 * time.Millisecond

// WantEachOnce waits (up to a minute) until each of ids has been delivered and done holds of
// the events, then, Quiet later, fails the test for an id delivered more than once.
func (h *Receiver) WantEachOnce(t testing.TB, ids []string, done func([]webhook.Event) bool) {
	t.Helper()
	count := func() (map[string]int, []webhook.Event) {
		events := h.Events()
		n := map[string]int{}
		for _, e := range events {
			n[e.ID]++
		}
		return n, events
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		n, events := count()
		all := true
		for _, id := range ids {
			all = all && n[id] > 0
		}
		if all && done(events) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("within a minute, of the events %v the receiver got %v", ids, events)
		}
	}
	time.Sleep(Quiet)
	n, _ := count()
	for _, id := range ids {
		if n[id] != 1 {
			t.Errorf("the event %s was delivered %d times, want once", id, n[id])
		}
	}
}
