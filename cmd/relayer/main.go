// Command relayer serves the sponsored-reveal relayer. Configuration comes from the
// environment; docs/relayer.md lists every variable.
package main

import (
	"context"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

func main() {
	buildversion.Answer("relayer")
	edge.Healthcheck(relayer.DefaultPort)
	cfg, err := relayer.LoadConfig(os.Getenv)
	edge.Migrate("relayer", cfg.DatabaseURL, err, relayer.Schemas...) // `relayer migrate`: the migrations alone, then exit
	edge.Main("relayer", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
		svc, err := relayer.New(ctx, cfg, relayer.Options{Traces: tp})
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	})
}
