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
	open := func(url string, wallet byte) *store {
		s, err := openStore(url, 1337, common.Address{wallet}, noop.NewTracerProvider())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	pg := sqldbtest.Postgres(t)
	for name, stores := range map[string][]*store{
		"postgres": {open(pg, 1), open(pg, 2)},
		"sqlite":   {open("sqlite:"+t.TempDir()+"/faucet.db", 1)},
	} {
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
