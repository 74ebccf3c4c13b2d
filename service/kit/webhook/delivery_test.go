package webhook_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// onEachDatabase runs test on a SQLite file and on a throwaway Postgres.
func onEachDatabase(t *testing.T, test func(t *testing.T, db *sqldb.DB)) {
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
			t.Cleanup(func() { db.Close() })
			test(t, db)
		})
	}
}

// start opens the relayer's outbox on db and starts its delivery (a 50 ms poll) until the test
// ends; its metrics are in the registry returned.
func start(t *testing.T, db *sqldb.DB, cfg webhook.Config) (*webhook.Outbox, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	o, err := webhook.Open(db, "relayer", "relayer-a", cfg, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Start(50 * time.Millisecond)
	t.Cleanup(o.Close)
	return o, reg
}

func emit(t *testing.T, o *webhook.Outbox, n int) {
	t.Helper()
	if err := o.Emit(context.Background(), nil, "reveal.mined", map[string]int{"n": n}); err != nil {
		t.Fatal(err)
	}
}

// value is the sum of the metric's series that carry the labels given (name, value, …); -1 when
// there is none.
func value(t *testing.T, reg *prometheus.Registry, name string, labels ...string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum, found := 0.0, false
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				ok := false
				for _, l := range m.GetLabel() {
					ok = ok || (l.GetName() == labels[i] && l.GetValue() == labels[i+1])
				}
				if !ok {
					continue series
				}
			}
			found = true
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	if !found {
		return -1
	}
	return sum
}

func (r *receiver) url() string { return "http://" + r.addr + "/hooks" }

// An endpoint removed from WEBHOOK_URLS is sent nothing more: what was recorded for it before a
// restart without it is dead-lettered (counted), while the endpoint still configured gets every
// event. On SQLite and on Postgres.
func TestOnlyConfiguredEndpointsAreSentTo(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		removed, kept := newReceiver(t), newReceiver(t)
		removed.set("refuse")
		o, _ := start(t, db, configOf(time.Second, 0, endpoint{removed.url(), secret}, endpoint{kept.url(), secret}))
		for i := range 3 {
			emit(t, o, i)
		}
		waitFor(t, "the kept endpoint's deliveries and the removed one's refusals", 10*time.Second, func() bool {
			accepted, _ := kept.counts()
			_, refused := removed.counts()
			return len(accepted) == 3 && refused >= 3
		})
		o.Close()
		removed.set("ok")
		o, reg := start(t, db, configOf(time.Second, 0, endpoint{kept.url(), secret}))
		waitFor(t, "the removed endpoint's 3 events dead-lettered", 10*time.Second, func() bool {
			return value(t, reg, "vaultd_relayer_webhook_dead_lettered_total", "reason", "unconfigured") == 3
		})
		emit(t, o, 3)
		waitFor(t, "the kept endpoint's fourth event", 10*time.Second, func() bool { accepted, _ := kept.counts(); return len(accepted) == 4 })
		if accepted, _ := removed.counts(); len(accepted) != 0 {
			t.Errorf("the removed endpoint was sent %d events", len(accepted))
		}
		waitFor(t, "nothing pending", 10*time.Second, func() bool { return value(t, reg, "vaultd_relayer_webhook_pending") == 0 })
	})
}

