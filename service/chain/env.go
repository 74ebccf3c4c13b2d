package chain

import (
	"crypto/ecdsa"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/platform"
)

// EnvAddress reads a required, EIP-55-checked, non-zero address; the zero value when unset.
func EnvAddress(e *platform.Env, name string) common.Address {
	s := e.String(name, "")
	if s == "" {
		return common.Address{}
	}
	a, err := ParseChecksummedAddress(s)
	if err != nil || a == (common.Address{}) {
		e.Fail("%s is not a valid address: %q", name, s)
	}
	return a
}

// EnvPrivateKey reads a private key (64 hex digits, 0x optional) from name or the file name_FILE
// names; nil when neither is set. Messages never include the key.
func EnvPrivateKey(e *platform.Env, name string) *ecdsa.PrivateKey {
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

// EnvEther reads whole native tokens, decimals allowed ("100", "0.5"), as wei.
func EnvEther(e *platform.Env, name, def string) *big.Int { return scaled(e, name, def, 18) }

// EnvGwei reads gwei, decimals allowed, as wei.
func EnvGwei(e *platform.Env, name, def string) *big.Int { return scaled(e, name, def, 9) }

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
