package faucet

import (
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// A challenge is spent once, on every replica: two stores on one Postgres (two replicas' wallets)
// and a SQLite file each let it through once; what expired is dropped on the way.
func TestAChallengeIsSpentOnce(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	for name, stores := range replicaStores(t) {
		for i, id := range []string{"0x01", "0x02"} {
			a, b := stores[0], stores[len(stores)-1]
			if fresh, err := a.spendChallenge(t.Context(), id, now.Add(time.Minute), now); !fresh || err != nil {
				t.Fatalf("%s: spend %s: %v %v", name, id, fresh, err)
			}
			if fresh, err := b.spendChallenge(t.Context(), id, now.Add(time.Minute), now); fresh || err != nil {
				t.Fatalf("%s: spend %s again (store %d): %v %v", name, id, i, fresh, err)
			}
		}
		// Two minutes on, both have expired: purged, their ids would be new again (random ids
		// never meet again; the table stays small).
		later := now.Add(2 * time.Minute)
		if fresh, err := stores[0].spendChallenge(t.Context(), "0x03", later.Add(time.Minute), later); !fresh || err != nil {
			t.Fatalf("%s: spend after the others expired: %v %v", name, fresh, err)
		}
		var n int
		if err := stores[0].db.QueryRow(`SELECT COUNT(*) FROM pow_spent`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%s: %d spent challenges kept, want the one not expired (%v)", name, n, err)
		}
	}
}

// A challenge's tries are counted on every replica: two stores on one Postgres count one
// challenge's tries together, a SQLite file alone; another challenge starts from one. The nonce
// that met a challenge gives its try back and is known, at every replica, to pass again.
func TestAChallengesTriesAreCountedEverywhere(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	for name, stores := range replicaStores(t) {
		at := func(i int) *store { return stores[i%len(stores)] }
		for i := range 4 {
			tries, passed, err := at(i).tryChallenge(t.Context(), "0x01", uint64(i), now.Add(time.Minute), now)
			if err != nil || tries != i+1 || passed {
				t.Fatalf("%s: try %d counted %d, passed %v (%v)", name, i+1, tries, passed, err)
			}
		}
		if tries, _, err := at(0).tryChallenge(t.Context(), "0x02", 7, now.Add(time.Minute), now); err != nil || tries != 1 {
			t.Fatalf("%s: another challenge's first try counted %d (%v)", name, tries, err)
		}
		if err := at(0).passChallenge(t.Context(), "0x02", 7); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			tries, passed, err := at(i).tryChallenge(t.Context(), "0x02", 7, now.Add(time.Minute), now)
			if err != nil || tries != 0 || !passed {
				t.Fatalf("%s: the passed nonce again (%d): %d tries, passed %v (%v)", name, i+1, tries, passed, err)
			}
		}
		if tries, passed, err := at(1).tryChallenge(t.Context(), "0x02", 8, now.Add(time.Minute), now); err != nil || tries != 1 || passed {
			t.Fatalf("%s: another nonce after the passed one: %d tries, passed %v (%v)", name, tries, passed, err)
		}
		later := now.Add(2 * time.Minute) // all expired: purged
		if _, _, err := at(0).tryChallenge(t.Context(), "0x03", 0, later.Add(time.Minute), later); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := at(0).db.QueryRow(`SELECT COUNT(*) FROM pow_tries`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%s: %d tried challenges kept, want the one not expired (%v)", name, n, err)
		}
	}
}

// The checks of solutions are bounded: a challenge is checked by one request at a time (the
// second refused at once), and with every slot taken a check waits powQueueWait, then is
// refused busy; a slot given back is taken again.
func TestChecksAreBounded(t *testing.T) {
	t.Parallel()
	c := newChecks(1)
	leave, err := c.enter([16]byte{1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.enter([16]byte{1}); reasonOf(err) != PowInFlight {
		t.Fatalf("the same challenge again: %v", err)
	}
	if _, err := c.enter([16]byte{2}); reasonOf(err) != PowBusy {
		t.Fatalf("another challenge with the one slot taken: %v", err)
	}
	if _, err := c.enter([16]byte{2}); reasonOf(err) != PowBusy {
		t.Fatalf("a check refused busy left its challenge marked as being checked: %v", err)
	}
	leave()
	done := make(chan error)
	go func() {
		leave, err := c.enter([16]byte{2})
		if err == nil {
			leave()
		}
		done <- err
	}()
	if err := <-done; err != nil {
		t.Fatalf("a check once the slot is free: %v", err)
	}
	if leave, err := c.enter([16]byte{1}); err != nil {
		t.Fatalf("the first challenge once its check ended: %v", err)
	} else {
		leave()
	}
}

func reasonOf(err error) Reason {
	if ce, ok := err.(*ClaimError); ok {
		return ce.Reason
	}
	return 0
}

// replicaStores are the stores of two replicas on one Postgres (two wallets), and of a faucet
// alone on SQLite.
func replicaStores(t *testing.T) map[string][]*store {
	open := func(url string, wallet byte) *store {
		s, err := openStore(url, 1337, common.Address{wallet}, noop.NewTracerProvider())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	pg := sqldbtest.Postgres(t)
	return map[string][]*store{
		"postgres": {open(pg, 1), open(pg, 2)},
		"sqlite":   {open("sqlite:"+t.TempDir()+"/faucet.db", 1)},
	}
}
