package devchain

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// Manifest is devnet.json: how to reach the dev chain, what is deployed, and the dev accounts
// with their (public, dev-only) private keys.
type Manifest struct {
	RPCURL  string `json:"rpcUrl"`
	ChainID uint64 `json:"chainId"`
	// StartBlock is the block of the first deployment: where an indexer starts (START_BLOCK).
	StartBlock uint64            `json:"startBlock"`
	Contracts  map[string]string `json:"contracts"`
	Tokens     []ManifestToken   `json:"tokens"`
	Accounts   ManifestAccounts  `json:"accounts"`
}

// ManifestToken is a deployed token.
type ManifestToken struct {
	Address  string `json:"address"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

// ManifestAccount is a dev account.
type ManifestAccount struct {
	Address    string `json:"address"`
	PrivateKey string `json:"privateKey"`
}

// ManifestAccounts are the dev accounts by role.
type ManifestAccounts struct {
	Deployer ManifestAccount   `json:"deployer"`
	Operator ManifestAccount   `json:"operator"`
	Faucet   ManifestAccount   `json:"faucet"`
	Users    []ManifestAccount `json:"users"`
	// SpareOperators and SpareFaucets are operator1…, faucet1… (devnet --spare-operators,
	// --spare-faucets).
	SpareOperators []ManifestAccount `json:"spareOperators,omitempty"`
	SpareFaucets   []ManifestAccount `json:"spareFaucets,omitempty"`
}

// Manifest describes the running chain.
func (c *Chain) Manifest() Manifest {
	m := Manifest{
		RPCURL:     c.RPCURL,
		ChainID:    c.ChainID,
		StartBlock: c.StartBlock,
		Contracts: map[string]string{
			"tokenFactory":      c.Contracts.TokenFactory.Hex(),
			"vault":             c.Contracts.Vault.Hex(),
			"commitmentTree":    c.Contracts.CommitmentTree.Hex(),
			"nullifierRegistry": c.Contracts.NullifierRegistry.Hex(),
			"verifier":          c.Contracts.Verifier.Hex(),
		},
		Tokens: []ManifestToken{},
		Accounts: ManifestAccounts{
			Deployer: manifestAccount(c.Accounts.Deployer),
			Operator: manifestAccount(c.Accounts.Operator),
			Faucet:   manifestAccount(c.Accounts.Faucet),
		},
	}
	for _, t := range c.Tokens {
		m.Tokens = append(m.Tokens, ManifestToken{Address: t.Address.Hex(), Name: t.Name, Symbol: t.Symbol, Decimals: t.Decimals})
	}
	for _, u := range c.Accounts.Users {
		m.Accounts.Users = append(m.Accounts.Users, manifestAccount(u))
	}
	for _, o := range c.Accounts.SpareOperators {
		m.Accounts.SpareOperators = append(m.Accounts.SpareOperators, manifestAccount(o))
	}
	for _, f := range c.Accounts.SpareFaucets {
		m.Accounts.SpareFaucets = append(m.Accounts.SpareFaucets, manifestAccount(f))
	}
	return m
}

func manifestAccount(a Account) ManifestAccount {
	return ManifestAccount{Address: a.Address.Hex(), PrivateKey: hexutil.Encode(crypto.FromECDSA(a.Key))}
}

// WriteManifest writes the manifest to path (replacing it whole).
func (c *Chain) WriteManifest(path string) error {
	data, err := json.MarshalIndent(c.Manifest(), "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}

// ReadManifest reads a devnet.json.
func ReadManifest(path string) (Manifest, error) {
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
	var a *ManifestAccount
	switch name {
	case "deployer":
		a = &m.Accounts.Deployer
	case "operator":
		a = &m.Accounts.Operator
	case "faucet":
		a = &m.Accounts.Faucet
	default:
		for prefix, list := range map[string][]ManifestAccount{"user": m.Accounts.Users, "operator": m.Accounts.SpareOperators, "faucet": m.Accounts.SpareFaucets} {
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
