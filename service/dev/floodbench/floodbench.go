// Package floodbench floods a faucet on an in-process dev chain the way a bot with many IPs
// would, while honest people keep claiming, and reports what each got and what the wallet paid.
// The bot rotates through many client IPs (X-Forwarded-For from a trusted proxy) and fresh
// addresses, solving each proof of work with Go's solver as fast as its cores allow. An honest
// claimant comes at a steady rate from an IP of its own and takes as long as a phone would to
// solve (the Go solver's tries, at a phone's tries per second). The faucet's window is scaled
// down (a minute rather than an hour) so a run sees the window fill, the work rise and the
// outflow slow. It is what `go run ./cmd/floodbench` runs.
package floodbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/faucet/pow"
)

// Config says what to simulate.
type Config struct {
	Duration    time.Duration // how long the flood lasts
	Window      time.Duration // the faucet's rate and spend window (scaled down from an hour)
	Total       int           // RATE_LIMIT_TOTAL per Window
	SpendLimit  int           // FAUCET_SPEND_LIMIT per Window, whole native tokens (claims are 100)
	Work        uint64        // FAUCET_POW_WORK
	MemoryKiB   uint32        // FAUCET_POW_MEMORY_KIB
	IPs         int           // the bot's client IPs
	BotWorkers  int           // the bot's solvers, one a core
	HonestEvery time.Duration // an honest claim starts this often
	PhoneRate   float64       // an honest phone's tries per second (docs/faucet.md: 10.1)
	DataDir     string        // where the faucet's store goes
}

// Result holds what happened.
type Result struct {
	Bot, Honest     Side
	Paid            *big.Int      // what the faucet's claims sent, in wei (202s' amounts)
	MostInAWindow   *big.Int      // the most the 202s' amounts add to within any Window
	Budget          *big.Int      // FAUCET_SPEND_LIMIT in wei
	LastAmount      *big.Int      // the amount of the last claim paid
	MaxWork         uint64        // the most work a challenge asked
	VerifyMean      time.Duration // the faucet's time to check a proof of work, mean
	HonestSolveMean time.Duration // an honest claimant's solve, phone-paced, mean
}

// Side is one party's claims.
type Side struct {
	Tries, Paid int
	Refused     map[string]int // by code
}

func (s *Side) add(code string) {
	s.Tries++
	if code == "" {
		s.Paid++
		return
	}
	if s.Refused == nil {
		s.Refused = map[string]int{}
	}
	s.Refused[code]++
}

// paid is one 202: when and how much.
type paid struct {
	at     time.Time
	amount *big.Int
}

// Run floods a fresh faucet and writes the report to out.
func Run(ctx context.Context, cfg Config, out io.Writer) (Result, error) {
	res := Result{Paid: new(big.Int), MostInAWindow: new(big.Int)}
	dev, err := devchain.Start(ctx, devchain.Config{})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	env := devstack.FaucetEnv(dev, filepath.Join(cfg.DataDir, "faucet.db"))
	window := cfg.Window.String()
	maps.Copy(env, map[string]string{
		"LOG_LEVEL": "error", "TRUSTED_PROXIES": "127.0.0.1",
		"RATE_LIMIT_PER_IP": "5/" + window, "RATE_LIMIT_TOTAL": fmt.Sprintf("%d/%s", cfg.Total, window),
		"FAUCET_SPEND_LIMIT": fmt.Sprintf("%d/%s", cfg.SpendLimit, window), "MIN_FAUCET_BALANCE": "1",
		"FAUCET_POW_WORK": fmt.Sprint(cfg.Work), "FAUCET_POW_MEMORY_KIB": fmt.Sprint(cfg.MemoryKiB),
	})
	fcfg, err := faucet.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		return res, err
	}
	res.Budget = fcfg.Wallet.SpendLimit.Limit
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	svc, err := faucet.New(ctx, fcfg, faucet.Options{Logger: quiet})
	if err != nil {
		return res, err
	}
	url, stop, err := edge.ServeLoopback(ctx, svc.Handler(), svc.Start, svc.Close)
	if err != nil {
		return res, err
	}
	defer stop()
	fmt.Fprintf(out, "floodbench: %s of flood; window %s, RATE_LIMIT_TOTAL %d, FAUCET_SPEND_LIMIT %d, FAUCET_POW_WORK %d (%d KiB); the bot: %d IP(s), %d solver(s); an honest claim every %s at %.1f tries/s\n",
		cfg.Duration, cfg.Window, cfg.Total, cfg.SpendLimit, cfg.Work, cfg.MemoryKiB, cfg.IPs, cfg.BotWorkers, cfg.HonestEvery, cfg.PhoneRate)

	fctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var (
		mu       sync.Mutex
		payments []paid
		solves   []time.Duration
		wg       sync.WaitGroup
		nextIP   int
	)
	record := func(side *Side, r outcome) {
		mu.Lock()
		defer mu.Unlock()
		side.add(r.code)
		res.MaxWork = max(res.MaxWork, r.work)
		if r.code == "" {
			payments = append(payments, paid{time.Now(), r.amount})
		}
	}
	for w := range cfg.BotWorkers {
		c, err := newClaimant(url)
		if err != nil {
			return res, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fctx.Err() == nil {
				mu.Lock()
				ip := fmt.Sprintf("10.%d.%d.%d", 1+w, nextIP/250%250, 1+nextIP%250)
				nextIP = (nextIP + 1) % cfg.IPs
				mu.Unlock()
				r := c.claim(fctx, ip, 0)
				if fctx.Err() == nil {
					record(&res.Bot, r)
				}
			}
		}()
	}
	honest, err := newClaimant(url)
	if err != nil {
		return res, err
	}
	tick := time.NewTicker(cfg.HonestEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			r := honest.claim(fctx, fmt.Sprintf("192.168.%d.%d", n/250%250, 1+n%250), cfg.PhoneRate)
			if fctx.Err() == nil {
				record(&res.Honest, r)
				mu.Lock()
				solves = append(solves, r.solved.Sub(start))
				mu.Unlock()
			}
		}()
		select {
		case <-tick.C:
			continue
		case <-fctx.Done():
		}
		break
	}
	wg.Wait()

	sort.Slice(payments, func(i, j int) bool { return payments[i].at.Before(payments[j].at) })
	for i, p := range payments {
		res.Paid.Add(res.Paid, p.amount)
		inWindow := new(big.Int)
		for _, q := range payments[i:] {
			if q.at.Sub(p.at) >= cfg.Window {
				break
			}
			inWindow.Add(inWindow, q.amount)
		}
		if inWindow.Cmp(res.MostInAWindow) > 0 {
			res.MostInAWindow = inWindow
		}
		res.LastAmount = p.amount
	}
	for _, s := range solves {
		res.HonestSolveMean += s / time.Duration(len(solves))
	}
	res.VerifyMean = verifyMean(url)
	report(out, cfg, res)
	return res, nil
}

