// Package devnet is devnet.json, the file a dev chain (cmd/devnet, cmd/devstack) writes: how to
// reach the chain, what is deployed, and the dev accounts. It is read by tools that only talk to
// such a chain (cmd/card, the tests), so it links nothing of the chain itself.
package devnet

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Manifest is devnet.json: how to reach the dev chain, what is deployed, and the dev accounts
// with their (public, dev-only) private keys.
type Manifest struct {
	RPCURL  string `json:"rpcUrl"`
	ChainID uint64 `json:"chainId"`
	// StartBlock is the block of the first deployment: where an indexer starts (START_BLOCK).
	StartBlock uint64            `json:"startBlock"`
	Contracts  map[string]string `json:"contracts"`
	Tokens     []Token           `json:"tokens"`
	Accounts   Accounts          `json:"accounts"`
}

// Token is a deployed token.
type Token struct {
	Address  string `json:"address"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

// Account is a dev account.
type Account struct {
	Address    string `json:"address"`
	PrivateKey string `json:"privateKey"`
}

// Accounts are the dev accounts by role.
type Accounts struct {
	Deployer Account   `json:"deployer"`
	Operator Account   `json:"operator"`
	Faucet   Account   `json:"faucet"`
	Users    []Account `json:"users"`
	// SpareOperators and SpareFaucets are operator1…, faucet1… (devnet --spare-operators,
	// --spare-faucets).
	SpareOperators []Account `json:"spareOperators,omitempty"`
	SpareFaucets   []Account `json:"spareFaucets,omitempty"`
}

// Read reads a devnet.json.
func Read(path string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

// Account returns the key of a dev account by role ("deployer", "operator", "faucet") or name
// ("user0", "user1", …; "operator1", "faucet1", … when spares were asked for).
func (m Manifest) Account(name string) (*ecdsa.PrivateKey, error) {
	var a *Account
	switch name {
	case "deployer":
		a = &m.Accounts.Deployer
	case "operator":
		a = &m.Accounts.Operator
	case "faucet":
		a = &m.Accounts.Faucet
	default:
		for prefix, list := range map[string][]Account{"user": m.Accounts.Users, "operator": m.Accounts.SpareOperators, "faucet": m.Accounts.SpareFaucets} {
			first := 0
			if prefix != "user" {
				first = 1 // operator1 is the first spare
			}
			for i := range list {
				if name == prefix+strconv.Itoa(first+i) {
					a = &list[i]
				}
			}
		}
	}
	if a == nil {
		return nil, fmt.Errorf("no dev account %q (deployer, operator, faucet, user0…user%d, and operator1…, faucet1… for each spare)", name, len(m.Accounts.Users)-1)
	}
	return crypto.HexToECDSA(strings.TrimPrefix(a.PrivateKey, "0x"))
}

// Address returns a contract's address from the manifest.
func (m Manifest) Address(contract string) (common.Address, error) {
	s, ok := m.Contracts[contract]
	if !ok || !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("the manifest has no %s address", contract)
	}
	return common.HexToAddress(s), nil
}
