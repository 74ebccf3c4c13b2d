package relayer

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
)

// DefaultPort is the relayer's port.
const DefaultPort = 3010

// Config is the relayer's configuration, split by concern.
type Config struct {
	wallet.ServiceConfig // the listener, the operator's routes, webhooks, the chain
	Operator             OperatorConfig
	Contracts            ContractsConfig
	Tx                   TxConfig
	Limits               LimitsConfig
	Fees                 funding.Config // who pays for reveals: the treasury, fees on quotes
	// VerificationKeyFile, when set, is a snarkjs verification_key.json: proofs are verified
	// off-chain before anything is simulated.
	VerificationKeyFile string
	// DatabaseURL is where the relayer records what it signs (sent.go): sqlite:PATH, or
	// postgres://… shared by replicas.
	DatabaseURL string
}

// OperatorConfig is the wallet that pays for reveals: one key (Key, or KMSKeyID in AWS KMS), or
// a set of keys (Keys, or KMSKeyIDs) shared by the replicas through Redis, each replica leasing
// one of them at a time (keys.go). One of the four ways is set.
type OperatorConfig struct {
	Key         *ecdsa.PrivateKey   // never logged or returned
	Keys        []*ecdsa.PrivateKey // never logged or returned
	KMSKeyID    string              // a secp256k1 key in AWS KMS (OPERATOR_KMS_KEY_ID): it never enters the process
	KMSKeyIDs   []string            // the replicas' keys in AWS KMS (OPERATOR_KMS_KEY_IDS)
	KMSTimeout  time.Duration       // bounds each call to KMS (KMS_TIMEOUT)
	LeaseTTL    time.Duration       // how long a replica's lease of a key outlives its last renewal
	MinBalance  *big.Int            // wei
	BalancePoll time.Duration
	SpendLimit  gate.Budget // what the wallet may spend per window
}

// ContractsConfig are the vault's contracts.
type ContractsConfig struct {
	Vault, NullifierRegistry, CommitmentTree common.Address
	// Tokens are the vault's tokens the relayer knows (VAULT_TOKENS, or DEPLOYMENT_FILE's tokens):
	// refused as a reveal's recipient, as the vault and the reveal's own token are.
	Tokens []common.Address
}

// TxConfig governs submission: how long a request waits for its transaction, and the
// transaction manager's settings.
type TxConfig struct {
	ReceiptTimeout time.Duration
	txmgr.Config
}

// Rate is "N per window".
type Rate = ratelimit.Rate

// LimitsConfig are the relayer's rate limits, and where they are counted (ratelimit.Store).
type LimitsConfig struct {
	ratelimit.ClientLimit      // POST /reveal, per client IP
	ratelimit.Store            // the Redis the replicas share: limits, holds, the keys' leases
	PerRecipient, Total   Rate // POST /reveal
	StatusPerIP           Rate // GET /reveal/{nullifier}, per client IP: a poll, its own limit
	QuotePerIP            Rate // POST /quote, per client IP
	PerSponsor            Rate // POST /reveal and GET /sponsor with a sponsor's key, per sponsor (instead of per IP)
	// HoldTTL is how long a nullifier's hold lasts in Redis, unrefreshed, before its
	// transaction is recorded (its replica refreshes it while the reveal waits).
	HoldTTL time.Duration
}

// LoadConfig reads the relayer's environment (docs/relayer.md lists it) and reports every problem at
// once. A bad key is reported without its value.
func LoadConfig(getenv func(string) string) (Config, error) {
	e, shared, fileErr := wallet.LoadEnv(getenv, DefaultPort)
	c := Config{
		ServiceConfig: shared,
		Operator: OperatorConfig{
			Key:         chain.EnvWalletKey(e, "OPERATOR"),
			Keys:        chain.EnvWalletKeys(e, "OPERATOR"),
			KMSKeyID:    kmssigner.EnvKeyID(e, "OPERATOR"),
			KMSKeyIDs:   kmssigner.EnvKeyIDs(e, "OPERATOR"),
			KMSTimeout:  kmssigner.EnvTimeout(e),
			LeaseTTL:    e.Duration("OPERATOR_LEASE_TTL", 10*time.Second),
			MinBalance:  chain.EnvEther(e, "MIN_OPERATOR_BALANCE", "100"),
			BalancePoll: e.Duration("BALANCE_POLL_INTERVAL", 10*time.Second),
			SpendLimit:  gate.EnvBudget(e, "OPERATOR_SPEND_LIMIT", "10/1h"),
		},
		Contracts: ContractsConfig{
			Vault:             chain.EnvAddress(e, "COMMIT_REVEAL_VAULT_ADDRESS"),
			NullifierRegistry: chain.EnvAddress(e, "NULLIFIER_REGISTRY_ADDRESS"),
			CommitmentTree:    chain.EnvAddress(e, "COMMITMENT_TREE_ADDRESS"),
			Tokens:            envAddresses(e, "VAULT_TOKENS"),
		},
		Tx: TxConfig{
			ReceiptTimeout: e.Duration("RECEIPT_TIMEOUT", 2*time.Minute),
			Config:         txmgr.LoadConfig(e),
		},
		Limits: LimitsConfig{
			ClientLimit:  ratelimit.ClientLimitFromEnv(e, "5/1m"),
			Store:        ratelimit.StoreFromEnv(e),
			PerRecipient: ratelimit.FromEnv(e, "RATE_LIMIT_PER_RECIPIENT", "10/1h"),
			Total:        ratelimit.FromEnv(e, "RATE_LIMIT_TOTAL", "60/1m"),
			StatusPerIP:  ratelimit.FromEnv(e, "RATE_LIMIT_STATUS_PER_IP", "120/1m"),
			QuotePerIP:   ratelimit.FromEnv(e, "RATE_LIMIT_QUOTE_PER_IP", "60/1m"),
			PerSponsor:   ratelimit.FromEnv(e, "RATE_LIMIT_PER_SPONSOR", "60/1m"),
			// NULLIFIER_CLAIM_TTL is this setting's former name, still read where the new one is unset.
			HoldTTL: e.Duration("NULLIFIER_HOLD_TTL", e.Duration("NULLIFIER_CLAIM_TTL", time.Minute)),
		},
		VerificationKeyFile: e.String("VERIFICATION_KEY_FILE", ""),
		DatabaseURL:         e.String("DATABASE_URL", "sqlite:relayer.db"),
	}
	operator := c.Operator.Key
	if operator == nil && len(c.Operator.Keys) > 0 {
		operator = c.Operator.Keys[0]
	}
	c.Fees = funding.Load(e, operator) // a key in KMS signs no quote: fees need RELAYER_QUOTE_PRIVATE_KEY
	return c, errors.Join(fileErr, e.Err(), c.Validate())
}

