package relayer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/lease"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/relayer/holds"
)

// Replicas never share a nonce counter: with OPERATOR_PRIVATE_KEYS each replica leases one key
// of the set through Redis (service/kit/lease) and is the only sender from that wallet while it
// holds the lease. The lease's fence ends every send by the lease's deadline, which passes before
// Redis lets another replica take the key; the next holder reads the wallet's nonce and adopts its
// transactions waiting in the pool, as at any start. A replica finding every key leased waits as
// a standby, and takes the first key whose holder stops renewing (it died, or was cut off).

// leasePrefix is the Redis keys' prefix of the operator keys' leases, which the nullifier holds'
// markers share (holds.Marker).
const leasePrefix = holds.LeasePrefix

// operatorLease is this replica's lease of one operator key.
type operatorLease struct {
	lease  *lease.Lease
	signer txmgr.Signer
	// tx is the key's transaction manager once built: a lease taken again after it lapsed
	// resyncs it (another replica may have used the key in between).
	tx atomic.Pointer[txmgr.Manager]
}

// leaseOperatorKey waits until this replica holds the lease of one of keys, checking every
// TTL/3 while all are held by other replicas; an unreachable Redis is an error.
func leaseOperatorKey(ctx context.Context, rdb *redis.Client, keys []txmgr.Signer, ttl time.Duration, epoch prometheus.Gauge, log *slog.Logger, adopt func()) (*operatorLease, error) {
	names := make([]string, len(keys))
	byName := map[string]txmgr.Signer{}
	for i, k := range keys {
		names[i] = k.Address().Hex()
		byName[names[i]] = k
	}
	ol := &operatorLease{}
	cfg := lease.Config{Prefix: leasePrefix, Owner: edge.Instance(), TTL: ttl, Logger: log,
		OnAcquire: func(e int64) {
			epoch.Set(float64(e))
			if tx := ol.tx.Load(); tx != nil { // taken again after it lapsed: catch up with the wallet
				sctx, cancel := context.WithTimeout(context.Background(), ttl)
				defer cancel()
				if _, err := tx.Sync(sctx); err != nil {
					log.Warn("could not read the operator's nonce after taking its lease again; it is read at the next send", "err", err)
				}
				adopt()
			}
		}}
	waiting := false
	for {
		l, err := lease.Acquire(ctx, rdb, cfg, names)
		switch {
		case err == nil:
			ol.lease, ol.signer = l, byName[l.Name()]
			log.Info("leased an operator key", "operator", l.Name(), "epoch", l.Epoch(), "keys", len(keys), "ttl", ttl)
			return ol, nil
		case !errors.Is(err, lease.ErrAllHeld) && !errors.Is(err, lease.ErrQuiet) && !waiting:
			return nil, fmt.Errorf("lease an operator key through REDIS_URL: %w", err)
		case !errors.Is(err, lease.ErrAllHeld) && !errors.Is(err, lease.ErrQuiet):
			// A standby already waiting rides out a Redis that restarts or is briefly away.
			log.Warn("standby: cannot ask Redis for a free operator key; asking again", "err", err)
		case errors.Is(err, lease.ErrQuiet):
			log.Info("Redis holds no leases from before (it is new, or restarted empty): no key is leased for one OPERATOR_LEASE_TTL, so that a holder from before has stopped", "ttl", ttl)
		case !waiting:
			waiting = true
			log.Info("standby: every operator key is leased by another replica; waiting for one to be released or to lapse", "keys", len(keys))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(ttl / 3):
		}
	}
}

// keyLost is closed when another replica took this replica's leased key; never with one
// OPERATOR_PRIVATE_KEY.
func (r *Relayer) keyLost() <-chan struct{} { return r.keyGone }

// holdsKey reports whether this replica may send now: once set up, always with one
// OPERATOR_PRIVATE_KEY, while its lease is held with OPERATOR_PRIVATE_KEYS.
func (r *Relayer) holdsKey() bool {
	if !r.isSet() {
		return false
	}
	if r.lease == nil {
		return true
	}
	_, err := r.lease.lease.Hold()
	return err == nil
}

// sharedBudget is the spend budget's account in the replicas' Redis (nil: none, in process): the
// limit then holds for the fleet, not per replica.
func sharedBudget(rdb *redis.Client, prefix string) gate.Shared {
	if rdb == nil {
		return nil
	}
	return gate.NewSharedRedis(rdb, prefix, edge.Instance(), 10*time.Minute)
}
