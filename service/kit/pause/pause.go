// Package pause is an operator's off switch for a service that pays (the relayer, the faucet):
// paused, a replica takes no new work (Check refuses it with ErrPaused, which the services answer
// 503 PAUSED with Retry-After; their /ready answers 503, so a load balancer drains it) while what it has in flight finishes. The state is
// kept in the service's database under the replica's name, so it survives a restart; each
// transition is one log line and moves the gauge vaultd_<service>_paused. Each replica also
// writes there the wallet it pays from (Announce), so that any replica can list the fleet for an
// operator (Fleet): every replica's wallet and pause.
package pause

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/inorder"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// RetryAfter is what a paused replica tells callers to wait: an operator's pause has no end
// known in advance, and another replica may take the work meanwhile.
const RetryAfter = 30 * time.Second

// Switch is one replica's pause.
type Switch struct {
	db      *sqldb.DB
	service string // "relayer", "faucet"
	replica string
	work    string // what is refused, for the log line ("reveals", "claims")
	gauge   prometheus.Gauge
	log     *slog.Logger

	// OnChange, when set, is told each transition (off the caller's goroutine, in the order
	// they came): a service records it as a webhook event.
	OnChange func(State)
	told     inorder.Queue

	mu     sync.Mutex
	paused bool
	since  time.Time
}

//go:embed migrations
var migrations embed.FS

// Schema is the pause's numbered migrations (goose_pause), run by Open in the database of the
// service that keeps it.
var Schema = sqldb.Schema{Owner: "pause", Files: migrations}

// Open reads the replica's state from db (migrating its tables first: Schema) and registers the
// gauge vaultd_<service>_paused on reg.
func Open(ctx context.Context, db *sqldb.DB, service, replica, work string, reg prometheus.Registerer, log *slog.Logger) (*Switch, error) {
	if log == nil {
		log = slog.Default()
	}
	if _, err := db.Migrate(ctx, Schema); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	s := &Switch{db: db, service: service, replica: replica, work: work, log: log,
		gauge: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: service, Name: "paused",
			Help: "1 while an operator has paused this replica (POST /admin/pause): new work is refused with 503 PAUSED."})}
	reg.MustRegister(s.gauge)
	var at int64
	err := db.QueryRowContext(ctx, `SELECT paused_at FROM paused_replicas WHERE service = $1 AND replica = $2`, service, replica).Scan(&at)
	switch {
	case err == nil:
		s.paused, s.since = true, time.UnixMilli(at)
		s.gauge.Set(1)
		log.Warn("paused by an operator before this start; refusing new "+work+" (503 PAUSED) until POST /admin/resume", "replica", replica, "since", s.since)
	case !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("DATABASE_URL: read the pause: %w", err)
	}
	return s, nil
}

// State is a replica's pause: which replica, whether it is paused, and since when (nil when it
// is not).
type State struct {
	Replica string
	Paused  bool
	Since   *time.Time
}

// Event is the webhook event of a transition to st: replica.paused or replica.resumed.
func (st State) Event() string {
	if st.Paused {
		return "replica.paused"
	}
	return "replica.resumed"
}

// State reports the replica's pause.
func (s *Switch) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Replica: s.replica, Paused: s.paused}
	if s.paused {
		since := s.since
		st.Since = &since
	}
	return st
}

// Set pauses (true) or resumes (false) the replica, stored before it takes effect, and returns
// its state; setting the state it is in changes nothing.
func (s *Switch) Set(ctx context.Context, paused bool) (State, error) {
	if err := s.set(ctx, paused); err != nil {
		return State{}, err
	}
	return s.State(), nil
}

func (s *Switch) set(ctx context.Context, paused bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if paused == s.paused {
		return nil
	}
	now := time.Now()
	var err error
	if paused {
		_, err = s.db.ExecContext(ctx, `INSERT INTO paused_replicas (service, replica, paused_at) VALUES ($1, $2, $3)
			ON CONFLICT (service, replica) DO NOTHING`, s.service, s.replica, now.UnixMilli())
	} else {
		_, err = s.db.ExecContext(ctx, `DELETE FROM paused_replicas WHERE service = $1 AND replica = $2`, s.service, s.replica)
	}
	if err != nil {
		return fmt.Errorf("store the pause: %w", err)
	}
	s.paused, s.since = paused, now
	if s.OnChange != nil {
		st := State{Replica: s.replica, Paused: paused}
		if paused {
			st.Since = &now
		}
		s.told.Go(func() { s.OnChange(st) }) // in order: a quick pause and resume are told as they came
	}
	if paused {
		s.gauge.Set(1)
		s.log.Warn("paused by an operator (POST /admin/pause); refusing new "+s.work+" (503 PAUSED), those in flight finish", "replica", s.replica)
	} else {
		s.since = time.Time{}
		s.gauge.Set(0)
		s.log.Info("resumed by an operator (POST /admin/resume); accepting "+s.work+" again", "replica", s.replica)
	}
	return nil
}

// ErrPaused is the refusal of new work while paused; each service answers it 503 PAUSED with
// Retry-After (RetryAfter).
var ErrPaused = errors.New("this replica is paused by its operator; try again later (another replica may take it)")

// Check refuses new work while paused (ErrPaused).
func (s *Switch) Check() error {
	if s.State().Paused {
		return ErrPaused
	}
	return nil
}