// Validate checks the whole configuration and joins every problem.
func (c Config) Validate() error {
	errs := []error{c.Chain.Validate(), c.Fees.Validate(), c.Limits.Store.Validate()}
	switch ways := c.Operator.ways(); {
	case len(ways) == 0:
		errs = append(errs, errors.New("OPERATOR_PRIVATE_KEY (or OPERATOR_PRIVATE_KEY_FILE, or OPERATOR_KEYSTORE_FILE, or OPERATOR_KMS_KEY_ID) is required, or OPERATOR_PRIVATE_KEYS_FILE (or OPERATOR_KEYSTORE_DIR, or OPERATOR_KMS_KEY_IDS) for replicas"))
	case len(ways) == 2:
		errs = append(errs, fmt.Errorf("set one way of giving the operator key, not both %s and %s", ways[0], ways[1]))
	case len(ways) > 2:
		errs = append(errs, fmt.Errorf("set one way of giving the operator key, not all of %s", strings.Join(ways, ", ")))
	case c.Operator.Replicas() && c.Limits.RedisURL == "":
		errs = append(errs, fmt.Errorf("%s needs REDIS_URL: the replicas lease the keys through it", ways[0]))
	case c.Operator.Replicas() && c.Operator.LeaseTTL < time.Second:
		errs = append(errs, errors.New("OPERATOR_LEASE_TTL must be at least 1s"))
	}
	if c.Fees.Fees && c.Operator.Key == nil && len(c.Operator.Keys) == 0 && (c.Fees.QuoteKey == nil || c.Fees.Receiver == (common.Address{})) {
		errs = append(errs, errors.New("RELAYER_FUNDING includes fee and the operator key is in KMS: set RELAYER_QUOTE_PRIVATE_KEY (quotes are signed in the process) and RELAYER_FEE_RECEIVER"))
	}
	if c.Operator.MinBalance == nil {
		errs = append(errs, errors.New("MIN_OPERATOR_BALANCE is required"))
	}
	for name, a := range map[string]common.Address{"COMMIT_REVEAL_VAULT_ADDRESS": c.Contracts.Vault,
		"NULLIFIER_REGISTRY_ADDRESS": c.Contracts.NullifierRegistry, "COMMITMENT_TREE_ADDRESS": c.Contracts.CommitmentTree} {
		if a == (common.Address{}) {
			errs = append(errs, fmt.Errorf("%s is required", name))
		}
	}
	if c.Tx.ReplaceAfter >= c.Tx.ReceiptTimeout {
		errs = append(errs, errors.New("REPLACE_AFTER must be shorter than RECEIPT_TIMEOUT"))
	}
	if err := sqldb.Check(c.DatabaseURL); err != nil {
		errs = append(errs, err)
	}
	if c.Limits.HoldTTL < 300*time.Millisecond {
		errs = append(errs, errors.New("NULLIFIER_HOLD_TTL must be at least 300ms"))
	}
	if c.VerificationKeyFile != "" {
		if _, err := os.Stat(c.VerificationKeyFile); err != nil {
			errs = append(errs, fmt.Errorf("VERIFICATION_KEY_FILE: %w", err))
		}
	}
	return errors.Join(errs...)
}

// ways names the ways of giving the operator key that are set (one is right).
func (o OperatorConfig) ways() []string {
	var ways []string
	for _, w := range []struct {
		set  bool
		name string
	}{{o.Key != nil, "OPERATOR_PRIVATE_KEY (or OPERATOR_KEYSTORE_FILE)"}, {len(o.Keys) > 0, "OPERATOR_PRIVATE_KEYS (or OPERATOR_KEYSTORE_DIR)"},
		{o.KMSKeyID != "", "OPERATOR_KMS_KEY_ID"}, {len(o.KMSKeyIDs) > 0, "OPERATOR_KMS_KEY_IDS"}} {
		if w.set {
			ways = append(ways, w.name)
		}
	}
	return ways
}

// Replicas reports whether the operator is a set of keys the replicas lease one of.
func (o OperatorConfig) Replicas() bool { return len(o.Keys) > 0 || len(o.KMSKeyIDs) > 0 }

// envAddresses reads a comma-separated list of addresses; a bad one is reported by its position.
func envAddresses(e *config.Env, name string) []common.Address {
	var out []common.Address
	for i, s := range strings.Split(e.String(name, ""), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := address.ParseNonZero(s)
		if err != nil {
			e.Fail("%s: entry %d is not a valid address: %q", name, i+1, s)
			continue
		}
		out = append(out, a)
	}
	return out
}
