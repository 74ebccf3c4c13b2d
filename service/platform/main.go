package platform

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Main runs a service process: a configuration error exits 2 listing every problem; otherwise
// it sets up JSON logging and tracing, runs run until SIGINT or SIGTERM, and exits 1 if run
// fails. It never returns.
func Main(service string, level slog.Level, configErr error, run func(ctx context.Context, tp trace.TracerProvider) error) {
	if configErr != nil {
		fmt.Fprintf(os.Stderr, "%s: invalid configuration:\n%v\n", service, configErr)
		os.Exit(2)
	}
	slog.SetDefault(NewLogger(os.Stderr, level, service))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tp, err := NewTracerProvider(ctx, service, os.Getenv)
	if err != nil {
		slog.Error("tracing setup failed", "err", err)
		os.Exit(1)
	}
	err = run(ctx, tp)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = tp.Shutdown(shutdownCtx)
	cancel()
	if err != nil {
		slog.Error(service+" stopped", "err", err)
		os.Exit(1)
	}
	slog.Info(service + " stopped")
	os.Exit(0)
}
