package devstack

import "testing"

// Listening on every interface (a container), the URLs devstack prints and the registry's icon
// URLs name PUBLIC_HOST (default localhost), never 0.0.0.0 or [::].
func TestPublicURL(t *testing.T) {
	for _, c := range []struct{ public, addr, want string }{
		{"", "127.0.0.1:3009", "http://127.0.0.1:3009"},
		{"", "0.0.0.0:3009", "http://localhost:3009"},
		{"", "[::]:3010", "http://localhost:3010"},
		{"vaultd.test", "0.0.0.0:8545", "http://vaultd.test:8545"},
		{"vaultd.test", "10.0.0.5:3011", "http://10.0.0.5:3011"},
	} {
		if got := (Config{PublicHost: c.public}).publicURL(c.addr); got != c.want {
			t.Errorf("%q %s: %s, want %s", c.public, c.addr, got, c.want)
		}
	}
}
