package registry

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

func entry(n int, category string) storedToken {
	addr := common.HexToAddress(fmt.Sprintf("0x%040x", 0xabc0+n)).Hex()
	return storedToken{Address: addr, Name: fmt.Sprintf("Token %d", n), Symbol: fmt.Sprintf("T%d", n), Decimals: 18,
		TokenID: fmt.Sprintf("0x%064x", n), Category: category, Enabled: true, SortOrder: int32(n)}
}

func entries(ts ...storedToken) map[common.Address]storedToken {
	m := map[common.Address]storedToken{}
	for _, t := range ts {
		m[common.HexToAddress(t.Address)] = t
	}
	return m
}

// The format's version rules, one change at a time from 2.3.4 holding tokens 1 and 2: major when
// a token leaves (removed, disabled, its address changed; minor and patch start again), minor
// when one joins, patch for anything else the list says, nothing when it says the same.
func TestTokenListBumpRules(t *testing.T) {
	t.Parallel()
	one, two, three := entry(1, "stablecoin"), entry(2, ""), entry(3, "")
	render := func(ts ...storedToken) storedList {
		return renderList("vaultd", 1337, "https://r.example/icons/", entries(ts...))
	}
	old := render(one, two)
	old.Version = listVersion{2, 3, 4}

	renamed, disabled, moved, recategorised, iconed, reordered := one, two, two, one, one, two
	renamed.Name = "Token One"
	disabled.Enabled = false
	moved.Address = three.Address
	recategorised.Category = "governance"
	iconed.IconFile = strings.ToLower(one.Address) + "-0011aabb.png"
	reordered.SortOrder = -1
	hidden := three
	hidden.Enabled = false
	for _, c := range []struct {
		name string
		next storedList
		want listVersion
		same bool
	}{
		{"nothing", render(one, two), listVersion{2, 3, 4}, true},
		{"a disabled token's change", render(one, two, hidden), listVersion{2, 3, 4}, true},
		{"added", render(one, two, three), listVersion{2, 4, 0}, false},
		{"removed", render(one), listVersion{3, 0, 0}, false},
		{"disabled", render(one, disabled), listVersion{3, 0, 0}, false},
		{"address changed", render(one, moved), listVersion{3, 0, 0}, false},
		{"one removed, one added", render(one, three), listVersion{3, 0, 0}, false},
		{"renamed", render(renamed, two), listVersion{2, 3, 5}, false},
		{"category (a tag)", render(recategorised, two), listVersion{2, 3, 5}, false},
		{"icon", render(iconed, two), listVersion{2, 3, 5}, false},
		{"order", render(one, reordered), listVersion{2, 3, 5}, false},
		{"list name", renderList("other", 1337, "https://r.example/icons/", entries(one, two)), listVersion{2, 3, 5}, false},
	} {
		got, changed := bump(&old, c.next)
		if got != c.want || changed == c.same {
			t.Errorf("%s: %v (changed %v), want %v", c.name, got, changed, c.want)
		}
	}
	if v, changed := bump(nil, render(one)); v != (listVersion{1, 0, 0}) || !changed {
		t.Errorf("the first list: %v", v)
	}

	// No list is stored before a token is enabled; the first is 1.0.0, stamped with its time.
	if l, changed := nextList(nil, render(), time.Now()); l != nil || changed {
		t.Errorf("an empty registry stores a list: %+v", l)
	}
	at := time.Date(2026, 11, 26, 3, 30, 0, 5e8, time.FixedZone("x", 3600))
	l, changed := nextList(nil, render(one), at)
	if !changed || l.Version != (listVersion{1, 0, 0}) || l.Timestamp != "2026-11-26T02:30:00Z" {
		t.Errorf("the first list: %+v", l)
	}
	// The stored list stands (and keeps its timestamp) when nothing it says changed.
	if again, changed := nextList(l, render(one), at.Add(time.Hour)); changed || again != l {
		t.Errorf("an unchanged list was replaced: %+v", again)
	}
}

