// Package sqldb opens the SQL database a DATABASE_URL names. Today that is an embedded SQLite
// file (sqlite:PATH, or sqlite:///ABSOLUTE/PATH) through modernc.org/sqlite, a pure-Go driver,
// so CGO_ENABLED=0 builds keep working; other schemes are refused with a clear message.
package sqldb

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// Check reports what is wrong with databaseURL, or nil.
func Check(databaseURL string) error {
	_, err := sqlitePath(databaseURL)
	return err
}

// Open opens databaseURL's database. SQLite runs in WAL mode with synchronous=FULL (a commit is
// on disk when it returns) behind one connection: SQLite writes one at a time anyway, and this
// way no writer waits on a busy lock.
func Open(databaseURL string) (*sql.DB, error) {
	path, err := sqlitePath(databaseURL)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("DATABASE_URL %s: %w", path, err)
	}
	return db, nil
}

// sqlitePath reads sqlite:PATH (relative) or sqlite:///PATH (absolute).
func sqlitePath(databaseURL string) (string, error) {
	rest, ok := strings.CutPrefix(databaseURL, "sqlite:")
	if !ok {
		scheme, _, _ := strings.Cut(databaseURL, ":")
		return "", fmt.Errorf("DATABASE_URL: scheme %q is not supported (only sqlite:PATH for now)", scheme)
	}
	if strings.HasPrefix(rest, "//") {
		u, err := url.Parse(databaseURL)
		if err != nil {
			return "", fmt.Errorf("DATABASE_URL: %w", err)
		}
		rest = u.Path
	}
	if rest == "" || strings.ContainsAny(rest, "?#") {
		return "", errors.New("DATABASE_URL: sqlite:PATH needs a file path (no query)")
	}
	return rest, nil
}
