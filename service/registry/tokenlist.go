package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
)

// The token list. GET /tokenlist.json serves the enabled tokens in the Uniswap token-lists
// format (the schema @uniswap/token-lists ships). The list is part of the store: every write
// renders the enabled tokens as list entries, compares them with the stored list and, when they
// differ, bumps the version by the format's rules and stores the new list in the same write as
// the entry. A restart therefore serves the same version, and replicas serve the stored list
// rather than one of their own making (the same bytes, the same ETag everywhere).

// storedList is the token list as stored, and as served: its JSON is the body of
// GET /tokenlist.json.
type storedList struct {
	Name      string             `json:"name"`
	Timestamp string             `json:"timestamp"` // RFC 3339, UTC: when this version was made
	Version   listVersion        `json:"version"`
	Tags      map[string]listTag `json:"tags,omitempty"`
	Tokens    []listToken        `json:"tokens"`
}

type listVersion struct {
	Major int `json:"major"`
	Minor int `json:"minor"`
	Patch int `json:"patch"`
}

type listTag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// listToken is one token-lists entry.
type listToken struct {
	ChainID    uint64         `json:"chainId"`
	Address    string         `json:"address"` // EIP-55
	Name       string         `json:"name"`
	Symbol     string         `json:"symbol"`
	Decimals   uint8          `json:"decimals"`
	LogoURI    string         `json:"logoURI,omitempty"`
	Tags       []string       `json:"tags,omitempty"`
	Extensions listExtensions `json:"extensions"`
}

// listExtensions are vaultd's fields. The format's extension strings hold at most 42
// characters, so the 66-character tokenId is split into its high and low 128 bits, each "0x" and
// 32 lowercase hex digits: tokenId = high + low[2:].
type listExtensions struct {
	TokenID         tokenIDHalves `json:"tokenId"`
	UnderlyingChain string        `json:"underlyingChain,omitempty"` // at most 42 characters
}

type tokenIDHalves struct {
	High string `json:"high"`
	Low  string `json:"low"`
}

// The format's limits (tokenlist.schema.json).
const (
	listMaxName        = 30 // the list's name
	listMaxTokenName   = 60
	listMaxSymbol      = 20
	listMaxExtension   = 42 // an extension's string value
	listMaxTagID       = 10
	listMaxTagName     = 20
	listMaxTags        = 20 // tags defined by the list
	defaultListName    = "vaultd"
	listTimestampShape = "2006-01-02T15:04:05Z"
)

// listNamePattern is the format's pattern of a list's name.
var listNamePattern = regexp.MustCompile(`^[A-Za-z0-9_ ]+$`)

// logoURIPattern is what RFC 3986 lets a URI hold; a stored URL with anything else is left out
// of the list rather than failing the format's "uri" check.
var logoURIPattern = regexp.MustCompile(`^https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$`)

// renderList makes the list entries of the enabled tokens of byAddr, in the order of GET
// /tokens, with the tags their categories give. iconBase prefixes stored icons.
func renderList(name string, chainID uint64, iconBase string, byAddr map[common.Address]storedToken) storedList {
	var enabled []storedToken
	for _, t := range byAddr {
		if t.Enabled {
			enabled = append(enabled, t)
		}
	}
	slices.SortFunc(enabled, compareTokens)

	// Categories become tags: at most listMaxTags of them, the most used first.
	tagOf := map[string]string{} // category → tag id
	uses := map[string]int{}     // tag id → tokens
	names := map[string]string{} // tag id → the least (in string order) of the categories that make it
	for _, t := range enabled {
		if t.Category == "" {
			continue
		}
		id := tagID(t.Category)
		tagOf[t.Category] = id
		uses[id]++
		if c, ok := names[id]; !ok || t.Category < c {
			names[id] = t.Category
		}
	}
	ids := make([]string, 0, len(uses))
	for id := range uses {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if uses[a] != uses[b] {
			return uses[b] - uses[a]
		}
		return strings.Compare(a, b)
	})
	if len(ids) > listMaxTags {
		ids = ids[:listMaxTags]
	}
	l := storedList{Name: name, Tokens: []listToken{}}
	if len(ids) > 0 {
		l.Tags = map[string]listTag{}
	}
	for _, id := range ids {
		n := tagName(names[id], id)
		l.Tags[id] = listTag{Name: n, Description: "Registry category " + n}
	}

	for _, t := range enabled {
		e := listToken{
			ChainID: chainID, Address: common.HexToAddress(t.Address).Hex(),
			Name: listString(t.Name, " ", listMaxTokenName), Symbol: listString(t.Symbol, "", listMaxSymbol), Decimals: t.Decimals,
			Extensions: listExtensions{
				TokenID:         tokenIDHalves{High: "0x" + t.TokenID[2:34], Low: "0x" + t.TokenID[34:]},
				UnderlyingChain: cut(strings.TrimSpace(t.UnderlyingChain), listMaxExtension),
			},
		}
		logo := t.IconURL
		if t.IconFile != "" {
			logo = iconBase + t.IconFile
		}
		if logoURIPattern.MatchString(logo) {
			e.LogoURI = logo
		}
		if id, ok := tagOf[t.Category]; ok {
			if _, defined := l.Tags[id]; defined {
				e.Tags = []string{id}
			}
		}
		l.Tokens = append(l.Tokens, e)
	}
	return l
}