// outcome is one claim's: its code ("" when paid), the amount paid, the work asked.
type outcome struct {
	code   string
	amount *big.Int
	work   uint64
	solved time.Time
}

// claimant claims through the generated client, from the IP it names in X-Forwarded-For.
type claimant struct {
	api *faucetapi.ClientWithResponses
}

func newClaimant(url string) (*claimant, error) {
	api, err := faucetapi.NewClientWithResponses(url)
	return &claimant{api}, err
}

// claim asks a challenge for a fresh address, solves it and claims, all from ip. With a
// phoneRate it then waits as long as a phone solving at that many tries per second would have.
func (c *claimant) claim(ctx context.Context, ip string, phoneRate float64) outcome {
	from := func(_ context.Context, r *http.Request) error { r.Header.Set("X-Forwarded-For", ip); return nil }
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	ch, err := c.api.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: addr.Hex()}, from)
	if err != nil {
		return outcome{code: "NO_ANSWER"}
	}
	if ch.JSON200 == nil {
		return outcome{code: codeOf(ch.StatusCode(), ch.Body)}
	}
	parsed, err := pow.Parse(ch.JSON200.Challenge)
	if err != nil {
		return outcome{code: "BAD_CHALLENGE"}
	}
	start := time.Now()
	nonce, err := pow.Solve(ctx, parsed)
	if err != nil {
		return outcome{code: "CANCELLED"}
	}
	if phoneRate > 0 { // the phone's time for the tries it took (nonce + 1)
		wait := time.Duration(float64(nonce+1)/phoneRate*float64(time.Second)) - time.Since(start)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return outcome{code: "CANCELLED"}
		}
	}
	solved := time.Now()
	r, err := c.api.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: addr.Hex(),
		Pow: &faucetapi.PowSolution{Challenge: ch.JSON200.Challenge, Nonce: int64(nonce)}}, from)
	if err != nil {
		return outcome{code: "NO_ANSWER", work: parsed.Work, solved: solved}
	}
	if r.JSON202 == nil {
		return outcome{code: codeOf(r.StatusCode(), r.Body), work: parsed.Work, solved: solved}
	}
	amount, _ := new(big.Int).SetString(*r.JSON202.Amount, 10)
	return outcome{amount: amount, work: parsed.Work, solved: solved}
}

// codeOf is a refusal's code, or its status when it has none.
func codeOf(status int, body []byte) string {
	if i := strings.Index(string(body), `"code":"`); i >= 0 {
		code, _, _ := strings.Cut(string(body[i+8:]), `"`)
		return code
	}
	return fmt.Sprint(status)
}

// verifyMean reads vaultd_faucet_pow_verify_duration_seconds's mean from the faucet's metrics.
func verifyMean(url string) time.Duration {
	count := metric(url, "vaultd_faucet_pow_verify_duration_seconds_count")
	if count == 0 {
		return 0
	}
	return time.Duration(metric(url, "vaultd_faucet_pow_verify_duration_seconds_sum") / count * float64(time.Second))
}

func ether(wei *big.Int) float64 {
	if wei == nil {
		return 0
	}
	f, _ := new(big.Rat).SetFrac(wei, big.NewInt(params.Ether)).Float64()
	return f
}

func report(out io.Writer, cfg Config, res Result) {
	perHour := func(n int) float64 { return float64(n) / cfg.Duration.Hours() }
	fmt.Fprintf(out, "  bot:    %d claims tried, %d paid (%.0f paid an hour of flood, %.1f a window); refused %v\n",
		res.Bot.Tries, res.Bot.Paid, perHour(res.Bot.Paid), float64(res.Bot.Paid)*cfg.Window.Hours()/cfg.Duration.Hours(), res.Bot.Refused)
	fmt.Fprintf(out, "  honest: %d claims tried, %d paid (%.0f%%); refused %v; a solve took %.1f s on average (phone-paced)\n",
		res.Honest.Tries, res.Honest.Paid, 100*float64(res.Honest.Paid)/float64(max(res.Honest.Tries, 1)), res.Honest.Refused, res.HonestSolveMean.Seconds())
	fmt.Fprintf(out, "  wallet: %.1f paid in all; at most %.1f within one %s window, against a budget of %.0f (the last claim let through may go over); the last claim paid %.2f\n",
		ether(res.Paid), ether(res.MostInAWindow), cfg.Window, ether(res.Budget), ether(res.LastAmount))
	fmt.Fprintf(out, "  work:   up to %d; the faucet checked a proof of work in %.1f ms on average\n", res.MaxWork, float64(res.VerifyMean.Microseconds())/1000)
}
