// Package webhook tells an operator's endpoints what happened (a reveal mined, a claim failed, a
// wallet's gate closing, a replica paused): each event is written to an outbox in the service's
// own database, one row per endpoint, in the same moment the service records what it tells, and
// delivered from there by one worker per endpoint: POSTed as JSON, signed, retried with backoff
// until the endpoint answers 2xx, at least once and never from a request's path, until the event
// expires (WEBHOOK_EXPIRE_AFTER). Every delivery carries its row's id, the same on every attempt,
// for the receiver to drop duplicates. A row whose endpoint is no longer configured, or that
// expired, is dead-lettered: kept, marked, counted, never sent.
//
// The signature is Stripe's and OpenZeppelin Relayer's scheme: the header
// Vaultd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the endpoint's
// secret>. A receiver recomputes it over the raw body and refuses a t too far from its clock
// (replays).
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// Config is where events go: the endpoints and the secrets that sign them. No endpoints: none
// are sent (Emit records nothing).
type Config struct {
	Endpoints   []Endpoint
	Timeout     time.Duration // one delivery's; 10 s when zero
	ExpireAfter time.Duration // an event not delivered this long after it was recorded is dead-lettered; 72 h when zero
}

// Endpoint is one of WEBHOOK_URLS: where its deliveries go, and the secret that signs them.
type Endpoint struct {
	URL    string
	Secret string // never logged
}

// minSecretLen is the shortest secret accepted.
const minSecretLen = 16

// Defaults of WEBHOOK_TIMEOUT and WEBHOOK_EXPIRE_AFTER.
const (
	defaultTimeout     = 10 * time.Second
	defaultExpireAfter = 72 * time.Hour // Stripe's retries last three days
)

// LoadConfig reads WEBHOOK_URLS (or _FILE): comma- or line-separated entries, each an http(s)
// URL, or a URL, a space and the secret of that endpoint alone; WEBHOOK_SECRET (or _FILE; the
// secret of every endpoint without its own, so required when one has none); secrets at least
// 16 characters. WEBHOOK_TIMEOUT (10s) bounds one delivery; WEBHOOK_EXPIRE_AFTER (72h) is how
// long an event is retried. Messages name an entry by its position, never its text (a URL may
// carry a token, an entry a secret).
func LoadConfig(e *config.Env) Config {
	c := Config{Timeout: e.Duration("WEBHOOK_TIMEOUT", defaultTimeout), ExpireAfter: e.Duration("WEBHOOK_EXPIRE_AFTER", defaultExpireAfter)}
	entries := strings.FieldsFunc(e.OptionalSecret("WEBHOOK_URLS"), func(r rune) bool { return r == ',' || r == '\n' })
	shared := false // an endpoint signs with WEBHOOK_SECRET
	for i, entry := range entries {
		f := strings.Fields(entry)
		switch {
		case len(f) == 0:
			continue
		case len(f) > 2:
			e.Fail("WEBHOOK_URLS: entry %d: want a URL, or a URL, a space and its secret", i+1)
			continue
		case !config.IsHTTPURL(f[0]):
			e.Fail("WEBHOOK_URLS: entry %d is not an http(s) URL", i+1)
			continue
		case slices.ContainsFunc(c.Endpoints, func(ep Endpoint) bool { return ep.URL == f[0] }):
			e.Fail("WEBHOOK_URLS: entry %d: its URL is listed before", i+1)
			continue
		}
		ep := Endpoint{URL: f[0]}
		if len(f) == 2 {
			ep.Secret = f[1]
			switch {
			case config.IsHTTPURL(ep.Secret):
				e.Fail("WEBHOOK_URLS: entry %d: a URL where its secret goes (separate URLs with commas)", i+1)
			case len(ep.Secret) < minSecretLen:
				e.Fail("WEBHOOK_URLS: entry %d: its secret must be at least %d characters", i+1, minSecretLen)
			}
		} else {
			shared = true
		}
		c.Endpoints = append(c.Endpoints, ep)
	}
	if shared {
		secret := e.Secret("WEBHOOK_SECRET")
		if secret != "" && len(secret) < minSecretLen {
			e.Fail("WEBHOOK_SECRET must be at least %d characters", minSecretLen)
		}
		for i := range c.Endpoints {
			if c.Endpoints[i].Secret == "" {
				c.Endpoints[i].Secret = secret
			}
		}
	}
	return c
}

