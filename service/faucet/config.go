package faucet

import (
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"math/big"
	"runtime"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge/wallet"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// DefaultPort is the faucet's port.
const DefaultPort = 3011

// DefaultPowWork is FAUCET_POW_WORK unless set: a phone solves in about 3 s at no demand, 51 s at
// the total limit (docs/faucet.md has the measurements).
const DefaultPowWork = 32

// Config is the faucet's configuration, split by concern.
type Config struct {
	wallet.ServiceConfig // the listener, the operator's routes, webhooks, the chain
	Wallet               WalletConfig
	Tx                   txmgr.Config
	Limits               LimitsConfig
	Pow                  PowConfig
	Gates                GatesConfig // the optional gates: another chain's activity, a captcha
	DatabaseURL          string      // sqlite:PATH
}

// PowConfig is the proof of work a claim carries (package pow); Work 0 asks none.
type PowConfig struct {
	Work      uint64        // expected hashes per solution at no demand (16 times as many at the total limit)
	MemoryKiB uint32        // argon2id's memory per hash
	TTL       time.Duration // how long a challenge may be solved
	// Checks is how many solutions are checked at once (each one argon2id hash of MemoryKiB):
	// what bounds the memory and the cores a flood of claims can take (FAUCET_POW_CHECKS, the
	// cores by default).
	Checks int
	// Secret is the key challenges are signed with, shared by the replicas (FAUCET_POW_SECRET,
	// at least 32 bytes as hex); a faucet alone makes one at each start. Never logged.
	Secret []byte
}

// WalletConfig is the wallet the faucet pays from, and what one claim sends.
type WalletConfig struct {
	Key *ecdsa.PrivateKey // never logged or returned
	// KMSKeyID, instead of Key, is a secp256k1 key in AWS KMS that signs every payment
	// (FAUCET_KMS_KEY_ID): the key never enters the process. KMSTimeout bounds each call to KMS.
	KMSKeyID    string
	KMSTimeout  time.Duration
	Amount      *big.Int // wei per claim
	MinAmount   *big.Int // wei per claim at least, as the spend budget runs out (outflow.go)
	MinBalance  *big.Int // wei
	BalancePoll time.Duration
	SpendLimit  gate.Budget // what the wallet may spend per window
}

// LimitsConfig are the faucet's rate limits, and where they are counted (ratelimit.Store).
type LimitsConfig struct {
	ratelimit.ClientLimit                // POST /api/faucet/claim, per client IP
	ratelimit.Store                      // the Redis the replicas share: limits, the spend limit
	Total                 ratelimit.Rate // POST /api/faucet/claim
	ChallengePerIP        ratelimit.Rate // GET /api/faucet/challenge, per client IP
	// WipeQuiet is how long claims are refused once the Redis is found to have lost what it
	// held (restarted empty): its windows and budget started again from nothing.
	WipeQuiet time.Duration
}

// LoadConfig reads the faucet's environment (docs/faucet.md lists it) and reports every problem at
// once. A bad key is reported without its value.
func LoadConfig(getenv func(string) string) (Config, error) {
	e, shared, fileErr := wallet.LoadEnv(getenv, DefaultPort)
	c := Config{
		ServiceConfig: shared,
		Wallet: WalletConfig{
			Key:         chain.EnvWalletKey(e, "FAUCET"),
			KMSKeyID:    kmssigner.EnvKeyID(e, "FAUCET"),
			KMSTimeout:  kmssigner.EnvTimeout(e),
			Amount:      chain.EnvEther(e, "FAUCET_AMOUNT", "100"),
			MinBalance:  chain.EnvEther(e, "MIN_FAUCET_BALANCE", "1000"),
			BalancePoll: e.Duration("BALANCE_POLL_INTERVAL", 10*time.Second),
			SpendLimit:  gate.EnvBudget(e, "FAUCET_SPEND_LIMIT", "off"),
		},
		Tx: txmgr.LoadConfig(e),
		Limits: LimitsConfig{
			ClientLimit:    ratelimit.ClientLimitFromEnv(e, "5/1h"),
			Store:          ratelimit.StoreFromEnv(e),
			Total:          ratelimit.FromEnv(e, "RATE_LIMIT_TOTAL", "1000/1h"),
			ChallengePerIP: ratelimit.FromEnv(e, "RATE_LIMIT_CHALLENGE_PER_IP", "30/1h"),
			WipeQuiet:      e.Duration("REDIS_WIPE_QUIET", 10*time.Second),
		},
		Pow: PowConfig{
			Work:      uint64(e.Int("FAUCET_POW_WORK", DefaultPowWork, 0, 1<<40)),
			MemoryKiB: uint32(e.Int("FAUCET_POW_MEMORY_KIB", 8*1024, 64, 1<<20)),
			TTL:       e.Duration("FAUCET_POW_TTL", 10*time.Minute),
			Checks:    int(e.Int("FAUCET_POW_CHECKS", int64(runtime.GOMAXPROCS(0)), 1, 1024)),
		},
		Gates:       loadGates(e),
		DatabaseURL: e.String("DATABASE_URL", "sqlite:faucet.db"),
	}
	if c.Wallet.Key != nil && c.Wallet.KMSKeyID != "" {
		e.Fail("set FAUCET_KMS_KEY_ID or a key in the process (FAUCET_PRIVATE_KEY, FAUCET_KEYSTORE_FILE), not both")
	}
	c.Wallet.MinAmount = chain.EnvEther(e, "FAUCET_MIN_AMOUNT", "0")
	if c.Wallet.Amount != nil && c.Wallet.MinAmount != nil && e.String("FAUCET_MIN_AMOUNT", "") == "" { // unset: a tenth
		c.Wallet.MinAmount = max1(new(big.Int).Quo(c.Wallet.Amount, big.NewInt(10)))
	}
	if secret := e.OptionalSecret("FAUCET_POW_SECRET"); secret != "" {
		b, err := hex.DecodeString(strings.TrimPrefix(secret, "0x"))
		if err != nil || len(b) < 32 {
			e.Fail("FAUCET_POW_SECRET must be at least 32 bytes as hex")
		}
		c.Pow.Secret = b
	}
	return c, errors.Join(fileErr, e.Err(), c.Validate())
}

// Validate checks the whole configuration and joins every problem.
func (c Config) Validate() error {
	errs := []error{c.Chain.Validate(), c.Gates.Validate()}
	if c.Wallet.Key == nil && c.Wallet.KMSKeyID == "" {
		errs = append(errs, errors.New("FAUCET_PRIVATE_KEY (or FAUCET_PRIVATE_KEY_FILE, or FAUCET_KEYSTORE_FILE, or FAUCET_KMS_KEY_ID) is required"))
	}
	if c.Wallet.Amount != nil && c.Wallet.Amount.Sign() == 0 {
		errs = append(errs, errors.New("FAUCET_AMOUNT must be more than 0"))
	}
	if c.Wallet.Amount != nil && c.Wallet.MinAmount != nil && (c.Wallet.MinAmount.Sign() == 0 || c.Wallet.MinAmount.Cmp(c.Wallet.Amount) > 0) {
		errs = append(errs, errors.New("FAUCET_MIN_AMOUNT must be more than 0 and at most FAUCET_AMOUNT"))
	}
	if c.Wallet.Amount == nil || c.Wallet.MinBalance == nil {
		errs = append(errs, errors.New("FAUCET_AMOUNT and MIN_FAUCET_BALANCE are required"))
	}
	if err := sqldb.Check(c.DatabaseURL); err != nil {
		errs = append(errs, err)
	}
	if err := c.Limits.Store.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Pow.Work > 0 && c.Pow.Secret == nil && (c.Limits.RedisURL != "" || sqldb.IsPostgres(c.DatabaseURL)) {
		errs = append(errs, errors.New("FAUCET_POW_SECRET is required with FAUCET_POW_WORK when replicas share REDIS_URL or DATABASE_URL: a challenge one issues, another checks"))
	}
	if c.Pow.Work > 0 && c.Pow.TTL < time.Minute {
		errs = append(errs, errors.New("FAUCET_POW_TTL must be at least 1m: a phone needs time to solve"))
	}
	return errors.Join(errs...)
}

// max1 is n, or 1 when n is less.
func max1(n *big.Int) *big.Int {
	if n.Sign() <= 0 {
		return big.NewInt(1)
	}
	return n
}
