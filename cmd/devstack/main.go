// Command devstack runs the dev chain and every vaultd service in one process: the one command a
// newcomer runs. It prints the URLs and the admin key (random per run unless ADMIN_API_KEY is set).
package main

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

func main() {
	buildversion.Answer("devstack")
	edge.Healthcheck(3009) // the container's HEALTHCHECK asks the registry
	cfg := devstack.Config{Getenv: os.Getenv, Out: os.Stdout, PublicHost: os.Getenv("PUBLIC_HOST")}
	flag.StringVar(&cfg.Host, "host", "127.0.0.1", "listen host of the chain and the services")
	flag.IntVar(&cfg.RPCPort, "rpc-port", 8545, "dev chain JSON-RPC port")
	flag.IntVar(&cfg.RegistryPort, "registry-port", 3009, "token registry port")
	flag.IntVar(&cfg.RelayerPort, "relayer-port", 3010, "relayer port")
	flag.IntVar(&cfg.Relayers, "relayers", 1, "how many relayers to run, each with a wallet of its own, all listed in the registry's GET /relayers.json; with more than one, each also takes fees and the second charges more (the others listen on the ports after --indexer-port)")
	flag.IntVar(&cfg.FaucetPort, "faucet-port", 3011, "faucet port")
	flag.IntVar(&cfg.IndexerPort, "indexer-port", 3012, "indexer port")
	flag.StringVar(&cfg.DataDir, "data-dir", "", "where the registry keeps tokens.json and icons, the faucet faucet.db and the indexer indexer.db (default: a temporary folder removed at exit)")
	flag.StringVar(&cfg.ManifestPath, "out", "devnet.json", "where to write the chain's manifest (\"\" for nowhere)")
	flag.DurationVar(&cfg.BlockTime, "block-time", 0, "dev chain block time, e.g. 2s (default: a block as soon as a transaction arrives)")
	flag.StringVar(&cfg.KeysDir, "keys", "", "a keys directory from cmd/ceremony finalize: deploy the verifier from its verification_key.json and verify with it in the relayer (default: the dev keys)")
	flag.Uint64Var(&cfg.FaucetPowWork, "faucet-pow-work", 0, "the faucet's proof of work: expected hashes per claim (FAUCET_POW_WORK; default: the environment's, off unless set)")
	flag.Parse()
	env := config.NewEnv(os.Getenv)
	level := env.LogLevel()
	cfg.Logger = func(service string) *slog.Logger { return edge.NewLogger(os.Stderr, level, service) }
	edge.Main("devstack", level, env.Err(), func(ctx context.Context, _ trace.TracerProvider) error {
		// Each service its own tracer provider, named after it (OTEL_SERVICE_NAME would name all
		// four alike: it is left to the services run on their own).
		getenv := func(k string) string {
			if k == "OTEL_SERVICE_NAME" {
				return ""
			}
			return os.Getenv(k)
		}
		var providers []edge.TracerProvider
		defer func() {
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for _, tp := range providers {
				_ = tp.Shutdown(shutdown)
			}
		}()
		for _, s := range []string{"registry", "relayer", "faucet", "indexer"} {
			tp, err := edge.NewTracerProvider(ctx, s, getenv)
			if err != nil {
				return err
			}
			providers = append(providers, tp)
		}
		cfg.Traces = func(service string) trace.TracerProvider {
			for i, s := range []string{"registry", "relayer", "faucet", "indexer"} {
				if s == service {
					return providers[i]
				}
			}
			return nil
		}
		return devstack.Run(ctx, cfg)
	})
}