// Event is the body of a delivery.
type Event struct {
	ID      string          `json:"id"`      // the delivery's id: the same on every attempt
	Type    string          `json:"type"`    // "reveal.mined", "claim.failed", "wallet.balance_low", …
	Service string          `json:"service"` // "relayer", "faucet"
	Replica string          `json:"replica"` // the replica that recorded it (REPLICA_NAME)
	Time    time.Time       `json:"time"`    // when it was recorded
	Data    json.RawMessage `json:"data"`    // the event's own fields
}

// Outbox is a service's webhook outbox and its delivery workers.
type Outbox struct {
	cfg     Config
	db      *sqldb.DB
	service string
	replica string
	client  *http.Client
	log     *slog.Logger
	now     func() time.Time
	opened  time.Time // rows recorded before, for an endpoint not configured, are dead-lettered
	// instance names this outbox in webhook_endpoints: the replica and a random part, so that
	// two processes under one REPLICA_NAME do not take each other's list for their own.
	instance string

	workers      []*worker
	pending      *prometheus.GaugeVec
	deadLettered *prometheus.CounterVec

	stop context.CancelFunc
	done sync.WaitGroup
}

// worker delivers one endpoint's rows.
type worker struct {
	Endpoint
	label             string // the endpoint's position in WEBHOOK_URLS: its metrics' label
	delivered, failed prometheus.Counter
	wake              chan struct{}
}

// Backoff bounds: the first retry after minBackoff, doubling up to maxBackoff.
const (
	minBackoff    = time.Second
	maxBackoff    = 5 * time.Minute
	batch         = 50
	keepDelivered = 7 * 24 * time.Hour
	// endpointLive is how long a replica's list of endpoints counts after its last sweep.
	endpointLive = time.Minute
)

// Open migrates the outbox's tables in db (Schema) and registers the metrics
// vaultd_<service>_webhook_deliveries_total{endpoint,outcome},
// vaultd_<service>_webhook_pending{endpoint} and
// vaultd_<service>_webhook_dead_lettered_total{reason}.
func Open(db *sqldb.DB, service, replica string, cfg Config, reg prometheus.Registerer, log *slog.Logger) (*Outbox, error) {
	if log == nil {
		log = slog.Default()
	}
	if _, err := db.Migrate(context.Background(), Schema); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	now := time.Now()
	// Delivered and dead-lettered rows are kept a week (for people reading the table), then
	// dropped at a start.
	if _, err := db.Exec(`DELETE FROM webhook_outbox WHERE service = $1 AND (delivered_at < $2 OR dead_at < $2)`, service, now.Add(-keepDelivered).UnixMilli()); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	if _, err := db.Exec(`DELETE FROM webhook_endpoints WHERE service = $1 AND seen_at < $2`, service, now.Add(-keepDelivered).UnixMilli()); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	deliveries := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "vaultd", Subsystem: service, Name: "webhook_deliveries_total",
		Help: "Webhook delivery attempts, by endpoint (its position in WEBHOOK_URLS) and outcome (delivered: the endpoint answered 2xx; failed: anything else, retried with backoff)."}, []string{"endpoint", "outcome"})
	pending := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: service, Name: "webhook_pending",
		Help: "Webhook deliveries recorded and not yet delivered, by endpoint (every replica's, as this one last counted them)."}, []string{"endpoint"})
	dead := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "vaultd", Subsystem: service, Name: "webhook_dead_lettered_total",
		Help: "Webhook deliveries given up, never to be sent, by reason (expired: not delivered within WEBHOOK_EXPIRE_AFTER; unconfigured: recorded for an endpoint no longer in WEBHOOK_URLS)."}, []string{"reason"})
	reg.MustRegister(deliveries, pending, dead)
	if cfg.Timeout <= 0 {
		cfg.Timeout = defaultTimeout
	}
	if cfg.ExpireAfter <= 0 {
		cfg.ExpireAfter = defaultExpireAfter
	}
	o := &Outbox{cfg: cfg, db: db, service: service, replica: replica, log: log, now: time.Now, opened: now, instance: replica + "/" + rand.Text(),
		client:  &http.Client{Timeout: cfg.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		pending: pending, deadLettered: dead}
	for i, ep := range cfg.Endpoints {
		label := strconv.Itoa(i)
		o.workers = append(o.workers, &worker{Endpoint: ep, label: label, wake: make(chan struct{}, 1),
			delivered: deliveries.WithLabelValues(label, "delivered"), failed: deliveries.WithLabelValues(label, "failed")})
		pending.WithLabelValues(label)
	}
	dead.WithLabelValues("expired")
	dead.WithLabelValues("unconfigured")
	// Listed before any event can be recorded: another replica's sweep must not take an event of
	// this one, recorded before its own first sweep, for an endpoint nobody has.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := o.announce(ctx, now); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	return o, nil
}

