package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Main runs a service process: a configuration error exits 2 listing every problem; otherwise
// it sets up JSON logging (on stderr, in batches: LogWriter) and tracing, runs run until
// SIGINT or SIGTERM, and exits 1 if run fails, every log line written. It never returns.
func Main(service string, level slog.Level, configErr error, run func(ctx context.Context, tp trace.TracerProvider) error) {
	if configErr != nil {
		fmt.Fprintf(os.Stderr, "%s: invalid configuration:\n%v\n", service, configErr)
		os.Exit(2)
	}
	logs := NewLogWriter(os.Stderr, 100*time.Millisecond)
	exit := func(code int) {
		_ = logs.Close()
		os.Exit(code)
	}
	slog.SetDefault(NewLogger(logs, level, service))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tp, err := NewTracerProvider(ctx, service, os.Getenv)
	if err != nil {
		slog.Error("tracing setup failed", "err", err)
		exit(1)
	}
	err = run(ctx, tp)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = tp.Shutdown(shutdownCtx)
	cancel()
	if err != nil {
		slog.Error(service+" stopped", "err", err)
		exit(1)
	}
	slog.Info(service + " stopped")
	exit(0)
}

// Healthcheck answers `<service> healthcheck`, the container's HEALTHCHECK (images carry no
// curl): it asks the service on this host, on PORT (or defaultPort), for GET /health and exits
// 0 on 200, 1 otherwise. For any other arguments it returns, and the service starts.
func Healthcheck(defaultPort int) {
	if len(os.Args) != 2 || os.Args[1] != "healthcheck" {
		return
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = fmt.Sprint(defaultPort)
	}
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get("http://127.0.0.1:" + port + "/health")
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		os.Exit(1)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "healthcheck: /health answered", resp.Status)
		os.Exit(1)
	}
	os.Exit(0)
}

// Instance names this process among a service's replicas ("<host>:<pid>:<random>"): in the
// Redis keys and lease values replicas share. The host and pid are for people reading them; the
// random part tells this process from an earlier one with the same host and pid (a restarted
// container is pid 1 on the same hostname again), which must not take the earlier one's leases
// and reservations for its own.
func Instance() string { return instance }

var instance = newInstance()

// newInstance makes a name unlike any other process's, this one's included.
func newInstance() string {
	host, _ := os.Hostname()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}
