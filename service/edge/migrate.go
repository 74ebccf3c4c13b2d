package edge

import (
	"context"
	"fmt"
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
	if databaseURL == "" {
		fmt.Printf("%s: no DATABASE_URL: nothing to migrate\n", service)
		os.Exit(0)
	}
	db, err := sqldb.Open(databaseURL)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s migrate: %v\n", service, err)
		os.Exit(1)
	}
	defer db.Close()
	applied, err := db.Migrate(context.Background(), schemas...)
	for _, a := range applied {
		fmt.Printf("%s: migrated %s to version %d\n", service, a.Owner, a.Version)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s migrate: DATABASE_URL: %v\n", service, err)
		db.Close()
		os.Exit(1)
	}
	if len(applied) == 0 {
		fmt.Printf("%s: the schema is up to date\n", service)
	}
	db.Close()
	os.Exit(0)
}
