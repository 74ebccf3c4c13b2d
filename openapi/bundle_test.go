package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// Each service's public document (what its /openapi.yaml answers, and the file partners and the
// TypeScript types are given, gen/openapi) is its whole document without the operator's routes:
// every other path is in it, no /admin one, and no component that nothing in it refers to; it
// validates and stands alone. gen/openapi holds it as served.
func TestThePublicDocumentsHoldNoOperatorsRoute(t *testing.T) {
	for name, docs := range map[string][2][]byte{
		"registry": {openapi.RegistryYAML, openapi.RegistryPublicYAML}, "relayer": {openapi.RelayerYAML, openapi.RelayerPublicYAML},
		"faucet": {openapi.FaucetYAML, openapi.FaucetPublicYAML}, "indexer": {openapi.IndexerYAML, openapi.IndexerPublicYAML},
	} {
		whole, public := load(t, name, docs[0]), load(t, name+" (public)", docs[1])
		for path := range whole.Paths.Map() {
			admin := path == "/admin" || strings.HasPrefix(path, "/admin/")
			if got := public.Paths.Value(path) != nil; got == admin {
				t.Errorf("%s: %s in the public document: %v", name, path, got)
			}
		}
		if orphans := unreferenced(t, public); len(orphans) != 0 {
			t.Errorf("%s: the public document's components %v are referred to by nothing", name, orphans)
		}
		file, err := os.ReadFile(filepath.Join("..", "gen", "openapi", name+".yaml"))
		if err != nil || !bytes.HasSuffix(file, docs[1]) {
			t.Errorf("gen/openapi/%s.yaml is not the public document (go generate ./openapi): %v", name, err)
		}
	}
	// The relayer's operators' routes are out, and the tags and components only they use.
	public := load(t, "relayer", openapi.RelayerPublicYAML)
	if public.Components.Schemas["Fleet"] != nil || public.Components.Responses["NoAdminRoutes"] != nil ||
		public.Components.SecuritySchemes["bearerAuth"] != nil || slices.ContainsFunc(public.Tags, func(t *openapi3.Tag) bool { return t.Name == "admin" }) {
		t.Error("relayer: the public document keeps what only the operator's routes use")
	}
}

func load(t *testing.T, name string, data []byte) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err == nil {
		err = doc.Validate(context.Background())
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

// unreferenced are doc's components ("kind/name") that no $ref and no security requirement of
// the document names.
func unreferenced(t *testing.T, doc *openapi3.T) []string {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`"\$ref":"#/components/([A-Za-z]+/[^"]+)"`).FindAllStringSubmatch(string(data), -1) {
		named[m[1]] = true
	}
	requirements := []openapi3.SecurityRequirements{doc.Security}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Security != nil {
				requirements = append(requirements, *op.Security)
			}
		}
	}
	for _, reqs := range requirements {
		for _, req := range reqs {
			for scheme := range req {
				named["securitySchemes/"+scheme] = true
			}
		}
	}
	var components map[string]map[string]json.RawMessage
	data, _ = json.Marshal(doc.Components)
	if err := json.Unmarshal(data, &components); err != nil {
		t.Fatal(err)
	}
	var out []string
	for kind, byName := range components {
		for name := range byName {
			if !named[kind+"/"+name] {
				out = append(out, kind+"/"+name)
			}
		}
	}
	return out
}
