// Package apidoc makes the documents a service serves out of its whole OpenAPI document: the
// public one partners read, without the operator's routes (/admin and under) and what only they
// use, and either one written out as YAML in a reader's order.
package apidoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// AdminPath reports whether path is one of the operator's: /admin or under it, the routes a
// split service serves on its admin listener alone.
func AdminPath(path string) bool {
	return path == "/admin" || strings.HasPrefix(path, "/admin/")
}

// Public is whole without the operator's paths, without the tags only their operations carry,
// and without the components (of every kind, security schemes included) that nothing left
// refers to: a document that stands alone, as whole does. whole is not changed.
func Public(whole *openapi3.T) (*openapi3.T, error) {
	data, err := json.Marshal(whole)
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(data) // a copy: whole may be shared
	if err != nil {
		return nil, err
	}
	for path := range doc.Paths.Map() {
		if AdminPath(path) {
			doc.Paths.Delete(path)
		}
	}
	doc.Tags = slices.DeleteFunc(doc.Tags, func(t *openapi3.Tag) bool { return !tagged(doc.Paths, t.Name) })
	if err := prune(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// tagged reports whether an operation of paths carries tag.
func tagged(paths *openapi3.Paths, tag string) bool {
	for _, item := range paths.Map() {
		for _, op := range item.Operations() {
			if slices.Contains(op.Tags, tag) {
				return true
			}
		}
	}
	return false
}

// prune deletes doc's components that neither its paths nor its security requirements reach,
// directly or through other components.
func prune(doc *openapi3.T) error {
	if doc.Components == nil {
		return nil
	}
	var components map[string]map[string]any // kind → name → the component, as JSON
	if err := roundTrip(doc.Components, &components); err != nil {
		return err
	}
	var rest any // what is not a component: the paths, and the document's security
	if err := roundTrip(map[string]any{"paths": doc.Paths, "security": doc.Security}, &rest); err != nil {
		return err
	}
	reached := map[[2]string]bool{}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				visit(e)
			}
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				kind, name, ok := componentOf(ref)
				if ok && !reached[[2]string{kind, name}] {
					reached[[2]string{kind, name}] = true
					visit(components[kind][name])
				}
			}
			for key, e := range v {
				if key == "security" {
					for _, req := range asSlice(e) {
						for scheme := range asMap(req) {
							reached[[2]string{"securitySchemes", scheme}] = true
						}
					}
				}
				visit(e)
			}
		}
	}
	visit(rest)
	c := doc.Components
	drop(c.Schemas, "schemas", reached)
	drop(c.Parameters, "parameters", reached)
	drop(c.Headers, "headers", reached)
	drop(c.RequestBodies, "requestBodies", reached)
	drop(c.Responses, "responses", reached)
	drop(c.SecuritySchemes, "securitySchemes", reached)
	drop(c.Examples, "examples", reached)
	drop(c.Links, "links", reached)
	drop(c.Callbacks, "callbacks", reached)
	return nil
}

// componentOf is the kind and name of the component ref names ("#/components/kind/name").
func componentOf(ref string) (kind, name string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return "", "", false
	}
	kind, name, ok = strings.Cut(rest, "/")
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	return kind, name, ok && !strings.Contains(name, "/")
}

func drop[V any](m map[string]V, kind string, reached map[[2]string]bool) {
	for name := range m {
		if !reached[[2]string{kind, name}] {
			delete(m, name)
		}
	}
}

func roundTrip(v, into any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// order is the order YAML writes a document's fields in: what it is first, its paths, then the
// components they refer to (kin-openapi's own order is the alphabet's).
var order = []string{"openapi", "info", "externalDocs", "servers", "security", "tags", "paths", "webhooks", "components"}

// YAML is doc written as YAML, its top-level fields in a reader's order (order; extensions
// last) and everything under them as kin-openapi writes it.
func YAML(doc *openapi3.T) ([]byte, error) {
	fields, err := doc.MarshalYAML()
	if err != nil {
		return nil, err
	}
	m := fields.(map[string]any)
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !slices.Contains(order, k) && !yield(k) {
				return
			}
		}
	})
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range append(slices.Clone(order), keys...) {
		v, ok := m[k]
		if !ok {
			continue
		}
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		quoteNumberLike(&n)
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &n)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// quoteNumberLike quotes the strings under n that yaml.v3 writes plain but other readers take
// for numbers: yaml.v3 leaves "0x5f2c…" (a hash, too long for an int64) plain, and a YAML 1.2
// reader (the linters', the TypeScript generator's) reads a number there.
func quoteNumberLike(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Style == 0 && numberLike(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteNumberLike(c)
	}
}

// numberLike reports whether s starts as a number does: a digit, or a sign or a point before one.
func numberLike(s string) bool {
	s = strings.TrimLeft(s, "+-.")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}
