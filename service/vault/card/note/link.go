package note

import (
	"fmt"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Home is the chain and vault an app (or a command) works with: a card link leaves them out when
// they are its, and reading one fills them in from it.
type Home struct {
	ChainID uint64
	Vault   address.Address
}

// Link is the card as a link to the app at base (https://app.example/redeem, say): the card
// string in the URL's fragment, which browsers never send to a server nor put in a Referer,
// with the chain and the vault left out where they are home's (a shorter link, a smaller QR code).
func (c Card) Link(base string, home Home) string {
	return base + "#" + c.render(home)
}

// Problem is what is wrong with a card a person holds, in the terms a page shows them.
type Problem string

const (
	Malformed  Problem = "malformed"   // not a card, or not one this version reads
	Truncated  Problem = "truncated"   // a card cut short: part of its secrets is missing
	OtherChain Problem = "other-chain" // a card for another chain than home's
	OtherVault Problem = "other-vault" // a card for another vault than home's
)

// LinkError is a card that cannot be redeemed here, and why.
type LinkError struct {
	Problem Problem
	Detail  string
}

func (e *LinkError) Error() string { return "card: " + e.Detail }

func problem(p Problem, format string, args ...any) error {
	return &LinkError{Problem: p, Detail: fmt.Sprintf(format, args...)}
}

// isHex reports whether s is 0x and digits hex digits, in any letter case.
func isHex(s string, digits int) bool {
	return len(s) == 2+digits && isHexPrefix(s)
}

// isHexPrefix reports whether s could be the start of 0x and hex digits: a value cut short.
func isHexPrefix(s string) bool {
	if s == "0" {
		return true
	}
	if len(s) < 2 || s[:2] != "0x" {
		return false
	}
	for _, c := range []byte(s[2:]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// ReadLink reads a card from a link (anything before a '#' is the app's address, and ignored) or
// from a card string, with the sponsor's voucher it carries (Card.Voucher), filling in the chain
// and the vault from home where it leaves them out. A card for another chain or vault than
// home's is refused (home's zero fields accept any), as is one cut short or not a card, or
// whose voucher does not read: each a *LinkError with its Problem.
func ReadLink(s string, home Home) (Card, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	if strings.Contains(s, "%") { // a scanner or a mail client that escaped the fragment
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	prefix := Scheme + ":v1?"
	switch {
	case s == "" || (len(s) < len(prefix) && strings.HasPrefix(prefix, s)):
		return Card{}, problem(Truncated, "only the start of a card is here")
	case strings.HasPrefix(s, Scheme+":") && !strings.HasPrefix(s, prefix):
		return Card{}, problem(Malformed, "a card of another version than v1: this app cannot read it")
	case !strings.HasPrefix(s, prefix):
		return Card{}, problem(Malformed, "not a vaultd card (want %s…)", prefix)
	}
	q, err := url.ParseQuery(s[len(prefix):])
	if err != nil {
		return Card{}, problem(Malformed, "its fields do not read")
	}
	c := Card{ChainID: home.ChainID, Vault: home.Vault}
	if v := q.Get("chain"); v != "" {
		if c.ChainID, err = strconv.ParseUint(v, 10, 64); err != nil || c.ChainID == 0 {
			return Card{}, problem(Malformed, "its chain is not a chain id")
		}
	}
	if v := q.Get("vault"); v != "" {
		if c.Vault, err = address.Parse(v); err != nil {
			return Card{}, field(v, 40, "vault")
		}
	}
	if c.ChainID == 0 || c.Vault == (address.Address{}) {
		return Card{}, problem(Malformed, "it leaves out its chain or vault: open it in the app it was made for")
	}
	if c.Token, err = address.Parse(q.Get("token")); err != nil {
		return Card{}, field(q.Get("token"), 40, "token")
	}
	var ok bool
	if c.Amount, ok = new(big.Int).SetString(q.Get("amount"), 10); !ok || c.Amount.Sign() <= 0 || c.Amount.Cmp(zk.MaxAmount) > 0 {
		if q.Get("amount") == "" {
			return Card{}, problem(Truncated, "its amount is missing")
		}
		return Card{}, problem(Malformed, "its amount is not a whole number of base units")
	}
	for _, f := range []struct {
		name string
		dst  **big.Int
	}{{"secret", &c.Secret}, {"nullifier", &c.NullifierSecret}} {
		v := q.Get(f.name)
		if !isHex(v, 64) {
			return Card{}, field(v, 64, f.name)
		}
		n, _ := new(big.Int).SetString(v[2:], 16)
		if n.Sign() <= 0 || n.Cmp(zk.ScalarField) >= 0 {
			return Card{}, problem(Malformed, "its %s is out of range", f.name)
		}
		*f.dst = n
	}
	if v := q.Get("voucher"); v != "" {
		if c.voucher, err = readVoucher(v); err != nil {
			return Card{}, err
		}
	}
	if home.ChainID != 0 && c.ChainID != home.ChainID {
		return Card{}, problem(OtherChain, "it is for chain %d, and this is chain %d", c.ChainID, home.ChainID)
	}
	if home.Vault != (address.Address{}) && c.Vault != home.Vault {
		return Card{}, problem(OtherVault, "it is for the vault %s, and this is the vault %s", c.Vault.Hex(), home.Vault.Hex())
	}
	return c, nil
}

// field is the problem of a hex field that does not read: cut short when what is there is the
// start of 0x and digits hex digits (or nothing), malformed otherwise.
func field(v string, digits int, name string) error {
	if isHexPrefix(v) && len(v) < 2+digits || v == "" {
		return problem(Truncated, "its %s is cut short", name)
	}
	return problem(Malformed, "its %s is not %d hex digits", name, digits)
}
