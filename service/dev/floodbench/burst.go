package floodbench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/faucet"
)

// BurstConfig says what a burst of bogus solutions is: Claims sent at once from Nets IPv6 /64s
// (one host's /56 holds 256), each carrying a challenge with a random nonce that misses it, so
// the sender does no work. One challenge for them all, or (Distinct) one for each claim, asked
// beforehand from the claim's /64.
type BurstConfig struct {
	Claims    int
	Nets      int
	Distinct  bool
	MemoryKiB uint32 // FAUCET_POW_MEMORY_KIB
	Checks    int    // FAUCET_POW_CHECKS; 0: the faucet's default (its cores)
	DataDir   string
}

// BurstResult is what the faucet went through.
type BurstResult struct {
	Answers              map[string]int // "403 POW_INVALID": how many
	Hashes               int            // argon2id hashes the faucet computed (its metrics)
	BaseRSS, PeakRSS     int64          // the faucet process's resident memory before, and at most (VmHWM), in bytes
	Health               []time.Duration
	HealthFailed         int // /health requests that got no 200 within 10 s
	Took                 time.Duration
	HealthMax, HealthP99 time.Duration
}

// serveEnv names the variable that makes this command serve a faucet (Burst's child process).
const serveEnv = "FLOODBENCH_SERVE_FAUCET"

// ServeFaucetIfAsked serves a faucet from the environment and exits, when this process is a
// burst's faucet: the faucet's memory is then its own process's, not shared with the dev chain
// or the senders.
func ServeFaucetIfAsked() {
	if os.Getenv(serveEnv) == "" {
		return
	}
	cfg, err := faucet.LoadConfig(os.Getenv)
	if err == nil {
		var svc *faucet.Service
		if svc, err = faucet.New(context.Background(), cfg, faucet.Options{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))}); err == nil {
			err = svc.Run(context.Background())
		}
	}
	fmt.Fprintln(os.Stderr, "floodbench's faucet:", err)
	os.Exit(1)
}