//go:embed migrations
var migrations embed.FS

// Schema is the outbox's numbered migrations (goose_webhook), run by Open in the database of
// the service that keeps it.
var Schema = sqldb.Schema{Owner: "webhook", Files: migrations, SQLiteGo: []*goose.Migration{
	goose.NewGoMigration(1, &goose.GoFunc{RunTx: sqliteSchema}, nil),
}}

// sqliteSchema is migration 1 on SQLite: the outbox as it was before numbered migrations
// (migrations/postgres/00001_schema.sql on Postgres). In Go, since SQLite has no ADD COLUMN IF
// NOT EXISTS: a file made then (no goose_webhook table yet) has the tables already, and one from
// before expiry lacks created_at and dead_at.
func sqliteSchema(ctx context.Context, tx *sql.Tx) error {
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS webhook_outbox (
			id           TEXT   NOT NULL PRIMARY KEY, -- the delivery's id
			service      TEXT   NOT NULL,
			url          TEXT   NOT NULL,
			body         TEXT   NOT NULL, -- the Event, JSON
			attempts     BIGINT NOT NULL,
			next_at      BIGINT NOT NULL, -- unix milliseconds: due then (or held until then by the replica delivering it)
			delivered_at BIGINT,          -- unix milliseconds; NULL until the endpoint answered 2xx
			last_error   TEXT   NOT NULL,
			created_at   BIGINT,          -- unix milliseconds: recorded then
			dead_at      BIGINT           -- unix milliseconds: dead-lettered then (expired, or its endpoint no longer configured)
		)`,
		`CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (service, delivered_at, next_at)`,
		`ALTER TABLE webhook_outbox ADD COLUMN created_at BIGINT`,
		`ALTER TABLE webhook_outbox ADD COLUMN dead_at BIGINT`,
		`CREATE INDEX IF NOT EXISTS webhook_outbox_endpoint_due ON webhook_outbox (service, url, next_at) WHERE delivered_at IS NULL AND dead_at IS NULL`,
		`CREATE TABLE IF NOT EXISTS webhook_endpoints (
			service  TEXT   NOT NULL,
			instance TEXT   NOT NULL,
			url      TEXT   NOT NULL,
			seen_at  BIGINT NOT NULL,
			PRIMARY KEY (service, instance, url)
		)`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil && !strings.Contains(err.Error(), "duplicate column") {
			return err
		}
	}
	return nil
}

// Execer is where an event is recorded: best the transaction that records what the event tells,
// so that both are written or neither (a *sql.Tx), else the service's database (nil).
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Emit records an event for every endpoint, through ex (nil: the outbox's database); it sends
// nothing itself (Start's workers do). With no endpoints configured it records nothing.
func (o *Outbox) Emit(ctx context.Context, ex Execer, typ string, data any) error {
	if o == nil || len(o.workers) == 0 {
		return nil
	}
	if ex == nil {
		ex = o.db
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	now := o.now()
	for _, w := range o.workers {
		id, err := newID()
		if err != nil {
			return err
		}
		body, err := json.Marshal(Event{ID: id, Type: typ, Service: o.service, Replica: o.replica, Time: now.UTC(), Data: raw})
		if err != nil {
			return err
		}
		if _, err := ex.ExecContext(ctx, `INSERT INTO webhook_outbox (id, service, url, body, attempts, next_at, delivered_at, last_error, created_at, dead_at)
			VALUES ($1, $2, $3, $4, 0, $5, NULL, '', $5, NULL)`, id, o.service, w.URL, string(body), now.UnixMilli()); err != nil {
			return fmt.Errorf("record a webhook event: %w", err)
		}
	}
	for _, w := range o.workers {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// Tell records an event outside any transaction of the caller's, with a timeout of its own; a
// failure to record it is logged (for what a service tells from a callback: a gate's or a
// pause's transition, a transaction sent).
func (o *Outbox) Tell(typ string, data any) {
	if o == nil || len(o.workers) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := o.Emit(ctx, nil, typ, data); err != nil {
		o.log.Warn("could not record a webhook event", "type", typ, "err", err)
	}
}

// Start runs the delivery workers until Close, one per endpoint, so that an endpoint that is
// down or slow delays only its own deliveries: every poll (and at once after an Emit) each
// delivers its endpoint's rows that are due, oldest first. Every poll, rows that expired, and
// rows recorded before this start for an endpoint no longer configured, are dead-lettered.
func (o *Outbox) Start(poll time.Duration) {
	if len(o.workers) == 0 { // what earlier starts left is dead-lettered, once
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		o.sweep(ctx)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	o.stop = stop
	loop := func(wake <-chan struct{}, run func(context.Context)) {
		o.done.Add(1)
		go func() {
			defer o.done.Done()
			t := time.NewTicker(poll)
			defer t.Stop()
			for {
				run(ctx)
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				case <-wake:
				}
			}
		}()
	}
	// Close waits for a sweep under way rather than cancelling it: a statement already sent when
	// pgx gives up on it still runs, possibly after Close removed this replica's endpoints, and
	// an announcement landing then lists them as live, their rows not dead-lettered by the
	// other replicas, for endpointLive (TestCloseWaitsForAnAnnouncementOnItsWay).
	loop(nil, func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		o.sweep(ctx)
	})
	for _, w := range o.workers {
		loop(w.wake, func(ctx context.Context) { o.deliverDue(ctx, w) })
	}
}

// Close stops the delivery workers; what is not delivered stays in the outbox for the next start.
func (o *Outbox) Close() {
	if o.stop != nil {
		o.stop()
		o.done.Wait()
	}
	// This replica no longer delivers: its endpoints are the other replicas' (or nobody's) now.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = o.db.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE service = $1 AND instance = $2`, o.service, o.instance)
}

