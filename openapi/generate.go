// Package openapi holds the OpenAPI documents of vaultd's services, the source of truth for
// their routes, payloads and errors, and embeds them so each service can validate against its
// whole document and serve it (bundled: bundle.go): the public one at /openapi.yaml, the
// operator's whole one at /admin/openapi.yaml (service/edge). `go generate ./openapi`
// regenerates the Go models and clients (gen/*api) and the chi strict servers (gen/*server),
// and writes the public documents partners are given (gen/openapi, apidoc.Public), which the
// TypeScript types are generated from.
package openapi

import (
	"embed"
)

//go:generate go tool oapi-codegen -config wallet.cfg.yaml wallet.yaml
//go:generate go tool oapi-codegen -config wallet.server.cfg.yaml wallet.yaml
//go:generate go tool oapi-codegen -config registry.cfg.yaml registry.yaml
//go:generate go tool oapi-codegen -config registry.server.cfg.yaml registry.yaml
//go:generate go tool oapi-codegen -config relayer.cfg.yaml relayer.yaml
//go:generate go tool oapi-codegen -config relayer.server.cfg.yaml relayer.yaml
//go:generate go tool oapi-codegen -config faucet.cfg.yaml faucet.yaml
//go:generate go tool oapi-codegen -config faucet.server.cfg.yaml faucet.yaml
//go:generate go tool oapi-codegen -config indexer.cfg.yaml indexer.yaml
//go:generate go tool oapi-codegen -config indexer.server.cfg.yaml indexer.yaml
//go:generate go run ./internal/writepublic ../gen/openapi

// documents are the documents as written; a service's may refer to wallet.yaml, the paying
// wallet's operator routes that the relayer and the faucet share.
//
//go:embed registry.yaml relayer.yaml faucet.yaml indexer.yaml wallet.yaml
var documents embed.FS

// The documents as each service validates against and serves them: each one whole (the
// operator's, /admin/openapi.yaml), what it refers to in wallet.yaml bundled in (bundle.go), and
// its public one (/openapi.yaml: without the operator's routes, apidoc.Public). The files are
// embedded, so a bundle that fails fails every run (go test ./openapi): mustBundle panics rather
// than serve half a document.
var (
	RegistryYAML, RegistryPublicYAML = mustBundle("registry.yaml")
	RelayerYAML, RelayerPublicYAML   = mustBundle("relayer.yaml")
	FaucetYAML, FaucetPublicYAML     = mustBundle("faucet.yaml")
	IndexerYAML, IndexerPublicYAML   = mustBundle("indexer.yaml")
)
