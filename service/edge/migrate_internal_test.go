package edge

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/pause"
)

// `<service> migrate` applies what a database lacks and says so, then finds it up to date; a
// database it cannot open fails with 1; no DATABASE_URL has nothing to migrate.
func TestMigrateCommand(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "db")
	run := func(url string) (int, string, string) {
		var out, errs bytes.Buffer
		code := migrate(&out, &errs, "faucet", url, pause.Schema)
		return code, out.String(), errs.String()
	}
	if code, out, errs := run(url); code != 0 || !strings.Contains(out, "faucet: migrated pause to version 1") || errs != "" {
		t.Fatalf("first run: %d %q %q", code, out, errs)
	}
	if code, out, _ := run(url); code != 0 || out != "faucet: the schema is up to date\n" {
		t.Fatalf("second run: %d %q", code, out)
	}
	if code, out, _ := run(""); code != 0 || !strings.Contains(out, "nothing to migrate") {
		t.Fatalf("no DATABASE_URL: %d %q", code, out)
	}
	if code, _, errs := run("sqlite:" + filepath.Join(t.TempDir(), "missing", "db")); code != 1 || !strings.Contains(errs, "faucet migrate:") {
		t.Fatalf("a database that does not open: %d %q", code, errs)
	}
}