type due struct {
	id, body string
	attempts int64
	nextAt   int64
}

// deliverDue delivers w's rows due now, until one fails (its endpoint is failing: the rest wait
// for the next poll). A row is taken by moving its next_at past the attempt (a conditional
// update: of replicas sharing the database, one takes it), computed when that row is taken, so
// that it is neither sent twice at once nor lost if this replica stops mid-attempt.
func (o *Outbox) deliverDue(ctx context.Context, w *worker) {
	now := o.now()
	rows, err := o.db.QueryContext(ctx, `SELECT id, body, attempts, next_at FROM webhook_outbox
		WHERE service = $1 AND url = $2 AND delivered_at IS NULL AND dead_at IS NULL AND next_at <= $3 AND created_at >= $4
		ORDER BY next_at LIMIT $5`, o.service, w.URL, now.UnixMilli(), now.Add(-o.cfg.ExpireAfter).UnixMilli(), batch)
	if err != nil {
		if ctx.Err() == nil {
			o.log.Warn("cannot read the webhook outbox", "err", err)
		}
		return
	}
	var list []due
	for rows.Next() {
		var d due
		if rows.Scan(&d.id, &d.body, &d.attempts, &d.nextAt) == nil {
			list = append(list, d)
		}
	}
	rows.Close()
	for _, d := range list {
		if ctx.Err() != nil {
			return
		}
		res, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET next_at = $1 WHERE id = $2 AND next_at = $3 AND delivered_at IS NULL AND dead_at IS NULL`,
			o.now().Add(2*o.cfg.Timeout).UnixMilli(), d.id, d.nextAt) // held past the attempt's timeout, from now
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue // another replica took it
		}
		if !o.attempt(ctx, w, d) {
			return
		}
	}
}

// attempt POSTs one delivery and records its outcome; false when the endpoint did not take it.
func (o *Outbox) attempt(ctx context.Context, w *worker, d due) bool {
	err := o.post(ctx, w.Endpoint, d.id, []byte(d.body))
	now := o.now()
	if err == nil {
		w.delivered.Inc()
		if _, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET delivered_at = $1, attempts = attempts + 1, last_error = '' WHERE id = $2`,
			now.UnixMilli(), d.id); err != nil {
			o.log.Warn("a webhook was delivered but could not be marked so; it will be delivered again", "id", d.id, "err", err)
		}
		return true
	}
	if ctx.Err() != nil {
		return false // stopping: the row's hold lapses and it is due again at the next start
	}
	w.failed.Inc()
	backoff := min(maxBackoff, minBackoff<<min(d.attempts, 20))
	if _, werr := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET attempts = attempts + 1, next_at = $1, last_error = $2 WHERE id = $3`,
		now.Add(backoff).UnixMilli(), truncate(err.Error(), 512), d.id); werr != nil {
		o.log.Warn("cannot record a failed webhook delivery", "id", d.id, "err", werr)
	}
	if d.attempts == 0 || d.attempts%10 == 9 { // the endpoint's failures are its operator's to fix: a warning, not once per attempt
		o.log.Warn("a webhook endpoint did not take a delivery; retrying with backoff", "endpoint", redact(w.URL), "id", d.id, "attempts", d.attempts+1, "retryIn", backoff, "err", err)
	}
	return false
}

// sweep dead-letters what will never be sent (rows that expired; rows recorded before this
// start for an endpoint not configured now) and counts what waits, per endpoint. Rows recorded
// since this start for an endpoint it does not know are another replica's, configured anew
// (a rolling change of WEBHOOK_URLS): that replica delivers them.
func (o *Outbox) sweep(ctx context.Context) {
	now := o.now()
	// Rows recorded by a version before created_at start their expiry now.
	if _, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET created_at = $1 WHERE service = $2 AND created_at IS NULL`, now.UnixMilli(), o.service); err != nil {
		return
	}
	o.deadLetter(ctx, "expired", "expired: not delivered within WEBHOOK_EXPIRE_AFTER", "created_at < $4", now.Add(-o.cfg.ExpireAfter).UnixMilli())
	if o.announce(ctx, now) != nil {
		return
	}
	// An endpoint is dead-lettered only when no live replica lists it: one started with another
	// list (a rolling change, or none at all) leaves the others' endpoints to them.
	unconfigured := "created_at < $4 AND url NOT IN (SELECT url FROM webhook_endpoints WHERE service = $3 AND seen_at >= $5)"
	o.deadLetter(ctx, "unconfigured", "its endpoint is no longer in any replica's WEBHOOK_URLS", unconfigured, o.opened.UnixMilli(), now.Add(-endpointLive).UnixMilli())

	rows, err := o.db.QueryContext(ctx, `SELECT url, COUNT(*) FROM webhook_outbox WHERE service = $1 AND delivered_at IS NULL AND dead_at IS NULL GROUP BY url`, o.service)
	if err != nil {
		return
	}
	defer rows.Close()
	counts := map[string]float64{}
	for rows.Next() {
		var u string
		var n int64
		if rows.Scan(&u, &n) == nil {
			counts[u] = float64(n)
		}
	}
	if rows.Err() == nil {
		for _, w := range o.workers {
			o.pending.WithLabelValues(w.label).Set(counts[w.URL])
		}
	}
}

