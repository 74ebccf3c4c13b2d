package openapi

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"gopkg.in/yaml.v3"
)

// bundle is the document name of files with every $ref to another of files (wallet.yaml#/…)
// taken into it, so that it stands alone: what a service validates against and serves. A path
// item referred to is copied in its place; a component (with what it refers to) is copied into
// the document's components under its own name, or, where the document has another component
// of that name, under the name prefixed with its file's ("RateLimit" of wallet.yaml:
// "WalletRateLimit"); one the same as the document's own is the document's. A document without
// such $refs is returned as written.
func bundle(files fs.FS, name string) ([]byte, error) {
	data, err := fs.ReadFile(files, name)
	if err != nil {
		return nil, err
	}
	b := &bundler{files: files, main: name, docs: map[string]*yaml.Node{}, names: map[string]string{}}
	root, err := b.load(name)
	if err != nil {
		return nil, err
	}
	if err := b.walk(name, root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !b.changed {
		return data, nil
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return out.Bytes(), enc.Close()
}

type bundler struct {
	files   fs.FS
	main    string
	docs    map[string]*yaml.Node // a file's document (its root mapping), read once
	names   map[string]string     // "file#/components/kind/name" → its name in the bundle
	changed bool
}

func (b *bundler) load(file string) (*yaml.Node, error) {
	if d, ok := b.docs[file]; ok {
		return d, nil
	}
	data, err := fs.ReadFile(b.files, file)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a document", file)
	}
	b.docs[file] = doc.Content[0]
	return doc.Content[0], nil
}

// walk rewrites the $refs under n, a node of file's, to the bundle's.
func (b *bundler) walk(file string, n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if err := b.walk(file, c); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		if ref := value(n, "$ref"); ref != nil {
			return b.ref(file, n, ref)
		}
		for i := 1; i < len(n.Content); i += 2 {
			if err := b.walk(file, n.Content[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// ref rewrites the $ref of n (a node of file's, whose $ref value is ref).
func (b *bundler) ref(file string, n, ref *yaml.Node) error {
	target, pointer, err := split(file, ref.Value)
	if err != nil {
		return err
	}
	if target == b.main && file == b.main {
		return nil // the document's own
	}
	segs := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	switch {
	case len(segs) == 3 && segs[0] == "components":
		name, err := b.component(target, segs[1], unescape(segs[2]))
		if err != nil {
			return err
		}
		ref.Value, b.changed = "#/components/"+segs[1]+"/"+escape(name), true
		return nil
	case len(segs) == 2 && segs[0] == "paths" && file == b.main:
		doc, err := b.load(target)
		if err != nil {
			return err
		}
		item := lookup(doc, "paths", unescape(segs[1]))
		if item == nil {
			return fmt.Errorf("%s: no such path item", ref.Value)
		}
		copied := deepCopy(item)
		if err := b.walk(target, copied); err != nil {
			return err
		}
		if err := b.securitySchemes(target, copied); err != nil {
			return err
		}
		n.Content, b.changed = copied.Content, true
		return nil
	}
	return fmt.Errorf("$ref %q: only components and (from the document) path items are bundled", ref.Value)
}

// component is the bundle's name of file's component kind/name, copied in when it is not yet.
func (b *bundler) component(file, kind, name string) (string, error) {
	key := file + "#/components/" + kind + "/" + name
	if got, ok := b.names[key]; ok {
		return got, nil
	}
	if file == b.main {
		return name, nil
	}
	doc, err := b.load(file)
	if err != nil {
		return "", err
	}
	node := lookup(doc, "components", kind, name)
	if node == nil {
		return "", fmt.Errorf("%s: no such component", key)
	}
	main := b.docs[b.main]
	chosen := name
	if own := lookup(main, "components", kind, name); own != nil && !b.same(file, node, b.main, own, map[[2]*yaml.Node]bool{}) {
		chosen = strings.ToUpper(file[:1]) + strings.TrimSuffix(file[1:], ".yaml") + name
		if lookup(main, "components", kind, chosen) != nil {
			return "", fmt.Errorf("%s: the document has components %s and %s of its own", key, name, chosen)
		}
	}
	b.names[key] = chosen
	if lookup(main, "components", kind, chosen) != nil { // the same as the document's own
		return chosen, nil
	}
	copied := deepCopy(node)
	if err := b.walk(file, copied); err != nil {
		return "", err
	}
	set(main, copied, "components", kind, chosen)
	return chosen, nil
}

// securitySchemes copies in the schemes that the operations of item (a path item of file's)
// name in their security requirements, renaming the requirements with them.
func (b *bundler) securitySchemes(file string, item *yaml.Node) error {
	for i := 1; i < len(item.Content); i += 2 {
		security := value(item.Content[i], "security")
		if security == nil {
			continue
		}
		for _, req := range security.Content {
			for j := 0; j < len(req.Content); j += 2 {
				name, err := b.component(file, "securitySchemes", req.Content[j].Value)
				if err != nil {
					return err
				}
				req.Content[j].Value = name
			}
		}
	}
	return nil
}

// same reports whether a (of file fa's) and c (of fc's) say the same, their $refs compared by
// what they refer to.
func (b *bundler) same(fa string, a *yaml.Node, fc string, c *yaml.Node, seen map[[2]*yaml.Node]bool) bool {
	if seen[[2]*yaml.Node{a, c}] {
		return true
	}
	seen[[2]*yaml.Node{a, c}] = true
	if a.Kind != c.Kind || len(a.Content) != len(c.Content) {
		return false
	}
	if a.Kind == yaml.ScalarNode {
		return a.Value == c.Value && a.ShortTag() == c.ShortTag()
	}
	ra, rc := value(a, "$ref"), value(c, "$ref")
	if a.Kind == yaml.MappingNode && ra != nil && rc != nil {
		ta, tc := b.resolve(fa, ra.Value), b.resolve(fc, rc.Value)
		return ta != nil && tc != nil && b.same(ta.file, ta.node, tc.file, tc.node, seen)
	}
	for i := range a.Content {
		if !b.same(fa, a.Content[i], fc, c.Content[i], seen) {
			return false
		}
	}
	return true
}

type located struct {
	file string
	node *yaml.Node
}

// resolve is what ref, a $ref of file's, refers to (nil when nothing).
func (b *bundler) resolve(file, ref string) *located {
	target, pointer, err := split(file, ref)
	if err != nil {
		return nil
	}
	doc, err := b.load(target)
	if err != nil {
		return nil
	}
	var keys []string
	for _, s := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		keys = append(keys, unescape(s))
	}
	if n := lookup(doc, keys...); n != nil {
		return &located{target, n}
	}
	return nil
}

// split is ref's file (file itself for "#/…") and JSON pointer. A $ref is a URI: its fragment
// is the pointer percent-encoded (RFC 6901, section 6), so "{nonce}" in a path is written
// "%7Bnonce%7D" there, as the linters read it too.
func split(file, ref string) (string, string, error) {
	target, fragment, _ := strings.Cut(ref, "#")
	if target == "" {
		target = file
	}
	pointer, err := url.PathUnescape(fragment)
	if err != nil {
		return "", "", fmt.Errorf("$ref %q: %w", ref, err)
	}
	return target, pointer, nil
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// value is the value of key in the mapping m, or nil.
func value(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// lookup follows keys down from m; nil where one is missing.
func lookup(m *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if m = value(m, k); m == nil {
			return nil
		}
	}
	return m
}

// set puts v at keys under m, making the mappings on the way.
func set(m, v *yaml.Node, keys ...string) {
	for i, k := range keys {
		next := value(m, k)
		if i == len(keys)-1 {
			if next != nil {
				*next = *v
				return
			}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, v)
			return
		}
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, next)
		}
		m = next
	}
}

func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = deepCopy(k)
	}
	return &c
}
