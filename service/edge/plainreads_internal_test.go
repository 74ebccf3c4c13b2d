package edge

import (
	"context"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// Only GETs that nothing in a query-less, body-less request could fail skip the validator: a
// literal path, optional parameters, no body, anonymous access; a declared header, when sent,
// sends the request through validation again (its name as net/http spells the names it reads,
// whatever the document's letter case).
func TestPlainReads(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(`openapi: 3.0.3
info: {title: t, version: "1"}
components:
  securitySchemes: {bearerAuth: {type: http, scheme: bearer}}
paths:
  /plain: {get: {responses: {"200": {description: ok}}}}
  /optional:
    get:
      parameters:
        - {name: q, in: query, schema: {type: boolean}}
        - {name: x-thing, in: header, schema: {type: string, pattern: "^[a-z]+$"}}
      security: [{}, {bearerAuth: []}]
      responses: {"200": {description: ok}}
  /item/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /required:
    get:
      parameters: [{name: q, in: query, required: true, schema: {type: string}}]
      responses: {"200": {description: ok}}
  /admin:
    get: {security: [{bearerAuth: []}], responses: {"200": {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := plainReads(spec)
	paths := make([]string, 0, len(got))
	for p := range got {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if !slices.Equal(paths, []string{"/optional", "/plain"}) || !slices.Equal(got["/optional"], []string{"X-Thing"}) {
		t.Fatalf("plain reads %v (headers %v)", paths, got)
	}
}
