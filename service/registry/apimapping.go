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
