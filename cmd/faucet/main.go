// Command faucet serves the faucet of seed 001's related endpoints: test native tokens, once per
// address. Configuration comes from the environment; docs/faucet.md lists every variable.
package main

import (
	"context"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/platform"
)

func main() {
	platform.Healthcheck(faucet.DefaultPort)
	cfg, err := faucet.LoadConfig(os.Getenv)
	platform.Main("faucet", cfg.HTTP.LogLevel, err, func(ctx context.Context, tp trace.TracerProvider) error {
		svc, err := faucet.New(ctx, cfg, faucet.Options{Traces: tp})
		if err != nil {
			return err
		}
		defer svc.Close()
		return svc.Run(ctx)
	})
}