// tagID is a category as a tag id of the format (1 to 10 of [A-Za-z0-9_]): lower case, every
// run of other characters one "_". A category whose id would be longer, or empty, is its first
// letters and 5 hex digits of its hash. Categories that differ only in case or punctuation share
// a tag.
func tagID(category string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(category) {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	slug := strings.TrimRight(b.String(), "_")
	if slug != "" && len(slug) <= listMaxTagID {
		return slug
	}
	sum := sha256.Sum256([]byte(strings.ToLower(category)))
	prefix := strings.TrimRight(cut(slug, 4), "_")
	if prefix == "" {
		prefix = "tag"
	}
	return prefix + "_" + hex.EncodeToString(sum[:])[:listMaxTagID-len(prefix)-1]
}

// tagName is a category as a tag's name (1 to 20 of letters, digits, "_" and spaces).
func tagName(category, id string) string {
	n := strings.Join(strings.FieldsFunc(category, func(r rune) bool {
		return r >= utf8.RuneSelf || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	}), " ")
	n = strings.TrimSpace(cut(n, listMaxTagName))
	if n == "" {
		return id
	}
	return n
}

// listString fits a name or symbol to the format: each whitespace character (as JavaScript's
// \s knows them) becomes space (empty: removed), then cut at max characters.
func listString(s, space string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '\ufeff' {
			if space == "" {
				return -1
			}
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(cut(s, max))
}

// cut keeps the first max characters of s.
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max])
}

// bump is the version a list whose tokens change from old to next takes, by the format's rules:
// major when a token is removed (an address change is a removal), minor when one is added,
// patch for any other change; changed is false when nothing changed.
func bump(old *storedList, next storedList) (v listVersion, changed bool) {
	if old == nil {
		return listVersion{Major: 1}, true
	}
	key := func(t listToken) string { return strconv.FormatUint(t.ChainID, 10) + "/" + t.Address }
	before := make([]string, len(old.Tokens))
	for i, t := range old.Tokens {
		before[i] = key(t)
	}
	after := make([]string, len(next.Tokens))
	for i, t := range next.Tokens {
		after[i] = key(t)
	}
	return nextVersion(old.Version, before, after, func() bool { return sameContent(*old, next) })
}

// nextVersion is the version after v of a list whose entries, by their identities, were before
// and are after, by the token-lists rules that the token list and the relayer directory both
// follow: major when an entry left, minor when one joined, patch when neither but what the
// list says changed (same reports whether it did not; asked only then); changed is false when
// nothing did.
func nextVersion(v listVersion, before, after []string, same func() bool) (next listVersion, changed bool) {
	had := map[string]bool{}
	for _, k := range before {
		had[k] = true
	}
	has := map[string]bool{}
	added := false
	for _, k := range after {
		has[k] = true
		added = added || !had[k]
	}
	for k := range had {
		if !has[k] {
			return listVersion{Major: v.Major + 1}, true
		}
	}
	if added {
		return listVersion{Major: v.Major, Minor: v.Minor + 1}, true
	}
	if same() {
		return v, false
	}
	return listVersion{Major: v.Major, Minor: v.Minor, Patch: v.Patch + 1}, true
}

// sameContent compares what a list says, leaving out its version and timestamp.
func sameContent(a, b storedList) bool {
	a.Version, a.Timestamp, b.Version, b.Timestamp = listVersion{}, "", listVersion{}, ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// nextList is the list to store after a change: nil when there is none to store (no list yet
// and no enabled token), and changed false when the stored one stands.
func nextList(old *storedList, rendered storedList, now time.Time) (next *storedList, changed bool) {
	if old == nil && len(rendered.Tokens) == 0 {
		return nil, false
	}
	v, changed := bump(old, rendered)
	if !changed {
		return old, false
	}
	rendered.Version = v
	rendered.Timestamp = now.UTC().Format(listTimestampShape)
	return &rendered, true
}
