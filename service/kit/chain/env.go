package chain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// EnvAddress reads a required, EIP-55-checked, non-zero address; the zero value when unset.
func EnvAddress(e *config.Env, name string) common.Address {
	s := e.String(name, "")
	if s == "" {
		return common.Address{}
	}
	a, err := address.ParseNonZero(s)
	if err != nil {
		e.Fail("%s is not a valid address: %q", name, s)
	}
	return a
}

// EnvPrivateKey reads a private key (64 hex digits, 0x optional) from name or the file name_FILE
// names; nil when neither is set. Messages never include the key.
func EnvPrivateKey(e *config.Env, name string) *ecdsa.PrivateKey {
	s := strings.TrimPrefix(e.OptionalSecret(name), "0x")
	if s == "" {
		return nil
	}
	k, err := crypto.HexToECDSA(s)
	if err != nil {
		e.Fail("%s is not a valid private key (64 hex digits, 0x optional)", name)
		return nil
	}
	return k
}

// EnvWalletKey reads a wallet's private key, one of two ways: PREFIX_PRIVATE_KEY (or the file
// PREFIX_PRIVATE_KEY_FILE names), or an encrypted JSON keystore (go-ethereum's, version 3: what
// geth account new, clef and most wallets export) in the file PREFIX_KEYSTORE_FILE names,
// decrypted with the password in PREFIX_KEYSTORE_PASSWORD or the file
// PREFIX_KEYSTORE_PASSWORD_FILE names; nil when neither is set. Both ways at once are refused.
// Messages never include the key, the password or the keystore's content.
func EnvWalletKey(e *config.Env, prefix string) *ecdsa.PrivateKey {
	plain := EnvPrivateKey(e, prefix+"_PRIVATE_KEY")
	file := e.String(prefix+"_KEYSTORE_FILE", "")
	if file == "" {
		if e.String(prefix+"_KEYSTORE_DIR", "") == "" && e.OptionalSecret(prefix+"_KEYSTORE_PASSWORD") != "" {
			e.Fail("%s_KEYSTORE_PASSWORD is set without %s_KEYSTORE_FILE or %s_KEYSTORE_DIR", prefix, prefix, prefix)
		}
		return plain
	}
	if plain != nil {
		e.Fail("set %s_PRIVATE_KEY or %s_KEYSTORE_FILE, not both", prefix, prefix)
		return nil
	}
	password := e.Secret(prefix + "_KEYSTORE_PASSWORD")
	if password == "" {
		return nil
	}
	return openKeystore(e, prefix, prefix+"_KEYSTORE_FILE", file, password)
}

// EnvWalletKeys reads several wallets' keys (a relayer's replicas lease one each), one of two
// ways: PREFIX_PRIVATE_KEYS (or its _FILE), as EnvPrivateKeys reads them, or every file of the
// directory PREFIX_KEYSTORE_DIR names (a geth keystore directory: one version 3 JSON keystore per
// key; names starting with a dot are skipped), all opened with the one password of
// PREFIX_KEYSTORE_PASSWORD(_FILE). nil when neither is set; both at once are refused. A key that
// does not open is reported by its file's name, a repeated key by the two files' names.
func EnvWalletKeys(e *config.Env, prefix string) []*ecdsa.PrivateKey {
	plain := EnvPrivateKeys(e, prefix+"_PRIVATE_KEYS")
	dir := e.String(prefix+"_KEYSTORE_DIR", "")
	if dir == "" {
		return plain
	}
	if plain != nil {
		e.Fail("set %s_PRIVATE_KEYS or %s_KEYSTORE_DIR, not both", prefix, prefix)
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		e.Fail("%s_KEYSTORE_DIR: %v", prefix, err)
		return nil
	}
	password := e.Secret(prefix + "_KEYSTORE_PASSWORD")
	if password == "" {
		return nil
	}
	var keys []*ecdsa.PrivateKey
	from := map[common.Address]string{}
	files := 0
	for _, f := range entries {
		if f.IsDir() || strings.HasPrefix(f.Name(), ".") {
			continue
		}
		files++
		k := openKeystore(e, prefix, prefix+"_KEYSTORE_DIR", filepath.Join(dir, f.Name()), password)
		if k == nil {
			continue
		}
		a := crypto.PubkeyToAddress(k.PublicKey)
		if earlier, ok := from[a]; ok {
			e.Fail("%s_KEYSTORE_DIR: %s holds the same key as %s", prefix, f.Name(), earlier)
			continue
		}
		from[a] = f.Name()
		keys = append(keys, k)
	}
	if files == 0 {
		e.Fail("%s_KEYSTORE_DIR: %s holds no keystore", prefix, dir)
	}
	return keys
}

