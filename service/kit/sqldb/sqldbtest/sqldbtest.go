// Package sqldbtest gives tests a real Postgres: a throwaway cluster (Debian's initdb and pg_ctl,
// run as the postgres user when the tests run as root) on a free loopback port, started at the
// first use and stopped when the test binary ends (Main), with a fresh database per caller.
// Without Postgres installed, Postgres tests are skipped, except when VAULTD_REQUIRE_POSTGRES=1
// (.ci/run sets it, after installing Postgres), where they fail.
package sqldbtest

import (
	"bytes"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

var cluster struct {
	once    sync.Once
	err     error
	dir     string // the cluster's folder: its data (data/) and its log
	port    int
	asUser  string // run the server's commands as this user ("" = the current one)
	bin     string
	admin   *sql.DB
	mu      sync.Mutex
	created int
}

// Main runs the tests and then stops the cluster if one was started; use it in TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(sqldbtest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	if cluster.dir != "" {
		if cluster.admin != nil {
			cluster.admin.Close()
		}
		run(cluster.bin, "pg_ctl", "-D", filepath.Join(cluster.dir, "data"), "-m", "immediate", "stop")
		os.RemoveAll(cluster.dir)
	}
	return code
}

// Postgres returns the URL of a new, empty database on the test cluster, starting the cluster
// at the first call.
func Postgres(t testing.TB) string {
	t.Helper()
	cluster.once.Do(start)
	if cluster.err != nil {
		if os.Getenv("VAULTD_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("Postgres: %v", cluster.err)
		}
		t.Skipf("Postgres not available: %v", cluster.err)
	}
	cluster.mu.Lock()
	cluster.created++
	name := "test_" + strconv.Itoa(cluster.created)
	cluster.mu.Unlock()
	if _, err := cluster.admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", cluster.port, name)
}

func start() {
	bin, err := findBin()
	if err != nil {
		cluster.err = err
		return
	}
	cluster.bin = bin
	dir, err := os.MkdirTemp("", "vaultd-pg-*")
	if err != nil {
		cluster.err = err
		return
	}
	cluster.dir = dir
	if os.Geteuid() == 0 { // initdb refuses root
		u, err := user.Lookup("postgres")
		if err != nil {
			cluster.err = fmt.Errorf("running as root and there is no postgres user: %w", err)
			return
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			cluster.err = err
			return
		}
		cluster.asUser = "postgres"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cluster.err = err
		return
	}
	cluster.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	data := filepath.Join(dir, "data")
	if out, err := run(bin, "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"); err != nil {
		cluster.err = fmt.Errorf("initdb: %v: %s", err, out)
		return
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off", cluster.port, dir)
	if out, err := run(bin, "pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "start"); err != nil {
		cluster.err = fmt.Errorf("pg_ctl start: %v: %s", err, out)
		return
	}
	admin, err := sql.Open("pgx", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", cluster.port))
	if err == nil {
		for i := 0; i < 50; i++ {
			if err = admin.Ping(); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	cluster.admin, cluster.err = admin, err
}

// findBin is the folder of initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/N/bin.
func findBin() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		return "", fmt.Errorf("no initdb/pg_ctl (apt-get install postgresql)")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// run runs one of the server's commands, as cluster.asUser when set.
func run(bin, name string, args ...string) ([]byte, error) {
	path := filepath.Join(bin, name)
	if _, err := os.Stat(path); err != nil {
		path = name
	}
	cmd := exec.Command(path, args...)
	if cluster.asUser != "" {
		quoted := strconv.Quote(path)
		for _, a := range args {
			quoted += " " + strconv.Quote(a)
		}
		cmd = exec.Command("su", cluster.asUser, "-s", "/bin/sh", "-c", quoted)
	}
	return cmd.CombinedOutput()
}

// Dump is databaseURL's database (one made by Postgres) as plain SQL, every row an INSERT:
// pg_dump's, without its psql meta-commands, so that Restore can run it. Upgrade tests keep such
// dumps of databases an earlier version wrote.
func Dump(t testing.TB, databaseURL string) []byte {
	t.Helper()
	out, err := run(cluster.bin, "pg_dump", "--inserts", "--no-owner", "--no-privileges", "--no-comments", "-d", databaseURL)
	if err != nil {
		t.Fatalf("pg_dump: %v: %s", err, out)
	}
	var kept []byte
	for line := range bytes.Lines(out) {
		if !bytes.HasPrefix(line, []byte(`\`)) {
			kept = append(kept, line...)
		}
	}
	return kept
}

// Restore runs dump (Dump's) into the empty database at databaseURL, on a pool of its own: a
// dump sets its session's search_path empty, which no later connection must inherit.
func Restore(t testing.TB, databaseURL string, dump []byte) {
	t.Helper()
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatalf("restore the dump: %v", err)
	}
}
