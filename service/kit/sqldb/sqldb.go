// Package sqldb opens the SQL database a DATABASE_URL names: an embedded SQLite file
// (sqlite:PATH, or sqlite:///ABSOLUTE/PATH) through modernc.org/sqlite, a pure-Go driver so
// CGO_ENABLED=0 builds keep working, or a Postgres server (postgres://…) through pgx. Queries
// are written once for both: $1-style placeholders (SQLite accepts them too), BIGINT columns,
// ON CONFLICT; DB.Dialect tells the few statements that differ.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/XSAM/otelsql"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	"modernc.org/sqlite" // database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/seed018cc74c/vaultd/service/kit/tracing"
)

// Dialect is the database engine.
type Dialect int

// The engines a DATABASE_URL can name.
const (
	SQLite Dialect = iota
	Postgres
)

// DB is an open database and its engine.
type DB struct {
	*sql.DB
	Dialect Dialect
}

// Check reports what is wrong with databaseURL, or nil.
func Check(databaseURL string) error {
	_, _, err := parse(databaseURL)
	return err
}

// IsPostgres reports whether databaseURL names a Postgres server.
func IsPostgres(databaseURL string) bool {
	d, _, err := parse(databaseURL)
	return err == nil && d == Postgres
}

// Open opens databaseURL's database. SQLite runs in WAL mode with synchronous=FULL (a commit is
// on disk when it returns) behind one connection: SQLite writes one at a time anyway, and this
// way no writer waits on a busy lock. Postgres gets a pool of 10 connections. The pragmas apply
// in order: the busy timeout first, so that those after it wait for a lock where SQLite waits at
// all (see ping for where it does not).
func Open(databaseURL string, opts ...Option) (*DB, error) {
	return open(databaseURL, pool{sqliteParams: "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate", sqliteConns: 1, postgresConns: 10}, opts)
}

// Option is how a database is opened beyond its URL.
type Option func(*options)

type options struct{ traces trace.TracerProvider }

// Traced makes a client span of every statement and transaction run inside a traced operation
// (a request's, a background job's): the statement's text, never its arguments.
func Traced(tp trace.TracerProvider) Option { return func(o *options) { o.traces = tp } }

// OpenReaders opens a second pool on databaseURL's database, for readers only: on SQLite 4
// connections that refuse writes (WAL lets them read beside the one writer, which they can then
// never hold up), on Postgres 8 of their own, so that readers busy with long queries or streams
// leave the writer its connections. Open the database with Open first (it creates it).
func OpenReaders(databaseURL string, opts ...Option) (*DB, error) {
	return open(databaseURL, pool{sqliteParams: "_pragma=busy_timeout(10000)&_pragma=query_only(1)", sqliteConns: 4, postgresConns: 8}, opts)
}

// pool is how a connection pool is opened: SQLite's connection parameters, and each engine's
// number of connections.
type pool struct {
	sqliteParams               string
	sqliteConns, postgresConns int
}

func open(databaseURL string, p pool, opts []Option) (*DB, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	dialect, target, err := parse(databaseURL)
	if err != nil {
		return nil, err
	}
	sqlOpen := sql.Open
	if o.traces != nil {
		system := semconv.DBSystemNameSQLite
		if dialect == Postgres {
			system = semconv.DBSystemNamePostgreSQL
		}
		sqlOpen = func(driver, dsn string) (*sql.DB, error) {
			return otelsql.Open(driver, dsn, otelsql.WithTracerProvider(tracing.ChildrenOnly(o.traces)), otelsql.WithAttributes(system),
				otelsql.WithSpanOptions(otelsql.SpanOptions{DisableErrSkip: true, OmitConnResetSession: true, OmitConnPrepare: true, OmitRows: true, OmitConnectorConnect: true}))
		}
	}
	var db *sql.DB
	switch dialect {
	case SQLite:
		if db, err = sqlOpen("sqlite", "file:"+target+"?"+p.sqliteParams); err == nil {
			db.SetMaxOpenConns(p.sqliteConns)
		}
	case Postgres:
		if db, err = sqlOpen("pgx", target); err == nil {
			db.SetMaxOpenConns(p.postgresConns)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if err := ping(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL %s: %w", redact(databaseURL), err)
	}
	return &DB{DB: db, Dialect: dialect}, nil
}

// busyWait is how long SQLite waits for a lock another process holds: busy_timeout(10000).
const busyWait = 10 * time.Second

// ping checks that the database answers. A SQLite file that another process holds while it
// switches the file to WAL or migrates answers busy at once, whatever the busy timeout (SQLite
// does not wait where waiting could deadlock): the open waits for it as long as the timeout.
func ping(db *sql.DB) error {
	deadline := time.Now().Add(busyWait)
	for {
		err := db.Ping()
		var e *sqlite.Error
		if err == nil || !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// parse reads sqlite:PATH, sqlite:///PATH or postgres://… (postgresql://…).
func parse(databaseURL string) (Dialect, string, error) {
	if strings.HasPrefix(databaseURL, "postgres://") || strings.HasPrefix(databaseURL, "postgresql://") {
		if _, err := url.Parse(databaseURL); err != nil {
			return 0, "", errors.New("DATABASE_URL: not a valid postgres:// URL")
		}
		return Postgres, databaseURL, nil
	}
	rest, ok := strings.CutPrefix(databaseURL, "sqlite:")
	if !ok {
		scheme, _, _ := strings.Cut(databaseURL, ":")
		return 0, "", fmt.Errorf("DATABASE_URL: scheme %q is not supported (sqlite:PATH or postgres://…)", scheme)
	}
	if strings.HasPrefix(rest, "//") {
		u, err := url.Parse(databaseURL)
		if err != nil {
			return 0, "", fmt.Errorf("DATABASE_URL: %w", err)
		}
		rest = u.Path
	}
	if rest == "" || strings.ContainsAny(rest, "?#") {
		return 0, "", errors.New("DATABASE_URL: sqlite:PATH needs a file path (no query)")
	}
	return SQLite, rest, nil
}

// redact is a database URL without its secrets, for messages: the password of its user info,
// and the query's password and sslpassword (pgx takes either place). One that does not parse is
// not shown at all.
func redact(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	for name := range q {
		if strings.EqualFold(name, "password") || strings.EqualFold(name, "sslpassword") {
			q.Set(name, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// TryHold takes the session advisory lock name on a connection of its own, and keeps it until
// release: what lets one process at a time do something on a shared Postgres for as long as it
// runs (the lock ends with the connection, so a process that dies frees it). held is false
// when another session holds it. On SQLite, one process owns the file: held, and release does
// nothing.
func (db *DB) TryHold(ctx context.Context, name string) (release func(), held bool, err error) {
	if db.Dialect != Postgres {
		return func() {}, true, nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, name).Scan(&held); err != nil || !held {
		conn.Close()
		return nil, false, err
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = conn.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, name)
		conn.Close() // back to the pool, unlocked
	}, true, nil
}