// Burst starts a faucet as a child process of this command (ServeFaucetIfAsked) on a dev chain
// of its own, sends the burst while asking /health every 20 ms, and reports the faucet's peak
// resident memory and /health's latency.
func Burst(ctx context.Context, cfg BurstConfig, out io.Writer) (BurstResult, error) {
	res := BurstResult{Answers: map[string]int{}}
	dev, err := devchain.Start(ctx, devchain.Config{})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	port, err := freePort()
	if err != nil {
		return res, err
	}
	env := devstack.FaucetEnv(dev, filepath.Join(cfg.DataDir, "faucet.db"))
	maps.Copy(env, map[string]string{serveEnv: "1", "PORT": strconv.Itoa(port), "LOG_LEVEL": "error", "TRUSTED_PROXIES": "127.0.0.1",
		"FAUCET_POW_WORK": "1099511627776", "FAUCET_POW_MEMORY_KIB": fmt.Sprint(cfg.MemoryKiB)}) // a work no random nonce meets
	if cfg.Checks > 0 {
		env["FAUCET_POW_CHECKS"] = strconv.Itoa(cfg.Checks)
	}
	self, err := os.Executable()
	if err != nil {
		return res, err
	}
	child := exec.CommandContext(ctx, self)
	child.Stderr = os.Stderr
	for k, v := range env {
		child.Env = append(child.Env, k+"="+v)
	}
	if err := child.Start(); err != nil {
		return res, err
	}
	defer func() { _ = child.Process.Kill(); _ = child.Wait() }()
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	if err := waitHealthy(ctx, url); err != nil {
		return res, err
	}
	api, err := faucetapi.NewClientWithResponses(url, faucetapi.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Claims}}))
	if err != nil {
		return res, err
	}
	netOf := func(i int) string { return fmt.Sprintf("2001:db8:0:%x::1", i%cfg.Nets) } // 256 /64s of one /56
	type bogus struct{ addr, challenge string }
	claims := make([]bogus, cfg.Claims)
	for i := range claims {
		if i == 0 || cfg.Distinct {
			key, _ := crypto.GenerateKey()
			addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
			ch, err := api.GetChallengeWithResponse(ctx, &faucetapi.GetChallengeParams{Address: addr}, from(netOf(i)))
			if err != nil {
				return res, fmt.Errorf("challenge %d: %w", i, err)
			}
			if ch.JSON200 == nil {
				return res, fmt.Errorf("challenge %d: %d %s", i, ch.StatusCode(), ch.Body)
			}
			claims[i] = bogus{addr, ch.JSON200.Challenge}
		} else {
			claims[i] = claims[0]
		}
	}
	res.BaseRSS = memoryOf(child.Process.Pid, "VmRSS")

	sampling, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		probe := &http.Client{Timeout: 10 * time.Second}
		for tick := time.NewTicker(20 * time.Millisecond); sampling.Err() == nil; <-tick.C {
			start := time.Now()
			resp, err := probe.Get(url + "/health")
			if err != nil || resp.StatusCode != http.StatusOK {
				res.HealthFailed++
			}
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			res.Health = append(res.Health, time.Since(start))
		}
	}()
	time.Sleep(200 * time.Millisecond) // /health's latency at rest first
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for i, c := range claims {
		wg.Go(func() {
			<-start
			r, err := api.ClaimWithResponse(ctx, faucetapi.ClaimRequest{Address: c.addr,
				Pow: &faucetapi.PowSolution{Challenge: c.challenge, Nonce: int64(i)}}, from(netOf(i)))
			answer := "NO_ANSWER"
			if err == nil {
				answer = fmt.Sprint(r.StatusCode(), " ", codeOf(r.StatusCode(), r.Body))
			}
			mu.Lock()
			res.Answers[answer]++
			mu.Unlock()
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	res.Took = time.Since(began)
	time.Sleep(200 * time.Millisecond)
	stopSampling()
	<-sampled
	res.PeakRSS = memoryOf(child.Process.Pid, "VmHWM")
	res.Hashes = int(metric(url, "vaultd_faucet_pow_verify_duration_seconds_count"))
	sorted := slices.Sorted(slices.Values(res.Health))
	if len(sorted) > 0 {
		res.HealthMax, res.HealthP99 = sorted[len(sorted)-1], sorted[len(sorted)*99/100]
	}
	challenges := "one challenge"
	if cfg.Distinct {
		challenges = "a challenge each"
	}
	fmt.Fprintf(out, "floodbench burst: %d claims at once from %d /64s, %s, random nonces, %d KiB a hash, FAUCET_POW_CHECKS %s\n",
		cfg.Claims, cfg.Nets, challenges, cfg.MemoryKiB, map[bool]string{true: strconv.Itoa(cfg.Checks), false: "default"}[cfg.Checks > 0])
	fmt.Fprintf(out, "  answers: %v in %.1f s; %d argon2id hashes\n", res.Answers, res.Took.Seconds(), res.Hashes)
	fmt.Fprintf(out, "  faucet resident memory: %.0f MiB before, %.0f MiB at most\n", float64(res.BaseRSS)/(1<<20), float64(res.PeakRSS)/(1<<20))
	fmt.Fprintf(out, "  /health every 20 ms: %d answers, %d failed; latency p99 %.1f ms, max %.1f ms\n",
		len(res.Health), res.HealthFailed, float64(res.HealthP99.Microseconds())/1000, float64(res.HealthMax.Microseconds())/1000)
	return res, nil
}

// from sends a request as if from ip, through the trusted proxy the faucet is told of.
func from(ip string) faucetapi.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error { r.Header.Set("X-Forwarded-For", ip); return nil }
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitHealthy(ctx context.Context, url string) error {
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return errors.New("the faucet did not answer /health within 60 s")
}

// memoryOf reads one of a process's memory figures (VmRSS, VmHWM) from /proc, in bytes.
func memoryOf(pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	for s := bufio.NewScanner(f); s.Scan(); {
		if v, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kib, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kib << 10
		}
	}
	return 0
}

// metric reads one unlabelled sample from the faucet's metrics.
func metric(url, name string) float64 {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for line := range strings.SplitSeq(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}