// Each entry fits the format: tokenId in two 128-bit halves, names and symbols within its
// limits, categories as tag ids of at most 10 word characters, described at the top, at most
// 20 of them, absolute logos, disabled tokens left out.
func TestRenderList(t *testing.T) {
	t.Parallel()
	a := entry(1, "Stable Coins (USD)")
	a.TokenID = "0x" + strings.Repeat("0123456789abcdef", 4)
	a.Name = "A name\twith a tab and " + strings.Repeat("long ", 20)
	a.Symbol = "v USD\u00a0C"
	a.UnderlyingChain = strings.Repeat("c", 64)
	a.IconFile = strings.ToLower(a.Address) + "-0011aabb.png"
	b := entry(2, "stablecoin")
	b.IconURL = "https://cdn.example/b.png"
	c := entry(3, "stablecoin")
	c.IconURL = "https://cdn.example/a b.png" // not a URI the format takes: left out
	off := entry(4, "hidden")
	off.Enabled = false
	l := renderList("vaultd", 1337, "https://r.example/icons/", entries(a, b, c, off))
	if len(l.Tokens) != 3 {
		t.Fatalf("%d tokens, want the 3 enabled", len(l.Tokens))
	}
	ta := l.Tokens[0]
	if ta.Extensions.TokenID.High+ta.Extensions.TokenID.Low[2:] != a.TokenID || len(ta.Extensions.TokenID.High) != 34 {
		t.Errorf("tokenId halves %+v do not make %s", ta.Extensions.TokenID, a.TokenID)
	}
	if ta.Symbol != "vUSDC" || len([]rune(ta.Name)) > 60 || strings.ContainsAny(ta.Name, "\t") || len(ta.Extensions.UnderlyingChain) != 42 {
		t.Errorf("entry %+v does not fit the format", ta)
	}
	if ta.LogoURI != "https://r.example/icons/"+a.IconFile || l.Tokens[1].LogoURI != b.IconURL || l.Tokens[2].LogoURI != "" {
		t.Errorf("logos %q %q %q", ta.LogoURI, l.Tokens[1].LogoURI, l.Tokens[2].LogoURI)
	}
	long := tagID("Stable Coins (USD)")
	if len(long) > 10 || !strings.HasPrefix(long, "stab_") || ta.Tags[0] != long || l.Tokens[1].Tags[0] != "stablecoin" {
		t.Errorf("tags %v %v (id %q)", ta.Tags, l.Tokens[1].Tags, long)
	}
	if l.Tags[long].Name != "Stable Coins USD" || l.Tags["stablecoin"].Description != "Registry category stablecoin" || len(l.Tags) != 2 {
		t.Errorf("tag definitions %+v", l.Tags)
	}
	for in, want := range map[string]string{"DeFi": "defi", "de-fi": "de_fi", "Стейбл": "tag_", "  x  ": "x", "a__b": "a_b"} {
		if got := tagID(in); !strings.HasPrefix(got, want) || len(got) > 10 {
			t.Errorf("tagID(%q) = %q, want %q…", in, got, want)
		}
	}

	// 25 categories: the 20 most used are tags; the tokens of the others carry none.
	var many []storedToken
	for i := range 25 {
		many = append(many, entry(10+i, fmt.Sprintf("cat%02d", i)))
		if i < 20 {
			many = append(many, entry(100+i, fmt.Sprintf("cat%02d", i)))
		}
	}
	l = renderList("vaultd", 1337, "", entries(many...))
	tagged := 0
	for _, e := range l.Tokens {
		tagged += len(e.Tags)
	}
	if len(l.Tags) != 20 || tagged != 40 {
		t.Errorf("%d tags, %d tagged tokens; want 20 and 40", len(l.Tags), tagged)
	}
}

// What a write adds to render the token list of 50 tokens and compare it with the stored one
// (under the store's write lock).
func BenchmarkTokenListOfAWrite(b *testing.B) {
	var ts []storedToken
	for i := range 50 {
		t := entry(i, fmt.Sprintf("category %d", i%5))
		t.IconFile = strings.ToLower(t.Address) + "-0011aabb.png"
		t.UnderlyingChain = "ethereum"
		ts = append(ts, t)
	}
	byAddr := entries(ts...)
	stored, _ := nextList(nil, renderList("vaultd", 1337, "https://r.example/icons/", byAddr), time.Now())
	b.ReportAllocs()
	for b.Loop() {
		if _, changed := nextList(stored, renderList("vaultd", 1337, "https://r.example/icons/", byAddr), time.Now()); changed {
			b.Fatal("changed")
		}
	}
}
