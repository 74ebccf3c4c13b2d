// Command faucet serves the faucet: test native tokens, once per
// address. Configuration comes from the environment; docs/faucet.md lists every variable.
// `faucet claim ADDRESS` is a client's claim, its proof of work solved (claim.go).
package main

import (
	"context"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

func main() {
	buildversion.Answer("faucet")
	edge.Healthcheck(faucet.DefaultPort)
	if len(os.Args) > 1 && os.Args[1] == "claim" {
		os.Exit(claimCommand(os.Args[2:], os.Stdout, os.Stderr))
	}
	cfg, err := faucet.LoadConfig(os.Getenv)
	edge.Migrate("faucet", cfg.DatabaseURL, err, faucet.Schemas...) // `faucet migrate`: the migrations alone, then exit
	edge.Main("faucet", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
		svc, err := faucet.New(ctx, cfg, faucet.Options{Traces: tp})
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	})
}
