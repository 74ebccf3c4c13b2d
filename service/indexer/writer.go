package indexer

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// One writer, any number of readers. On Postgres several indexers may share one database: the
// one holding the advisory lock writerLockKey is the writer, which follows the chain and writes;
// the others are readers, which answer queries and streams from what the writer stored (they
// re-read the newest stored block every POLL_INTERVAL) and try the lock every poll. The lock is
// a session lock on one connection, and the writer writes on that same connection: when its
// session ends (the process died, or the server dropped it), the server frees the lock, and the
// old writer cannot write another row, so two writers never interleave. A reader takes the lock
// at its next poll and goes on from the newest stored block. SQLite has one process: it always
// writes.

// writerLockKey names the writer's advisory lock.
const writerLockKey = "vaultd:indexer:writer"

// beginner is where writes go: the database itself, or the writer's locked connection.
type beginner interface {
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// errNotWriter is a write by a replica that is not the writer.
var errNotWriter = errors.New("this indexer is not the writer")

// shared reports whether other indexers may use the store (Postgres): then the writer is elected.
func (s *store) shared() bool { return s.db.Dialect == sqldb.Postgres }

// writer is where writes go, or errNotWriter.
func (s *store) writer() (beginner, error) {
	if !s.shared() {
		return s.db, nil
	}
	if s.lock == nil {
		return nil, errNotWriter
	}
	return s.lock, nil
}

// takeWriter tries the writer's lock: true when this process is (now) the writer.
func (s *store) takeWriter(ctx context.Context) (bool, error) {
	if s.lock != nil {
		return true, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, err
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, writerLockKey).Scan(&ok); err != nil || !ok {
		conn.Close()
		return false, err
	}
	s.lock = conn
	return true, nil
}

// holdsWriter checks the writer's session is alive; when it is not, the role is dropped.
func (s *store) holdsWriter(ctx context.Context) bool {
	if s.lock == nil {
		return !s.shared()
	}
	if err := s.lock.PingContext(ctx); err != nil {
		s.dropWriter()
		return false
	}
	return true
}

// dropWriter ends the writer's session, which frees the lock: the connection is discarded,
// never returned to the pool still holding it.
func (s *store) dropWriter() {
	if s.lock == nil {
		return
	}
	_ = s.lock.Raw(func(any) error { return driver.ErrBadConn })
	s.lock.Close()
	s.lock = nil
}