// announce records that this replica delivers to its endpoints as of now (and to no other), so
// that every replica's sweep knows which endpoints some live replica still has.
func (o *Outbox) announce(ctx context.Context, now time.Time) error {
	args := []any{o.service, o.instance}
	marks := make([]string, len(o.workers))
	for i, w := range o.workers {
		args = append(args, w.URL)
		marks[i] = "$" + strconv.Itoa(i+3)
	}
	drop := `DELETE FROM webhook_endpoints WHERE service = $1 AND instance = $2`
	if len(marks) > 0 {
		drop += " AND url NOT IN (" + strings.Join(marks, ", ") + ")"
	}
	if _, err := o.db.ExecContext(ctx, drop, args...); err != nil {
		return err
	}
	for _, w := range o.workers {
		if _, err := o.db.ExecContext(ctx, `INSERT INTO webhook_endpoints (service, instance, url, seen_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (service, instance, url) DO UPDATE SET seen_at = excluded.seen_at`, o.service, o.instance, w.URL, now.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// deadLetter marks the rows not delivered that match where ($4 on) as dead, counts them under
// reason and says so once per sweep.
func (o *Outbox) deadLetter(ctx context.Context, reason, why, where string, args ...any) {
	res, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET dead_at = $1, last_error = $2
		WHERE service = $3 AND delivered_at IS NULL AND dead_at IS NULL AND `+where,
		append([]any{o.now().UnixMilli(), why, o.service}, args...)...)
	if err != nil {
		if ctx.Err() == nil {
			o.log.Warn("cannot dead-letter webhook events", "reason", reason, "err", err)
		}
		return
	}
	if n, _ := res.RowsAffected(); n > 0 {
		o.deadLettered.WithLabelValues(reason).Add(float64(n))
		level := slog.LevelWarn // an endpoint that did not take them in time
		if reason == "unconfigured" {
			level = slog.LevelInfo // the operator removed their endpoint
		}
		o.log.Log(ctx, level, "webhook events dead-lettered: they will not be sent", "reason", reason, "events", n, "why", why)
	}
}

func (o *Outbox) post(ctx context.Context, ep Endpoint, id string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return requestError(err, ep.URL)
	}
	ts := strconv.FormatInt(o.now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "vaultd-"+o.service)
	req.Header.Set("Vaultd-Delivery", id)
	req.Header.Set("Vaultd-Signature", "t="+ts+",v1="+Sign(ep.Secret, ts, body))
	resp, err := o.client.Do(req)
	if err != nil {
		return requestError(err, ep.URL)
	}
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
	return nil
}

// Sign is the v1 signature of body sent at timestamp ts: hex HMAC-SHA256 of "<ts>.<body>".
func Sign(secret, ts string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte("."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a Vaultd-Signature header over body, refusing one whose time is more than maxAge
// from now, either way (an old one is a replay; one from the future, made to be replayed
// later): what a receiver does (the README shows it; the tests use it).
func Verify(secret, header string, body []byte, maxAge time.Duration, now time.Time) error {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || sig == "" {
		return errors.New("malformed Vaultd-Signature")
	}
	if age := now.Sub(time.Unix(sec, 0)); age > maxAge || age < -maxAge {
		return errors.New("the signature's time is too far from now")
	}
	if !hmac.Equal([]byte(sig), []byte(Sign(secret, ts, body))) {
		return errors.New("the signature does not match")
	}
	return nil
}

func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// redact is an endpoint as logged: its scheme and host, not its path or query (which may carry a
// token).
func redact(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Scheme + "://" + u.Host + "/…"
}

// requestError is err, of a request to endpoint, as it is logged and kept in last_error: built
// from what is known to carry no secret, never from err's text as a whole. The *url.Error that
// net/http returns names the URL (its path and query, which may carry a token, and its user
// info, masked as user:***@ but still there): its Op is kept and its URL replaced by redact's.
func requestError(err error, endpoint string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %q: %s", ue.Op, redact(endpoint), cause(ue.Err))
	}
	return errors.New(cause(err))
}

// cause tells why a request failed from the kinds of error whose text is known not to quote the
// URL, and names any other by its type alone: a message net/http makes may quote the URL (one of
// url.Parse's quotes the part it cannot parse), the endpoint's answer (an unparsable Location
// header, which may echo the path back) or a proxy's URL with its password (HTTPS_PROXY).
// Addresses and host names are kept: the host is no secret (redact shows it), and neither are the
// IP and port dialled, the resolver asked, or the names in the endpoint's certificate.
func cause(err error) string {
	var (
		ne   net.Error
		dns  *net.DNSError
		op   *net.OpError
		sys  *os.SyscallError
		cert *tls.CertificateVerificationError
		rec  tls.RecordHeaderError
	)
	switch {
	case err == nil:
		return "failed"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "no answer within the timeout (WEBHOOK_TIMEOUT)"
	case errors.As(err, &dns): // the host looked up, the resolver's address and its answer
		return dns.Error()
	case errors.As(err, &op): // what the net package or TLS did, and to which address; why, told by cause
		where := op.Net
		if op.Addr != nil {
			where += " " + op.Addr.String()
		}
		return strings.Join(strings.Fields(op.Op+" "+where), " ") + ": " + cause(op.Err)
	case errors.As(err, &sys): // a system call and its errno: "connect: connection refused"
		return sys.Error()
	case errors.As(err, &cert): // the certificate's names, issuer and dates: what the endpoint shows anyone
		return cert.Error()
	case errors.As(err, &rec): // its message is fixed; the record's bytes are not in it
		return "tls: " + rec.Msg
	case errors.Is(err, http.ErrSchemeMismatch), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF): // the sentinel's text, not a wrapper's
		for _, sentinel := range []error{http.ErrSchemeMismatch, io.ErrUnexpectedEOF, io.EOF} {
			if errors.Is(err, sentinel) {
				return sentinel.Error()
			}
		}
	case strings.HasPrefix(err.Error(), "failed to parse Location header"): // not followed anyway (CheckRedirect)
		return "answered a redirect whose Location header cannot be parsed (not shown: it may quote the URL)"
	}
	return fmt.Sprintf("the request failed (%T; its message is not shown: it may quote the URL)", err)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
