package relayer

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/chain"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// DefaultPort is the relayer's port.
const DefaultPort = 3010

// Config is the relayer's configuration, split by concern.
type Config struct {
	HTTP      platform.HTTPConfig
	Chain     ChainConfig
	Operator  OperatorConfig
	Contracts ContractsConfig
	Tx        TxConfig
	Limits    LimitsConfig
	// VerificationKeyFile, when set, is a snarkjs verification_key.json: proofs are verified
	// off-chain before anything is simulated.
	VerificationKeyFile string
}

// ChainConfig says how to reach the chain.
type ChainConfig struct {
	RPCURL     string
	ChainID    uint64 // 0: the chain's answer
	RPCTimeout time.Duration
}

// OperatorConfig is the wallet that pays for reveals.
type OperatorConfig struct {
	Key         *ecdsa.PrivateKey // never logged or returned
	MinBalance  *big.Int          // wei
	BalancePoll time.Duration
}

// ContractsConfig are the vault's contracts.
type ContractsConfig struct {
	Vault, NullifierRegistry, CommitmentTree common.Address
}

// TxConfig governs submission.
type TxConfig struct {
	ReceiptTimeout time.Duration
	ReplaceAfter   time.Duration
	MaxFeePerGas   *big.Int // wei
	ReceiptPoll    time.Duration
}

// Rate is "N per window".
type Rate struct {
	N      int
	Window time.Duration
}

func (r Rate) String() string { return fmt.Sprintf("%d per %s", r.N, windowName(r.Window)) }

func windowName(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.String()
}

// LimitsConfig are the three rate limits.
type LimitsConfig struct {
	PerIP, PerRecipient, Total Rate
}

// LoadConfig reads the relayer's environment (README.md lists it) and reports every problem at
// once. A bad key is reported without its value.
func LoadConfig(getenv func(string) string) (Config, error) {
	e := platform.NewEnv(getenv)
	c := Config{
		HTTP: platform.LoadHTTPConfig(e, DefaultPort),
		Chain: ChainConfig{
			RPCURL:     e.String("RPC_URL", ""),
			ChainID:    e.Uint("CHAIN_ID"),
			RPCTimeout: e.Duration("RPC_TIMEOUT", 5*time.Second),
		},
		Operator: OperatorConfig{
			Key:         operatorKey(e, e.OptionalSecret("OPERATOR_PRIVATE_KEY")),
			MinBalance:  ether(e, "MIN_OPERATOR_BALANCE", "100"),
			BalancePoll: e.Duration("BALANCE_POLL_INTERVAL", 10*time.Second),
		},
		Contracts: ContractsConfig{
			Vault:             address(e, "COMMIT_REVEAL_VAULT_ADDRESS"),
			NullifierRegistry: address(e, "NULLIFIER_REGISTRY_ADDRESS"),
			CommitmentTree:    address(e, "COMMITMENT_TREE_ADDRESS"),
		},
		Tx: TxConfig{
			ReceiptTimeout: e.Duration("RECEIPT_TIMEOUT", 2*time.Minute),
			ReplaceAfter:   e.Duration("REPLACE_AFTER", 30*time.Second),
			MaxFeePerGas:   gwei(e, "MAX_FEE_PER_GAS", "500"),
			ReceiptPoll:    e.Duration("RECEIPT_POLL_INTERVAL", 100*time.Millisecond),
		},
		Limits: LimitsConfig{
			PerIP:        rate(e, "RATE_LIMIT_PER_IP", "5/1m"),
			PerRecipient: rate(e, "RATE_LIMIT_PER_RECIPIENT", "10/1h"),
			Total:        rate(e, "RATE_LIMIT_TOTAL", "60/1m"),
		},
		VerificationKeyFile: e.String("VERIFICATION_KEY_FILE", ""),
	}
	return c, errors.Join(e.Err(), c.Validate())
}

// Validate checks the whole configuration and joins every problem.
func (c Config) Validate() error {
	var errs []error
	if c.Chain.RPCURL == "" {
		errs = append(errs, errors.New("RPC_URL is required"))
	}
	if c.Operator.Key == nil {
		errs = append(errs, errors.New("OPERATOR_PRIVATE_KEY (or OPERATOR_PRIVATE_KEY_FILE) is required"))
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
	if c.VerificationKeyFile != "" {
		if _, err := os.Stat(c.VerificationKeyFile); err != nil {
			errs = append(errs, fmt.Errorf("VERIFICATION_KEY_FILE: %w", err))
		}
	}
	return errors.Join(errs...)
}

// operatorKey parses the key; messages never include it.
func operatorKey(e *platform.Env, raw string) *ecdsa.PrivateKey {
	s := strings.TrimPrefix(strings.TrimSpace(raw), "0x")
	if s == "" {
		return nil
	}
	k, err := crypto.HexToECDSA(s)
	if err != nil {
		e.Fail("OPERATOR_PRIVATE_KEY is not a valid private key (64 hex digits, 0x optional)")
		return nil
	}
	return k
}

func address(e *platform.Env, name string) common.Address {
	s := e.String(name, "")
	if s == "" {
		return common.Address{}
	}
	a, err := chain.ParseChecksummedAddress(s)
	if err != nil || a == (common.Address{}) {
		e.Fail("%s is not a valid address: %q", name, s)
	}
	return a
}

// ether reads whole native tokens, decimals allowed ("100", "0.5"), as wei.
func ether(e *platform.Env, name, def string) *big.Int { return scaled(e, name, def, 18) }

// gwei reads gwei, decimals allowed, as wei.
func gwei(e *platform.Env, name, def string) *big.Int { return scaled(e, name, def, 9) }

func scaled(e *platform.Env, name, def string, decimals int) *big.Int {
	s := e.String(name, def)
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() < 0 || strings.ContainsAny(s, "eE/") {
		e.Fail("%s must be a non-negative decimal number, got %q", name, s)
		return nil
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	if !r.IsInt() {
		e.Fail("%s has more decimals than the unit allows: %q", name, s)
		return nil
	}
	return new(big.Int).Set(r.Num())
}

// rate reads "N/window", e.g. "5/1m", "10/1h".
func rate(e *platform.Env, name, def string) Rate {
	s := e.String(name, def)
	n, w, ok := strings.Cut(s, "/")
	count, err1 := strconv.Atoi(strings.TrimSpace(n))
	window, err2 := time.ParseDuration(strings.TrimSpace(w))
	if !ok || err1 != nil || err2 != nil || count < 1 || window <= 0 {
		e.Fail("%s must look like 5/1m (count/window), got %q", name, s)
		return Rate{N: 1, Window: time.Minute}
	}
	return Rate{N: count, Window: window}
}
