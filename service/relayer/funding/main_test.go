package funding

import (
	"os"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// TestMain stops the Postgres cluster the sponsors' accounts tests start: without it the
// cluster outlives the test binary, one a run.
func TestMain(m *testing.M) { os.Exit(sqldbtest.Main(m)) }
