// Command registry serves the token registry. Configuration comes from the
// environment; docs/registry.md lists every variable.
package main

import (
	"context"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
	_ "github.com/seed018cc74c/vaultd/service/edge/profiling" // empty unless built with -tags pprof
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/registry"
)

func main() {
	buildversion.Answer("registry")
	edge.Healthcheck(registry.DefaultPort)
	// Its live heap is a few MB and GET /tokens allocates little: without an operator's GOGC the
	// registry collects at 400 % growth (docs/registry.md: ~11 % less CPU a request for ~12 MB).
	edge.DefaultGOGC(os.Getenv, registry.DefaultGOGC)
	cfg, err := registry.LoadConfig(os.Getenv)
	edge.Migrate("registry", cfg.Store.DatabaseURL, err, registry.Schema) // `registry migrate`: the migrations alone, then exit
	edge.Main("registry", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
		svc, err := registry.New(ctx, cfg, registry.Options{Traces: tp})
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	})
}
