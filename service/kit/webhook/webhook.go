// Package webhook tells an operator's endpoints what happened (a reveal mined, a claim failed, a
// wallet's gate closing, a replica paused): each event is written to an outbox in the service's
// own database, one row per endpoint, in the same moment the service records what it tells, and
// delivered from there by a background loop: POSTed as JSON, signed, retried with backoff until
// the endpoint answers 2xx, at least once and never from a request's path. Every delivery carries
// its row's id, the same on every attempt, for the receiver to drop duplicates.
//
// The signature is Stripe's and OpenZeppelin Relayer's scheme: the header
// Vaultd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by WEBHOOK_SECRET>.
// A receiver recomputes it over the raw body and refuses a t too old (replays).
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// Config is where events go: the endpoints and the secret that signs them. No URLs: none are
// sent (Emit records nothing).
type Config struct {
	URLs    []string
	Secret  string        // never logged
	Timeout time.Duration // one delivery's; 10 s when zero
}

// minSecretLen is the shortest WEBHOOK_SECRET accepted.
const minSecretLen = 16

// LoadConfig reads WEBHOOK_URLS (or _FILE: comma- or line-separated http(s) URLs),
// WEBHOOK_SECRET (or _FILE; required with URLs, at least 16 characters) and WEBHOOK_TIMEOUT
// (10s: one delivery's).
func LoadConfig(e *config.Env) Config {
	c := Config{Timeout: e.Duration("WEBHOOK_TIMEOUT", 10*time.Second)}
	for _, u := range strings.FieldsFunc(e.OptionalSecret("WEBHOOK_URLS"), func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			e.Fail("WEBHOOK_URLS: %q is not an http(s) URL", u)
			continue
		}
		c.URLs = append(c.URLs, u)
	}
	if len(c.URLs) > 0 {
		c.Secret = e.Secret("WEBHOOK_SECRET")
		if c.Secret != "" && len(c.Secret) < minSecretLen {
			e.Fail("WEBHOOK_SECRET must be at least %d characters", minSecretLen)
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

// Outbox is a service's webhook outbox and its delivery loop.
type Outbox struct {
	cfg     Config
	db      *sqldb.DB
	service string
	replica string
	client  *http.Client
	log     *slog.Logger
	now     func() time.Time

	delivered, failed prometheus.Counter
	pending           prometheus.Gauge

	wake chan struct{}
	stop context.CancelFunc
	done sync.WaitGroup
}

// Backoff bounds: the first retry after minBackoff, doubling up to maxBackoff.
const (
	minBackoff    = time.Second
	maxBackoff    = 5 * time.Minute
	batch         = 50
	keepDelivered = 7 * 24 * time.Hour
)

// Open creates the outbox table in db (first use) and registers the metrics
// vaultd_<service>_webhook_deliveries_total{outcome} and vaultd_<service>_webhook_pending.
func Open(db *sqldb.DB, service, replica string, cfg Config, reg prometheus.Registerer, log *slog.Logger) (*Outbox, error) {
	if log == nil {
		log = slog.Default()
	}
	if err := db.Migrate("webhook", `CREATE TABLE IF NOT EXISTS webhook_outbox (
		id           TEXT   NOT NULL PRIMARY KEY, -- the delivery's id
		service      TEXT   NOT NULL,
		url          TEXT   NOT NULL,
		body         TEXT   NOT NULL, -- the Event, JSON
		attempts     BIGINT NOT NULL,
		next_at      BIGINT NOT NULL, -- unix milliseconds: due then (or held until then by the replica delivering it)
		delivered_at BIGINT,          -- unix milliseconds; NULL until the endpoint answered 2xx
		last_error   TEXT   NOT NULL
	)`, `CREATE INDEX IF NOT EXISTS webhook_outbox_due ON webhook_outbox (service, delivered_at, next_at)`); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	// Delivered rows are kept a week (for people reading the table), then dropped at a start.
	if _, err := db.Exec(`DELETE FROM webhook_outbox WHERE service = $1 AND delivered_at < $2`, service, time.Now().Add(-keepDelivered).UnixMilli()); err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	deliveries := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "vaultd", Subsystem: service, Name: "webhook_deliveries_total",
		Help: "Webhook delivery attempts, by outcome (delivered: the endpoint answered 2xx; failed: anything else, retried with backoff)."}, []string{"outcome"})
	pending := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "vaultd", Subsystem: service, Name: "webhook_pending",
		Help: "Webhook deliveries recorded and not yet delivered (every replica's, as this one last counted them)."})
	reg.MustRegister(deliveries, pending)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	return &Outbox{cfg: cfg, db: db, service: service, replica: replica, log: log, now: time.Now,
		client:    &http.Client{Timeout: cfg.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		delivered: deliveries.WithLabelValues("delivered"), failed: deliveries.WithLabelValues("failed"), pending: pending,
		wake: make(chan struct{}, 1)}, nil
}

