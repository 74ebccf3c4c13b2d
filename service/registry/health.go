package registry

import (
	"context"
	"sync"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// healthProbe asks the chain for its block number, at most once per interval, so a burst of
// health checks costs one RPC call and a hung RPC costs at most its timeout.
type healthProbe struct {
	chain    *chain.Client
	interval time.Duration

	mu      sync.Mutex
	checked time.Time
	healthy bool
}

// probeTimeout caps one probe, so a hung RPC answers health checks as degraded quickly.
const probeTimeout = time.Second

func (p *healthProbe) ok(ctx context.Context) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.checked) < p.interval {
		return p.healthy
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	_, err := p.chain.BlockNumber(ctx)
	p.healthy, p.checked = err == nil, time.Now()
	return p.healthy
}
