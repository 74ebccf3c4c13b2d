package devchain

import (
	"encoding/json"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devnet"
	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// Manifest describes the running chain.
func (c *Chain) Manifest() devnet.Manifest {
	m := devnet.Manifest{
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
		Tokens: []devnet.Token{},
		Accounts: devnet.Accounts{
			Deployer: manifestAccount(c.Accounts.Deployer),
			Operator: manifestAccount(c.Accounts.Operator),
			Faucet:   manifestAccount(c.Accounts.Faucet),
		},
	}
	for _, t := range c.Tokens {
		m.Tokens = append(m.Tokens, devnet.Token{Address: t.Address.Hex(), Name: t.Name, Symbol: t.Symbol, Decimals: t.Decimals})
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

func manifestAccount(a Account) devnet.Account {
	return devnet.Account{Address: a.Address.Hex(), PrivateKey: hexutil.Encode(crypto.FromECDSA(a.Key))}
}

// WriteManifest writes the manifest to path (replacing it whole).
func (c *Chain) WriteManifest(path string) error {
	data, err := json.MarshalIndent(c.Manifest(), "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}
