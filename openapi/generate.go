// Package openapi holds the OpenAPI documents of vaultd's services, the source of truth for
// their routes, payloads and errors, and embeds them so each service can serve its own document
// at /openapi.yaml (bundled: bundle.go). `go generate ./openapi` regenerates the Go models and clients (gen/*api) and the chi strict servers (gen/*server) in gen/.
package openapi

import (
	"embed"
	"fmt"
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

// documents are the documents as written; a service's may refer to wallet.yaml, the paying
// wallet's operator routes that the relayer and the faucet share.
//
//go:embed registry.yaml relayer.yaml faucet.yaml indexer.yaml wallet.yaml
var documents embed.FS

// The documents as each service validates against and serves them: each one whole, what it
// refers to in wallet.yaml bundled in (bundle.go). The files are embedded, so a bundle that
// fails fails every run (go test ./openapi): mustBundle panics rather than serve half a document.
var (
	RegistryYAML = mustBundle("registry.yaml")
	RelayerYAML  = mustBundle("relayer.yaml")
	FaucetYAML   = mustBundle("faucet.yaml")
	IndexerYAML  = mustBundle("indexer.yaml")
)

func mustBundle(name string) []byte {
	data, err := bundle(documents, name)
	if err != nil {
		panic(fmt.Sprintf("openapi: %v", err))
	}
	return data
}