// A replica started without an endpoint that another live replica still delivers to (a rolling
// change of WEBHOOK_URLS, or a replica with none at all) leaves that endpoint's events to it: they
// are dead-lettered only once no live replica lists the endpoint. On SQLite and on Postgres.
func TestAnEndpointAnotherReplicaHasIsNotDeadLettered(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		theirs := newReceiver(t)
		theirs.set("refuse")
		a, _ := start(t, db, configOf(time.Second, 0, endpoint{theirs.url(), secret}))
		for i := range 3 {
			emit(t, a, i)
		}
		waitFor(t, "the 3 events refused", 10*time.Second, func() bool { _, refused := theirs.counts(); return refused >= 3 })
		_, none := start(t, db, configOf(time.Second, 0))
		_, other := start(t, db, configOf(time.Second, 0, endpoint{newReceiver(t).url(), secret}))
		time.Sleep(500 * time.Millisecond) // ten polls of each: a sweep that would dead-letter them has run
		for name, reg := range map[string]*prometheus.Registry{"the replica with none": none, "the replica with another": other} {
			if n := value(t, reg, "vaultd_relayer_webhook_dead_lettered_total", "reason", "unconfigured"); n != 0 {
				t.Fatalf("%s dead-lettered %v events of an endpoint a live replica delivers to", name, n)
			}
		}
		theirs.set("ok")
		waitFor(t, "the 3 events delivered by the replica that has the endpoint", 10*time.Second, func() bool { accepted, _ := theirs.counts(); return len(accepted) == 3 })
	})
}

// A replica lists its endpoints as it opens its outbox, before it can record an event: a replica
// started after that event and before the first one's first sweep (under load, or in a rolling
// change) leaves the event to it. On SQLite and on Postgres.
func TestEventsOfAReplicaNotYetSweptAreNotDeadLettered(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		theirs := newReceiver(t)
		a, err := webhook.Open(db, "relayer", "relayer-a", configOf(time.Second, 0, endpoint{theirs.url(), secret}), prometheus.NewRegistry(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(a.Close)
		for i := range 3 {
			emit(t, a, i)
		}
		// The next replica opens in a later millisecond than the events: they were recorded before its start.
		for recorded := time.Now().UnixMilli(); time.Now().UnixMilli() == recorded; {
			time.Sleep(time.Millisecond)
		}
		_, none := start(t, db, configOf(time.Second, 0)) // with no endpoint, Start sweeps once before it returns
		if n := value(t, none, "vaultd_relayer_webhook_dead_lettered_total", "reason", "unconfigured"); n != 0 {
			t.Fatalf("the replica with no endpoint dead-lettered %v events of a replica that has not swept yet", n)
		}
		a.Start(50 * time.Millisecond)
		waitFor(t, "the 3 events delivered by the replica that recorded them", 10*time.Second, func() bool { accepted, _ := theirs.counts(); return len(accepted) == 3 })
	})
}

// An event not delivered within its expiry is dead-lettered: counted, no longer pending, and
// never sent, even once its endpoint is back. On SQLite and on Postgres.
func TestUndeliveredEventsExpire(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		rcv := newReceiver(t)
		rcv.set("refuse")
		o, reg := start(t, db, configOf(time.Second, time.Second, endpoint{rcv.url(), secret}))
		for i := range 3 {
			emit(t, o, i)
		}
		waitFor(t, "3 events expired", 10*time.Second, func() bool {
			return value(t, reg, "vaultd_relayer_webhook_dead_lettered_total", "reason", "expired") == 3 &&
				value(t, reg, "vaultd_relayer_webhook_pending", "endpoint", "0") == 0
		})
		o.Close()
		rcv.set("ok")
		o, _ = start(t, db, configOf(time.Second, 0, endpoint{rcv.url(), secret}))
		emit(t, o, 3)
		waitFor(t, "the new event delivered", 10*time.Second, func() bool { accepted, _ := rcv.counts(); return len(accepted) >= 1 })
		o.Close()
		if accepted, _ := rcv.counts(); len(accepted) != 1 {
			t.Errorf("%d events delivered, want the new one alone (the expired are dead)", len(accepted))
		}
	})
}

// An endpoint that never answers delays no other: with one that hangs (its deliveries held for
// the whole, hour-long, timeout), the other still receives all 20 events. On SQLite and on
// Postgres.
func TestADeadEndpointDelaysNoOther(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		dead, live := newReceiver(t), newReceiver(t)
		dead.set("hang")
		o, reg := start(t, db, configOf(time.Hour, 0, endpoint{dead.url(), secret}, endpoint{live.url(), secret}))
		for i := range 20 {
			emit(t, o, i)
		}
		// The receiver counts a delivery before its answer is back at the outbox, which counts it
		// then: both are waited for.
		waitFor(t, "the live endpoint's 20 events, counted delivered", 20*time.Second, func() bool {
			accepted, _ := live.counts()
			return len(accepted) == 20 && value(t, reg, "vaultd_relayer_webhook_deliveries_total", "endpoint", "1", "outcome", "delivered") == 20
		})
	})
}

