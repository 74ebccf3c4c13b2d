package wallet

import (
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// ServiceConfig is the configuration the paying services (the relayer, the faucet) read alike:
// their listener, the operator's routes, where their events are POSTed, and the chain.
type ServiceConfig struct {
	HTTP     edge.HTTPConfig
	Admin    edge.AdminConfig // /admin/*: pause, resume, the wallet, the fleet
	Webhooks webhook.Config   // where the service's and the wallet's events are POSTed
	Chain    chain.Config
}

// LoadEnv reads a paying service's environment, DEPLOYMENT_FILE under what is set (port: the
// service's default PORT): what they share, and the Env the service reads the rest from. A
// DEPLOYMENT_FILE that cannot be read is fileErr, reported with the rest.
func LoadEnv(getenv func(string) string, port int) (e *config.Env, c ServiceConfig, fileErr error) {
	getenv, fileErr = deployment.Env(getenv)
	e = config.NewEnv(getenv)
	return e, ServiceConfig{HTTP: edge.LoadHTTPConfig(e, port), Admin: edge.LoadAdminConfig(e), Webhooks: webhook.LoadConfig(e), Chain: chain.LoadConfig(e)}, fileErr
}
