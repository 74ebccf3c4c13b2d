package openapi

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/seed018cc74c/vaultd/openapi/apidoc"
)

// bundle is the document name of files with every $ref to another of files (wallet.yaml#/…)
// taken into it by kin-openapi (its loader reads the files, InternalizeRefs copies in what they
// refer to), so that it stands alone: what a service validates against and serves. A path item
// referred to is copied in its place; a component is copied into the document's components
// under its own name, or, where the document has another component of that name, under the name
// prefixed with its file's ("RateLimit" of wallet.yaml: "WalletRateLimit"); one the same as the
// document's own is the document's (named).
func bundle(files fs.FS, name string) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true
	loader.ReadFromURIFunc = func(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
		return fs.ReadFile(files, path.Clean(strings.TrimPrefix(u.Path, "/")))
	}
	doc, err := loader.LoadFromURI(&url.URL{Path: name})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n := &namer{files: files, main: name, raw: map[string]map[string]any{}}
	doc.InternalizeRefs(context.Background(), n.name)
	if n.err != nil {
		return nil, fmt.Errorf("%s: %w", name, n.err)
	}
	return doc, nil
}

// namer names the components bundle copies in. It compares components as written (the files
// parsed as plain YAML), their $refs by what they refer to: kin-openapi's values are rewritten
// while it internalizes.
type namer struct {
	files fs.FS
	main  string
	raw   map[string]map[string]any // a file as plain YAML, read once
	err   error
}

// name is the bundle's name of ref, a component of another file's.
func (n *namer) name(doc *openapi3.T, ref openapi3.ComponentRef) string {
	u := ref.RefPath()
	file := path.Clean(strings.TrimPrefix(u.Path, "/"))
	kind, name, ok := strings.Cut(strings.TrimPrefix(u.Fragment, "/components/"), "/")
	if !ok || kind != ref.CollectionName() || strings.Contains(name, "/") {
		n.fail(fmt.Errorf("$ref %s: only components are bundled", u))
		return name
	}
	if file == n.main || !n.has(n.main, kind, name) || n.same(file, n.main, "#/components/"+kind+"/"+name, "#/components/"+kind+"/"+name, map[[2]string]bool{}) {
		return name
	}
	prefixed := strings.ToUpper(file[:1]) + strings.TrimSuffix(file[1:], ".yaml") + name
	if n.has(n.main, kind, prefixed) {
		n.fail(fmt.Errorf("%s#/components/%s/%s: the document has components %s and %s of its own", file, kind, name, name, prefixed))
	}
	return prefixed
}

func (n *namer) fail(err error) {
	if n.err == nil {
		n.err = err
	}
}

func (n *namer) has(file, kind, name string) bool {
	return n.lookup(file, "#/components/"+kind+"/"+name) != nil
}

// lookup is what ref (a local "#/…" pointer) points to in file, as written; nil when nothing.
func (n *namer) lookup(file, ref string) any {
	doc, ok := n.raw[file]
	if !ok {
		data, err := fs.ReadFile(n.files, file)
		if err == nil {
			err = yaml.Unmarshal(data, &doc)
		}
		if err != nil {
			n.fail(err)
		}
		n.raw[file] = doc
	}
	var v any = doc
	for _, key := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[strings.ReplaceAll(strings.ReplaceAll(key, "~1", "/"), "~0", "~")]
	}
	return v
}

// same reports whether ra of file fa and rc of file fc (local "#/…" pointers) say the same,
// their $refs compared by what they refer to.
func (n *namer) same(fa, fc, ra, rc string, seen map[[2]string]bool) bool {
	key := [2]string{fa + ra, fc + rc}
	if seen[key] {
		return true
	}
	seen[key] = true
	var equal func(a, c any) bool
	equal = func(a, c any) bool {
		ma, aok := a.(map[string]any)
		mc, cok := c.(map[string]any)
		if aok && cok {
			refA, aRef := ma["$ref"].(string)
			refC, cRef := mc["$ref"].(string)
			if aRef && cRef {
				ta, pa := target(fa, refA)
				tc, pc := target(fc, refC)
				return n.lookup(ta, pa) != nil && n.lookup(tc, pc) != nil && n.same(ta, tc, pa, pc, seen)
			}
			if len(ma) != len(mc) {
				return false
			}
			for k, va := range ma {
				vc, ok := mc[k]
				if !ok || !equal(va, vc) {
					return false
				}
			}
			return true
		}
		sa, aok := a.([]any)
		sc, cok := c.([]any)
		if aok && cok {
			if len(sa) != len(sc) {
				return false
			}
			for i := range sa {
				if !equal(sa[i], sc[i]) {
					return false
				}
			}
			return true
		}
		return reflect.DeepEqual(a, c)
	}
	return equal(n.lookup(fa, ra), n.lookup(fc, rc))
}

// target is the file and local pointer of ref, a $ref written in file.
func target(file, ref string) (string, string) {
	f, pointer, _ := strings.Cut(ref, "#")
	if f == "" {
		f = file
	}
	if p, err := url.PathUnescape(pointer); err == nil {
		pointer = p
	}
	return f, "#" + pointer
}

// mustBundle is the document name bundled (bundle) and written as YAML (apidoc.YAML), and the
// public one made of it (apidoc.Public).
func mustBundle(name string) (whole, public []byte) {
	doc, err := bundle(documents, name)
	if err == nil {
		whole, err = apidoc.YAML(doc)
	}
	var pub *openapi3.T
	if err == nil {
		pub, err = apidoc.Public(doc)
	}
	if err == nil {
		public, err = apidoc.YAML(pub)
	}
	if err != nil {
		panic(fmt.Sprintf("openapi: %v", err))
	}
	return whole, public
}