// openKeystore decrypts the keystore file at path, which the variable name gave; a failure is
// reported by the file's name, never its content or the password.
func openKeystore(e *config.Env, prefix, name, path, password string) *ecdsa.PrivateKey {
	data, err := os.ReadFile(path)
	if err != nil {
		e.Fail("%s: %v", name, err)
		return nil
	}
	key, err := keystore.DecryptKey(data, password)
	if err != nil {
		e.Fail("%s: %s does not open with %s_KEYSTORE_PASSWORD (a wrong password, or not a version 3 keystore)", name, path, prefix)
		return nil
	}
	return key.PrivateKey
}

// ReadPrivateKeyFile reads a private key (64 hex digits, 0x optional, surrounding space ignored)
// from the file at path: a command's --*-key-file. The error names the file, never its content.
func ReadPrivateKeyFile(path string) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(data)), "0x"))
	if err != nil {
		return nil, fmt.Errorf("%s: not a private key (64 hex digits, 0x optional)", path)
	}
	return k, nil
}

// EnvPrivateKeys reads several private keys from name or the file name_FILE names: one per line
// (or separated by commas or spaces), lines starting with # ignored; nil when neither is set. A
// bad or repeated key is reported by its position, never its value.
func EnvPrivateKeys(e *config.Env, name string) []*ecdsa.PrivateKey {
	var keys []*ecdsa.PrivateKey
	seen := map[common.Address]bool{}
	n := 0
	for _, line := range strings.Split(e.OptionalSecret(name), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, s := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
			n++
			k, err := crypto.HexToECDSA(strings.TrimPrefix(s, "0x"))
			switch {
			case err != nil:
				e.Fail("%s: key %d is not a valid private key (64 hex digits, 0x optional)", name, n)
				continue
			case seen[crypto.PubkeyToAddress(k.PublicKey)]:
				e.Fail("%s: key %d repeats an earlier key", name, n)
				continue
			}
			seen[crypto.PubkeyToAddress(k.PublicKey)] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// EnvEther reads whole native tokens, decimals allowed ("100", "0.5"), as wei.
func EnvEther(e *config.Env, name, def string) *big.Int { return scaled(e, name, def, 18) }

// EnvGwei reads gwei, decimals allowed, as wei.
func EnvGwei(e *config.Env, name, def string) *big.Int { return scaled(e, name, def, 9) }

func scaled(e *config.Env, name, def string, decimals int) *big.Int {
	s := e.String(name, def)
	v, err := ParseUnits(s, decimals)
	if err != nil {
		e.Fail("%s %v, got %q", name, err, s)
		return nil
	}
	return v
}

// ParseUnits reads a non-negative decimal number of a unit with the given decimals ("0.5" ether
// is ParseUnits("0.5", 18)) as an integer of its smallest part.
func ParseUnits(s string, decimals int) (*big.Int, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() < 0 || strings.ContainsAny(s, "eE/") {
		return nil, errors.New("must be a non-negative decimal number")
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	if !r.IsInt() {
		return nil, errors.New("has more decimals than the unit allows")
	}
	return new(big.Int).Set(r.Num()), nil
}

// Config says how to reach the chain; every service has one.
type Config struct {
	RPCURL     string
	ChainID    uint64 // 0: take the chain's answer
	RPCTimeout time.Duration
}

// LoadConfig reads RPC_URL, CHAIN_ID and RPC_TIMEOUT (default 5s).
func LoadConfig(e *config.Env) Config {
	return Config{
		RPCURL:     e.String("RPC_URL", ""),
		ChainID:    e.Uint("CHAIN_ID"),
		RPCTimeout: e.Duration("RPC_TIMEOUT", 5*time.Second),
	}
}

// Validate checks the chain settings. RPC_URL is one endpoint, or several http(s) endpoints
// separated by commas (the first preferred, then each fallback in order). Errors name an
// endpoint by its position only: its URL may hold an API key.
func (c Config) Validate() error { return ValidateRPCURL("RPC_URL", c.RPCURL) }

// ValidateRPCURL checks a node's URL as Dial takes it (one endpoint, or several http(s) ones
// that fail over to each other), naming setting in its message, never the URL (it may hold a key).
func ValidateRPCURL(setting, rpcURL string) error {
	endpoints := Endpoints(rpcURL)
	if len(endpoints) == 0 {
		return fmt.Errorf("%s is required", setting)
	}
	for i, e := range endpoints {
		u, err := url.Parse(e)
		switch {
		case err != nil || u.Scheme == "":
			return fmt.Errorf("%s: endpoint %d is not a URL such as http://127.0.0.1:8545", setting, i+1)
		case len(endpoints) > 1 && u.Scheme != "http" && u.Scheme != "https":
			return fmt.Errorf("%s: endpoint %d is not http(s); only http(s) endpoints fail over to each other", setting, i+1)
		}
	}
	return nil
}

// Retry runs call until it succeeds, the node answers it (a node's answer is final), or it has
// failed four times a second apart, unless ctx ends first: what a start checks on the chain (its
// id, a contract's constant) rides out a provider's passing fault (a lost answer, a 502 from
// every endpoint) rather than failing the start.
func Retry(ctx context.Context, call func() error) error {
	for attempt := 0; ; attempt++ {
		err := call()
		if err == nil || IsNodeAnswer(err) || attempt == 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), err)
		case <-time.After(time.Second):
		}
	}
}

