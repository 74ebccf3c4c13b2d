package revealbench

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/redis/go-redis/v9"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// ReplicasConfig says what `revealbench --replicas` measures: what Redis coordination adds to
// one reveal, and reveals per minute through 1…N relayer replicas, each with its own key.
type ReplicasConfig struct {
	Singles   int           // single reveals per path for the added latency (median reported)
	Reveals   int           // reveals sent at once per replica count
	Replicas  []int         // the replica counts to measure, e.g. 1, 2, 3
	BlockTime time.Duration // the dev chain's block time for the throughput rounds
	VKey      string
	// SpendLimit is the throughput rounds' OPERATOR_SPEND_LIMIT ("off": none); set, it is the
	// fleet's, counted in the bench's Redis, and every send and /ready reach it.
	SpendLimit string
}

// ReplicasResult holds the measurements.
type ReplicasResult struct {
	Embedded, Redis time.Duration // median single reveal without and with REDIS_URL
	PerMinute       map[int]float64
	// ReadyP50 and ReadyP99 are the latencies of GET /ready on the first replica, asked every
	// 2 ms while each round's reveals run, by replica count.
	ReadyP50, ReadyP99 map[int]time.Duration
}

// RunReplicas measures on a fresh dev chain and a redis-server it starts (redis-server must be
// installed), and writes a report to out.
func RunReplicas(ctx context.Context, cfg ReplicasConfig, out io.Writer) (ReplicasResult, error) {
	res := ReplicasResult{PerMinute: map[int]float64{}, ReadyP50: map[int]time.Duration{}, ReadyP99: map[int]time.Duration{}}
	if cfg.SpendLimit == "" {
		cfg.SpendLimit = "off"
	}
	dir, err := os.MkdirTemp("", "revealbench-redis")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	redisURL, stopRedis, err := redistest.Start(dir)
	if err != nil {
		return res, err
	}
	defer stopRedis()
	dev, err := devchain.Start(ctx, devchain.Config{Users: 8})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	keys, err := zk.DevKeys()
	if err != nil {
		return res, err
	}
	most := 0
	for _, n := range cfg.Replicas {
		most = max(most, n)
	}
	operators, err := fundOperators(ctx, dev, most)
	if err != nil {
		return res, err
	}
	total := 2*cfg.Singles + cfg.Reveals*len(cfg.Replicas)
	fmt.Fprintf(out, "preparing %d cards and proofs (not timed)...\n", total)
	reqs, err := prepare(ctx, dev, keys, total)
	if err != nil {
		return res, err
	}

	// Added latency: one reveal at a time, instant sealing, alternating the two relayers (each
	// with its own wallet: sharing one, each send would find its nonce taken by the other's).
	// The receipt poll at 1 ms, so that its granularity does not hide a difference of a few ms.
	fast := map[string]string{"RECEIPT_POLL_INTERVAL": "1ms"}
	embedded, stopEmbedded, err := startRelayerWith(ctx, dev, cfg.VKey, fast)
	if err != nil {
		return res, err
	}
	own, err := fundOperators(ctx, dev, 1)
	if err != nil {
		stopEmbedded()
		return res, err
	}
	coordinated, stopCoordinated, err := startRelayerWith(ctx, dev, cfg.VKey, map[string]string{"REDIS_URL": redisURL, "OPERATOR_PRIVATE_KEY": own[0], "RECEIPT_POLL_INTERVAL": "1ms"})
	if err != nil {
		stopEmbedded()
		return res, err
	}
	var a, b []time.Duration
	for i := range cfg.Singles {
		for j, url := range []string{embedded, coordinated} {
			start := time.Now()
			if _, err := post(ctx, url, reqs[2*i+j]); err != nil {
				stopEmbedded()
				stopCoordinated()
				return res, err
			}
			if j == 0 {
				a = append(a, time.Since(start))
			} else {
				b = append(b, time.Since(start))
			}
		}
	}
	stopEmbedded()
	stopCoordinated()
	res.Embedded, res.Redis = median(a), median(b)
	fmt.Fprintf(out, "single reveal, median of %d, instant sealing, receipt poll 1 ms: embedded %v, with REDIS_URL %v: %+.2f ms (target <= +5 ms)\n",
		cfg.Singles, res.Embedded.Round(time.Microsecond), res.Redis.Round(time.Microsecond), float64(res.Redis-res.Embedded)/1e6)

	// Throughput: n replicas, each leasing its own key, all reveals sent at once round-robin.
	if cfg.Reveals == 0 {
		return res, nil
	}
	dev.SetBlockTime(cfg.BlockTime)
	rdb := redis.NewClient(mustParseRedis(redisURL))
	defer rdb.Close()
	next := 2 * cfg.Singles
	for _, n := range cfg.Replicas {
		if err := rdb.FlushDB(ctx).Err(); err != nil { // fresh limits and leases per round
			return res, err
		}
		var urls []string
		var stops []func()
		stopAll := func() {
			for _, s := range stops {
				s()
			}
		}
		for range n {
			url, stop, err := startRelayerWith(ctx, dev, cfg.VKey, map[string]string{"REDIS_URL": redisURL,
				"OPERATOR_PRIVATE_KEY": "", "OPERATOR_PRIVATE_KEYS": strings.Join(operators[:n], ","), "OPERATOR_SPEND_LIMIT": cfg.SpendLimit})
			if err != nil {
				stopAll()
				return res, err
			}
			urls, stops = append(urls, url), append(stops, stop)
		}
		batch := reqs[next : next+cfg.Reveals]
		next += cfg.Reveals
		var wg sync.WaitGroup
		errs := make(chan error, len(batch))
		probeCtx, stopProbe := context.WithCancel(ctx)
		readyTimes := make(chan []time.Duration, 1)
		go func() { readyTimes <- probeReady(probeCtx, urls[0]) }()
		start := time.Now()
		for i, r := range batch {
			wg.Go(func() {
				if _, err := post(ctx, urls[i%n], r); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		stopProbe()
		ready := <-readyTimes
		stopAll()
		close(errs)
		for err := range errs {
			return res, fmt.Errorf("%d replicas: %w", n, err)
		}
		res.PerMinute[n] = float64(len(batch)) / elapsed.Minutes()
		res.ReadyP50[n], res.ReadyP99[n] = quantile(ready, 0.5), quantile(ready, 0.99)
		fmt.Fprintf(out, "%d replica%s (%d key%s), block time %v, spend limit %s: %d reveals at once, all mined in %v: %.0f reveals/min; GET /ready meanwhile (%d, every 2 ms): p50 %v, p99 %v\n",
			n, plural(n), n, plural(n), cfg.BlockTime, cfg.SpendLimit, len(batch), elapsed.Round(time.Millisecond), res.PerMinute[n],
			len(ready), res.ReadyP50[n].Round(time.Microsecond), res.ReadyP99[n].Round(time.Microsecond))
	}
	return res, nil
}

// probeReady asks url's GET /ready every 2 ms until ctx is done, and returns how long each
// answer took (whatever its status: a busy replica may answer 503).
func probeReady(ctx context.Context, url string) []time.Duration {
	var out []time.Duration
	client, err := relayerapi.NewClientWithResponses(url)
	if err != nil {
		return out
	}
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return out
		case <-t.C:
		}
		start := time.Now()
		if _, err := client.GetReadyWithResponse(ctx); err != nil {
			continue // the round ended mid-request
		}
		out = append(out, time.Since(start))
	}
}

// quantile is the q-quantile of d (0 when d is empty).
func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// fundOperators makes n operator keys holding 1,000 native tokens each, as hex.
func fundOperators(ctx context.Context, c *devchain.Chain, n int) ([]string, error) {
	var out []string
	for range n {
		k, err := devchain.FundedKey(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, hexutil.Encode(crypto.FromECDSA(k)))
	}
	return out, nil
}

func mustParseRedis(url string) *redis.Options {
	o, err := redis.ParseURL(url)
	if err != nil {
		panic(err) // redistest.Start made it
	}
	return o
}

// relayerEnv is the bench's relayer configuration, its record of what it signs in dir: limits
// out of the way, over on top.
func relayerEnv(c *devchain.Chain, vkey, dir string, over map[string]string) map[string]string {
	env := devstack.RelayerEnv(c, vkey, filepath.Join(dir, "relayer.db"))
	maps.Copy(env, map[string]string{
		"RECEIPT_POLL_INTERVAL":    "10ms", // the same poll as the direct path's
		"RATE_LIMIT_PER_IP":        "100000/1m",
		"RATE_LIMIT_PER_RECIPIENT": "100000/1h",
		"RATE_LIMIT_TOTAL":         "100000/1m",
		"OPERATOR_SPEND_LIMIT":     "off",
		"LOG_LEVEL":                "warn",
	})
	maps.Copy(env, over)
	return env
}