// Execer is where an event is recorded: best the transaction that records what the event tells,
// so that both are written or neither (a *sql.Tx), else the service's database (nil).
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Emit records an event for every endpoint, through ex (nil: the outbox's database); it sends
// nothing itself (Start's loop does). With no endpoints configured it records nothing.
func (o *Outbox) Emit(ctx context.Context, ex Execer, typ string, data any) error {
	if o == nil || len(o.cfg.URLs) == 0 {
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
	for _, u := range o.cfg.URLs {
		id, err := newID()
		if err != nil {
			return err
		}
		body, err := json.Marshal(Event{ID: id, Type: typ, Service: o.service, Replica: o.replica, Time: now.UTC(), Data: raw})
		if err != nil {
			return err
		}
		if _, err := ex.ExecContext(ctx, `INSERT INTO webhook_outbox (id, service, url, body, attempts, next_at, delivered_at, last_error)
			VALUES ($1, $2, $3, $4, 0, $5, NULL, '')`, id, o.service, u, string(body), now.UnixMilli()); err != nil {
			return fmt.Errorf("record a webhook event: %w", err)
		}
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return nil
}

// Tell records an event outside any transaction of the caller's, with a timeout of its own; a
// failure to record it is logged (for what a service tells from a callback: a gate's or a
// pause's transition, a transaction sent).
func (o *Outbox) Tell(typ string, data any) {
	if o == nil || len(o.cfg.URLs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := o.Emit(ctx, nil, typ, data); err != nil {
		o.log.Warn("could not record a webhook event", "type", typ, "err", err)
	}
}

// Start runs the delivery loop until Close: every poll (and at once after an Emit) it delivers
// what is due, oldest first.
func (o *Outbox) Start(poll time.Duration) {
	if len(o.cfg.URLs) == 0 {
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	o.stop = stop
	o.done.Add(1)
	go func() {
		defer o.done.Done()
		t := time.NewTicker(poll)
		defer t.Stop()
		for {
			o.deliverDue(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-o.wake:
			}
		}
	}()
}

// Close stops the delivery loop; what is not delivered stays in the outbox for the next start.
func (o *Outbox) Close() {
	if o.stop != nil {
		o.stop()
		o.done.Wait()
	}
}

type due struct {
	id, url, body string
	attempts      int64
	nextAt        int64
}

// deliverDue delivers the rows due now. A row is taken by moving its next_at past the attempt
// (a conditional update: of replicas sharing the database, one takes it), so that it is neither
// sent twice at once nor lost if this replica stops mid-attempt.
func (o *Outbox) deliverDue(ctx context.Context) {
	now := o.now().UnixMilli()
	rows, err := o.db.QueryContext(ctx, `SELECT id, url, body, attempts, next_at FROM webhook_outbox
		WHERE service = $1 AND delivered_at IS NULL AND next_at <= $2 ORDER BY next_at LIMIT $3`, o.service, now, batch)
	if err != nil {
		o.log.Warn("cannot read the webhook outbox", "err", err)
		return
	}
	var list []due
	for rows.Next() {
		var d due
		if rows.Scan(&d.id, &d.url, &d.body, &d.attempts, &d.nextAt) == nil {
			list = append(list, d)
		}
	}
	rows.Close()
	for _, d := range list {
		if ctx.Err() != nil {
			return
		}
		res, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET next_at = $1 WHERE id = $2 AND next_at = $3 AND delivered_at IS NULL`,
			now+(2*o.cfg.Timeout).Milliseconds(), d.id, d.nextAt) // held past the attempt's timeout
		if err != nil {
			continue
		}
		if n, _ := res.RowsAffected(); n != 1 {
			continue // another replica took it
		}
		o.attempt(ctx, d)
	}
	var left int64
	if o.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_outbox WHERE service = $1 AND delivered_at IS NULL`, o.service).Scan(&left) == nil {
		o.pending.Set(float64(left))
	}
}

// attempt POSTs one delivery and records its outcome.
func (o *Outbox) attempt(ctx context.Context, d due) {
	err := o.post(ctx, d.url, d.id, []byte(d.body))
	now := o.now()
	if err == nil {
		o.delivered.Inc()
		if _, err := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET delivered_at = $1, attempts = attempts + 1, last_error = '' WHERE id = $2`,
			now.UnixMilli(), d.id); err != nil {
			o.log.Warn("a webhook was delivered but could not be marked so; it will be delivered again", "id", d.id, "err", err)
		}
		return
	}
	o.failed.Inc()
	backoff := min(maxBackoff, minBackoff<<min(d.attempts, 20))
	if _, werr := o.db.ExecContext(ctx, `UPDATE webhook_outbox SET attempts = attempts + 1, next_at = $1, last_error = $2 WHERE id = $3`,
		now.Add(backoff).UnixMilli(), truncate(err.Error(), 512), d.id); werr != nil {
		o.log.Warn("cannot record a failed webhook delivery", "id", d.id, "err", werr)
	}
	if d.attempts == 0 || d.attempts%10 == 9 { // the endpoint's failures are its operator's to fix: a warning, not once per attempt
		o.log.Warn("a webhook endpoint did not take a delivery; retrying with backoff", "endpoint", redact(d.url), "id", d.id, "attempts", d.attempts+1, "retryIn", backoff, "err", err)
	}
}

func (o *Outbox) post(ctx context.Context, endpoint, id string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(o.now().Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "vaultd-"+o.service)
	req.Header.Set("Vaultd-Delivery", id)
	req.Header.Set("Vaultd-Signature", "t="+ts+",v1="+Sign(o.cfg.Secret, ts, body))
	resp, err := o.client.Do(req)
	if err != nil {
		return errors.New(strings.ReplaceAll(err.Error(), endpoint, redact(endpoint))) // a URL may carry a token
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

// Verify checks a Vaultd-Signature header over body, refusing one older than maxAge: what a
// receiver does (the README shows it; the tests use it).
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
	if now.Sub(time.Unix(sec, 0)) > maxAge {
		return errors.New("the signature is too old")
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

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
