package openapi_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/seed018cc74c/vaultd/openapi"
)

// The relayer's and the faucet's documents, as served, stand alone: wallet.yaml's routes are in
// them (a loader that reads no file finds every $ref), and wallet.yaml's components that differ
// from the document's own of the same name come in under the file's prefix.
func TestTheServedDocumentsBundleTheWalletsRoutes(t *testing.T) {
	for name, data := range map[string][]byte{"relayer": openapi.RelayerYAML, "faucet": openapi.FaucetYAML} {
		if bytes.Contains(data, []byte("wallet.yaml#")) {
			t.Errorf("%s: a $ref to wallet.yaml is left", name)
		}
		loader := openapi3.NewLoader() // IsExternalRefsAllowed false: a file $ref fails to load
		spec, err := loader.LoadFromData(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := spec.Validate(context.Background()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for path, op := range map[string]string{"/admin/pause": "pause", "/admin/fleet": "getFleet", "/admin/transactions/{nonce}/cancel": "cancelTransaction"} {
			item := spec.Paths.Value(path)
			if item == nil || item.Operations()[map[bool]string{true: "GET", false: "POST"}[op == "getFleet"]] == nil ||
				item.Operations()[map[bool]string{true: "GET", false: "POST"}[op == "getFleet"]].OperationID != op {
				t.Errorf("%s: %s (%s) is not in the document", name, path, op)
			}
		}
		if spec.Components.Schemas["PauseState"] == nil || spec.Components.Headers["WalletRateLimit"] == nil || spec.Components.SecuritySchemes["bearerAuth"] == nil {
			t.Errorf("%s: wallet.yaml's components are not all in", name)
		}
	}
}
