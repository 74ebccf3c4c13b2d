package faucet

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
)

// A database that cannot list the pending claims is an error once, not once a pass of the
// reconciler (every 2 s until it answers); once it answers, that is said, and a new failure is
// a new error. A pass stopped by the faucet's end logs nothing.
func TestAFailingListOfClaimsIsLoggedOnce(t *testing.T) {
	t.Parallel()
	open := func() *store {
		st, err := openStore("sqlite:"+filepath.Join(t.TempDir(), "faucet.db"), 1337, common.Address{}, noop.NewTracerProvider())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	var logs edgetest.Logs
	f := &Faucet{log: slog.New(slog.NewTextHandler(&logs, nil))}
	failing := func() *store { st := open(); st.db.Close(); return st } // every query fails

	f.store = failing()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	f.reconcile(ended)
	if n := strings.Count(logs.String(), "level=ERROR"); n != 0 {
		t.Fatalf("a pass stopped by the faucet's end logged %d errors:\n%s", n, logs.String())
	}
	for range 3 {
		if left := f.reconcile(context.Background()); left != 1 {
			t.Fatalf("a pass that could not list the claims: %d undecided, want 1", left)
		}
	}
	f.store = open()
	if left := f.reconcile(context.Background()); left != 0 {
		t.Fatalf("a pass with nothing pending: %d undecided", left)
	}
	f.store = failing()
	f.reconcile(context.Background())

	errors, recovered := strings.Count(logs.String(), "level=ERROR"), strings.Count(logs.String(), "listing the pending claims works again")
	if errors != 2 || recovered != 1 {
		t.Fatalf("%d errors and %d recoveries logged, want 2 and 1 (one a failure):\n%s", errors, recovered, logs.String())
	}
}
