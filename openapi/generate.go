// Package openapi holds the OpenAPI documents of vaultd's services, the source of truth for
// their routes, payloads and errors, and embeds them so each service can serve its own document
// at /openapi.yaml. `go generate ./openapi` regenerates the Go models and clients (gen/*api) and the chi strict servers (gen/*server) in gen/.
package openapi

import _ "embed"

//go:generate go tool oapi-codegen -config registry.cfg.yaml registry.yaml
//go:generate go tool oapi-codegen -config registry.server.cfg.yaml registry.yaml
//go:generate go tool oapi-codegen -config relayer.cfg.yaml relayer.yaml
//go:generate go tool oapi-codegen -config relayer.server.cfg.yaml relayer.yaml
//go:generate go tool oapi-codegen -config faucet.cfg.yaml faucet.yaml
//go:generate go tool oapi-codegen -config faucet.server.cfg.yaml faucet.yaml
//go:generate go tool oapi-codegen -config indexer.cfg.yaml indexer.yaml
//go:generate go tool oapi-codegen -config indexer.server.cfg.yaml indexer.yaml

// RegistryYAML is openapi/registry.yaml as written.
//
//go:embed registry.yaml
var RegistryYAML []byte

// RelayerYAML is openapi/relayer.yaml as written.
//
//go:embed relayer.yaml
var RelayerYAML []byte

// FaucetYAML is openapi/faucet.yaml as written.
//
//go:embed faucet.yaml
var FaucetYAML []byte

// IndexerYAML is openapi/indexer.yaml as written.
//
//go:embed indexer.yaml
var IndexerYAML []byte