// Connect dials the chain of cfg, asks its chain id and checks it against CHAIN_ID: a service
// that must not run on another chain calls it at start.
func Connect(ctx context.Context, cfg Config, metrics *Metrics) (*Client, uint64, error) {
	client, err := Dial(cfg.RPCURL, cfg.RPCTimeout, metrics)
	if err != nil {
		return nil, 0, err
	}
	var id uint64
	err = Retry(ctx, func() (err error) {
		id, err = client.ChainID(ctx)
		return err
	})
	if err != nil {
		client.Close()
		return nil, 0, fmt.Errorf("learn the chain id from RPC_URL: %w", err)
	}
	if err := CheckChainID(cfg.ChainID, id); err != nil {
		client.Close()
		return nil, 0, err
	}
	if err := sameChain(ctx, cfg, id); err != nil {
		client.Close()
		return nil, 0, err
	}
	return client, id, nil
}

// sameChain asks each endpoint of several for its chain id: one on another chain is a
// configuration error. One that does not answer now cannot be checked, and is let be.
func sameChain(ctx context.Context, cfg Config, id uint64) error {
	endpoints := Endpoints(cfg.RPCURL)
	if len(endpoints) < 2 {
		return nil
	}
	for i, e := range endpoints {
		c, err := Dial(e, cfg.RPCTimeout, nil)
		if err != nil {
			return err
		}
		other, err := c.ChainID(ctx)
		c.Close()
		if err != nil {
			slog.Warn("could not ask an RPC_URL endpoint for its chain id; it is used as a fallback unchecked", "endpoint", i+1, "err", err)
			continue
		}
		if other != id {
			return fmt.Errorf("RPC_URL: endpoint %d is on chain %d, not %d", i+1, other, id)
		}
	}
	return nil
}
