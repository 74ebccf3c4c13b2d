package openapi_test

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/seed018cc74c/vaultd/openapi"
)

type doc struct {
	Paths      map[string]map[string]operation
	Components struct {
		Schemas   map[string]schema
		Responses map[string]response
	}
}

type operation struct {
	Responses map[string]response
}

type response struct {
	Ref     string `yaml:"$ref"`
	Headers map[string]struct {
		Ref string `yaml:"$ref"`
	}
	Content map[string]struct {
		Schema struct {
			Ref string `yaml:"$ref"`
		}
	}
}

type schema struct {
	Properties map[string]struct {
		Enum []string
	}
}

// Every error response of every operation names the codes it can carry (an enum partners can
// switch on), each a code of the document's Error schema, and every code a service defines
// beyond the shared ones is answered by at least one operation.
func TestEveryErrorResponseListsItsCodes(t *testing.T) {
	shared := []string{"INVALID_REQUEST", "UNAUTHORIZED", "NOT_FOUND", "METHOD_NOT_ALLOWED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE",
		"RATE_LIMITED", "CHAIN_UNAVAILABLE", "UNAVAILABLE", "INTERNAL"}
	for name, data := range map[string][]byte{"registry": openapi.RegistryYAML, "relayer": openapi.RelayerYAML, "faucet": openapi.FaucetYAML, "indexer": openapi.IndexerYAML} {
		var d doc
		if err := yaml.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all := d.Components.Schemas["Error"].Properties["code"].Enum
		answered := map[string]bool{}
		for path, ops := range d.Paths {
			for method, op := range ops {
				for status, r := range op.Responses {
					if status[0] == '2' || status == "304" || status == "default" {
						continue
					}
					where := name + " " + strings.ToUpper(method) + " " + path + " " + status
					if r.Ref != "" {
						r = d.Components.Responses[strings.TrimPrefix(r.Ref, "#/components/responses/")]
					}
					ref := r.Content["application/json"].Schema.Ref
					codes := d.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")].Properties["code"].Enum
					if len(codes) == 0 || ref == "#/components/schemas/Error" {
						t.Errorf("%s: no code enum of its own (%s)", where, ref)
					}
					for _, c := range codes {
						if !slices.Contains(all, c) {
							t.Errorf("%s: code %s is not in the Error schema's enum", where, c)
						}
						answered[c] = true
					}
				}
			}
		}
		for _, c := range all {
			if !slices.Contains(shared, c) && !answered[c] {
				t.Errorf("%s: code %s is answered by no operation", name, c)
			}
		}
	}
}

// Every response of every operation declares the X-Request-Id header every response carries
// (service/edge's middleware sets it).
func TestEveryResponseDeclaresXRequestID(t *testing.T) {
	for name, data := range map[string][]byte{"registry": openapi.RegistryYAML, "relayer": openapi.RelayerYAML, "faucet": openapi.FaucetYAML, "indexer": openapi.IndexerYAML} {
		var d doc
		if err := yaml.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for path, ops := range d.Paths {
			for method, op := range ops {
				for status, r := range op.Responses {
					if r.Ref != "" {
						r = d.Components.Responses[strings.TrimPrefix(r.Ref, "#/components/responses/")]
					}
					if r.Headers["X-Request-Id"].Ref != "#/components/headers/XRequestId" {
						t.Errorf("%s %s %s %s: X-Request-Id is not declared", name, strings.ToUpper(method), path, status)
					}
				}
			}
		}
	}
}
