package edge

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// Migrate answers `<service> migrate`: it applies the numbered migrations of everything the
// service keeps in DATABASE_URL (schemas), prints each version applied, and exits 0 without
// serving; 2 on a bad configuration, 1 when a migration fails or the database is newer than
// the binary. With no DATABASE_URL (databaseURL "") there is nothing to migrate. For any other
// arguments it returns, and the service starts (which migrates too).
func Migrate(service, databaseURL string, configErr error, schemas ...sqldb.Schema) {
	if len(os.Args) != 2 || os.Args[1] != "migrate" {
		return
	}
	if configErr != nil {
		fmt.Fprintf(os.Stderr, "%s: invalid configuration:\n%v\n", service, configErr)
		os.Exit(2)
	}
	os.Exit(migrate(os.Stdout, os.Stderr, service, databaseURL, schemas...))
}

// migrate is Migrate's work once the configuration is read: its exit code.
func migrate(stdout, stderr io.Writer, service, databaseURL string, schemas ...sqldb.Schema) int {
	if databaseURL == "" {
		fmt.Fprintf(stdout, "%s: no DATABASE_URL: nothing to migrate\n", service)
		return 0
	}
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		fmt.Fprintf(stderr, "%s migrate: %v\n", service, err)
		return 1
	}
	defer db.Close()
	applied, err := db.Migrate(context.Background(), schemas...)
	for _, a := range applied {
		fmt.Fprintf(stdout, "%s: migrated %s to version %d\n", service, a.Owner, a.Version)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s migrate: DATABASE_URL: %v\n", service, err)
		return 1
	}
	if len(applied) == 0 {
		fmt.Fprintf(stdout, "%s: the schema is up to date\n", service)
	}
	return 0
}
