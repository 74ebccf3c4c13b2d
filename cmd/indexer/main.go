// Command indexer serves the indexer: the vault's events by
// name and block range, through reorgs. Configuration comes from the environment; docs/indexer.md
// lists every variable.
package main

import (
	"context"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

func main() {
	buildversion.Answer("indexer")
	edge.Healthcheck(indexer.DefaultPort)
	cfg, err := indexer.LoadConfig(os.Getenv)
	edge.Migrate("indexer", cfg.DatabaseURL, err, indexer.Schema) // `indexer migrate`: the migrations alone, then exit
	edge.Main("indexer", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
		svc, err := indexer.New(ctx, cfg, indexer.Options{Traces: tp})
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	})
}