// Two outboxes on one database (two replicas) share the due rows, and each row's hold is its
// own: an endpoint that takes 300 ms per delivery (well under the 1 s timeout, so that a loaded
// machine does not turn it into a retry, and a batch of 15 outlasts a hold of 2 s reckoned from
// the batch's start) still gets each of 15 events once. On SQLite and on Postgres.
func TestTwoOutboxesOnOneDatabaseSendEachEventOnce(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		rcv := newReceiver(t)
		rcv.mu.Lock()
		rcv.delay = 300 * time.Millisecond
		rcv.mu.Unlock()
		cfg := configOf(time.Second, 0, endpoint{rcv.url(), secret})
		a, _ := start(t, db, cfg)
		b, _ := start(t, db, cfg)
		for i := range 15 {
			emit(t, []*webhook.Outbox{a, b}[i%2], i)
		}
		waitFor(t, "15 events delivered", 30*time.Second, func() bool { accepted, _ := rcv.counts(); return len(accepted) == 15 })
		a.Close()
		b.Close()
		rcv.srv.Shutdown(context.Background()) // deliveries under way end first
		accepted, _ := rcv.counts()
		for id, n := range accepted {
			if n != 1 {
				t.Errorf("event %s delivered %d times", id, n)
			}
		}
	})
}

// Each endpoint's deliveries are signed with its own secret when it has one, with the shared
// one otherwise; each receiver checks with its own.
func TestEachEndpointSignsWithItsSecret(t *testing.T) {
	t.Parallel()
	const own = "endpoint b's own secret"
	shared, mine := newReceiver(t), newReceiverWith(t, own)
	db, err := sqldb.Open("sqlite:" + filepath.Join(t.TempDir(), "outbox.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o, _ := start(t, db, configOf(time.Second, 0, endpoint{shared.url(), secret}, endpoint{mine.url(), own}))
	for i := range 2 {
		emit(t, o, i)
	}
	waitFor(t, "both endpoints' events", 10*time.Second, func() bool {
		a, _ := shared.counts()
		b, _ := mine.counts()
		return len(a) == 2 && len(b) == 2
	})
}

// An outbox table of the version before expiry (no created_at, no dead_at) is brought up to
// date at the start, and what it held is delivered. On SQLite and on Postgres.
func TestAnOutboxFromBeforeExpiryIsUpgraded(t *testing.T) {
	t.Parallel()
	onEachDatabase(t, func(t *testing.T, db *sqldb.DB) {
		rcv := newReceiver(t)
		if _, err := db.Exec(`CREATE TABLE webhook_outbox (
			id TEXT NOT NULL PRIMARY KEY, service TEXT NOT NULL, url TEXT NOT NULL, body TEXT NOT NULL, attempts BIGINT NOT NULL,
			next_at BIGINT NOT NULL, delivered_at BIGINT, last_error TEXT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		body := `{"id":"an-old-row","type":"reveal.mined","service":"relayer","replica":"relayer-a","time":"2026-11-24T12:00:00Z","data":{}}`
		if _, err := db.Exec(`INSERT INTO webhook_outbox VALUES ('an-old-row', 'relayer', $1, $2, 1, 0, NULL, 'answered 500')`, rcv.url(), body); err != nil {
			t.Fatal(err)
		}
		o, _ := start(t, db, configOf(time.Second, 0, endpoint{rcv.url(), secret}))
		emit(t, o, 1)
		waitFor(t, "the old row and a new one delivered", 10*time.Second, func() bool {
			accepted, _ := rcv.counts()
			return len(accepted) == 2 && accepted["an-old-row"] == 1
		})
	})
}
