package registry

import (
	"github.com/seed018cc74c/vaultd/gen/registryapi"
)

// The registry's requests as its domain reads them, and its values as its document shapes them.

// fromRelayerInput is POST /relayers' body as the directory reads it.
func fromRelayerInput(in registryapi.RelayerInput) Relayer {
	return Relayer{Name: in.Name, URL: in.Url, ChainID: in.ChainId, Vault: in.Vault, Operator: in.Operator, FeeReceiver: in.FeeReceiver}
}

// fromRelayerFields is PUT /relayers/{name}'s name and body as the directory reads them.
func fromRelayerFields(name string, f registryapi.RelayerFields) Relayer {
	return Relayer{Name: name, URL: f.Url, ChainID: f.ChainId, Vault: f.Vault, Operator: f.Operator, FeeReceiver: f.FeeReceiver}
}

// toRelayer is a listed relayer in the API's shape.
func toRelayer(r Relayer) registryapi.Relayer {
	return registryapi.Relayer{Name: r.Name, Url: r.URL, ChainId: r.ChainID, Vault: r.Vault, Operator: r.Operator, FeeReceiver: r.FeeReceiver}
}

// fromTokenInput is POST /tokens' body as the registry reads it: INVALID_REQUEST for an address
// that is not one.
func fromTokenInput(in registryapi.TokenInput) (TokenInput, error) {
	addr, err := parseAddress(in.Address)
	if err != nil {
		return TokenInput{}, err
	}
	return TokenInput{Address: addr, Icon: in.Icon, Category: in.Category, Enabled: in.Enabled, SortOrder: in.SortOrder, UnderlyingChain: in.UnderlyingChain}, nil
}

// toToken is an entry in the API's shape.
func toToken(t Token) registryapi.Token {
	return registryapi.Token{
		Address: t.Address, Category: t.Category, Decimals: t.Decimals, Enabled: t.Enabled, Icon: t.Icon, Name: t.Name,
		SortOrder: t.SortOrder, Symbol: t.Symbol, TokenId: t.TokenID, UnderlyingChain: t.UnderlyingChain,
	}
}
