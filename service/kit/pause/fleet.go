package pause

import (
	"context"
	"fmt"
	"time"
)

// Replica is one replica of a service as the fleet view lists it (GET /admin/fleet): its name,
// the wallet it pays from and since when, and its pause.
type Replica struct {
	Replica     string
	Wallet      string // EIP-55
	Since       time.Time
	Paused      bool
	PausedSince *time.Time
}

// Announce records that this replica pays from wallet (EIP-55) from now on: at its start, or
// when it takes a wallet over from another replica, whose row naming the wallet goes (a wallet is
// paid from by one replica at a time).
func (s *Switch) Announce(ctx context.Context, wallet string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record the replica's wallet: %w", err)
	}
	defer tx.Rollback()
	if _, err = tx.ExecContext(ctx, `DELETE FROM replica_wallets WHERE service = $1 AND (replica = $2 OR wallet = $3)`, s.service, s.replica, wallet); err == nil {
		_, err = tx.ExecContext(ctx, `INSERT INTO replica_wallets (service, replica, wallet, since) VALUES ($1, $2, $3, $4)`,
			s.service, s.replica, wallet, time.Now().UnixMilli())
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return fmt.Errorf("record the replica's wallet: %w", err)
	}
	return nil
}

// Fleet lists the service's replicas that announced a wallet in this database, by name, each
// with its pause as stored. A replica that stopped stays listed until another announces its
// wallet.
func (s *Switch) Fleet(ctx context.Context) ([]Replica, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT w.replica, w.wallet, w.since, COALESCE(p.paused_at, -1)
		FROM replica_wallets w LEFT JOIN paused_replicas p ON p.service = w.service AND p.replica = w.replica
		WHERE w.service = $1 ORDER BY w.replica`, s.service)
	if err != nil {
		return nil, fmt.Errorf("read the fleet: %w", err)
	}
	defer rows.Close()
	out := []Replica{}
	for rows.Next() {
		var r Replica
		var since, paused int64
		if err := rows.Scan(&r.Replica, &r.Wallet, &since, &paused); err != nil {
			return nil, fmt.Errorf("read the fleet: %w", err)
		}
		r.Since = time.UnixMilli(since).UTC()
		if paused >= 0 {
			at := time.UnixMilli(paused).UTC()
			r.Paused, r.PausedSince = true, &at
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
