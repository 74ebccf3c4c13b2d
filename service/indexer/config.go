package indexer

import (
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
)

// DefaultPort is the indexer's port.
const DefaultPort = 3012

// Config is the indexer's configuration, split by concern.
type Config struct {
	HTTP  edge.HTTPConfig
	Chain chain.Config
	// Contracts are the addresses of the indexed contracts by the variable that names them
	// (COMMITMENT_TREE_ADDRESS, …); TOKEN_FACTORY_ADDRESS is optional.
	Contracts     map[string]common.Address
	StartBlock    uint64 // the first block indexed (at least 1: genesis has no transactions)
	Confirmations uint64 // how far behind the head the indexer stays
	PollInterval  time.Duration
	DatabaseURL   string
	Limits        ratelimit.ClientLimit // every request, per client IP
	// StreamsPerIP and MaxStreams cap the streams open at once, per client IP (429) and in
	// all (503).
	StreamsPerIP, MaxStreams int
}

// required are the contracts an indexer must follow.
var required = []string{"COMMITMENT_TREE_ADDRESS", "NULLIFIER_REGISTRY_ADDRESS", "COMMIT_REVEAL_VAULT_ADDRESS"}

// LoadConfig reads the indexer's environment (docs/indexer.md lists it) and reports every problem at
// once.
func LoadConfig(getenv func(string) string) (Config, error) {
	getenv, fileErr := deployment.Env(getenv) // DEPLOYMENT_FILE under what is set
	e := config.NewEnv(getenv)
	c := Config{
		HTTP:          edge.LoadHTTPConfig(e, DefaultPort),
		Chain:         chain.LoadConfig(e),
		Contracts:     map[string]common.Address{},
		StartBlock:    uint64(max(e.Int("START_BLOCK", 1, 0, 1<<62), 1)),
		Confirmations: uint64(e.Int("CONFIRMATIONS", 0, 0, 1000)),
		PollInterval:  e.Duration("POLL_INTERVAL", time.Second),
		DatabaseURL:   e.String("DATABASE_URL", "sqlite:indexer.db"),
		Limits:        ratelimit.ClientLimitFromEnv(e, "600/1m"),
		StreamsPerIP:  int(e.Int("STREAMS_PER_IP", 10, 1, 100_000)),
		MaxStreams:    int(e.Int("MAX_STREAMS", 1000, 1, 1_000_000)),
	}
	for name := range contractABIs {
		if a := chain.EnvAddress(e, name); a != (common.Address{}) {
			c.Contracts[name] = a
		}
	}
	return c, errors.Join(fileErr, e.Err(), c.Validate())
}

// Validate checks the whole configuration and joins every problem.
func (c Config) Validate() error {
	errs := []error{c.Chain.Validate(), sqldb.Check(c.DatabaseURL)}
	for _, name := range required {
		if c.Contracts[name] == (common.Address{}) {
			errs = append(errs, errors.New(name+" is required"))
		}
	}
	if c.StartBlock == 0 {
		errs = append(errs, errors.New("START_BLOCK must be at least 1"))
	}
	return errors.Join(errs...)
}
