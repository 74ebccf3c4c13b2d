package edge

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Proxies are the proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES): addresses and
// prefixes, and host names (a compose service's name, say: "proxy"), which stand for the
// addresses they resolve to. Trusting a whole private range instead would let any container on
// the network claim any client address.
type Proxies struct {
	Prefixes []netip.Prefix
	Hosts    []string
}

// hostsRefresh is how long host names' addresses are kept before they are looked up again.
const hostsRefresh = 30 * time.Second

// trustedSet is Proxies with their host names resolved: looked up at the first request (a
// proxy started after the service, as compose starts it, is found then), and again in the
// background every hostsRefresh as requests come. A name that does not resolve stands for
// nothing until it does.
type trustedSet struct {
	static []netip.Prefix
	hosts  []string

	mu         sync.Mutex
	all        []netip.Prefix // static and resolved, replaced (never changed) at each resolve
	at         time.Time
	refreshing bool
}

func newTrustedSet(p Proxies) *trustedSet {
	return &trustedSet{static: p.Prefixes, hosts: p.Hosts}
}

// prefixes are the trusted prefixes now.
func (t *trustedSet) prefixes() []netip.Prefix {
	if len(t.hosts) == 0 {
		return t.static
	}
	t.mu.Lock()
	first := t.at.IsZero()
	stale := !first && time.Since(t.at) > hostsRefresh && !t.refreshing
	if stale {
		t.refreshing = true
	}
	t.mu.Unlock()
	switch {
	case first:
		t.resolve()
	case stale:
		go t.resolve()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.all
}

// resolve looks every host name up (2 s at most) and keeps what they resolve to.
func (t *trustedSet) resolve() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var out []netip.Prefix
	for _, h := range t.hosts {
		addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", h)
		if err != nil {
			continue
		}
		for _, a := range addrs {
			a = a.Unmap()
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	all := append(append([]netip.Prefix(nil), t.static...), out...)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.all, t.at, t.refreshing = all, time.Now(), false
}

// isHostName reports whether s is a DNS name (letters, digits, hyphens and dots); LoadProxies
// refuses one that ends in a number (endsInNumber: a mistyped IP address) before asking.
func isHostName(s string) bool {
	if s == "" || len(s) > 253 || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// endsInNumber reports whether the last dot-separated label of s is all digits. No host name
// does (no top-level domain is numeric, RFC 3696 section 2, and the WHATWG URL standard reads
// such a host as an IPv4 address): s is an IP address, mistyped if it does not parse as one.
func endsInNumber(s string) bool {
	last := s[strings.LastIndex(s, ".")+1:]
	return last != "" && strings.Trim(last, "0123456789") == ""
}
