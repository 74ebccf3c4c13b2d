package edge

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/config"
)

// TRUSTED_PROXIES may name the proxy by host name (a compose service's name) instead of
// trusting a whole private range: X-Forwarded-For is believed from the addresses the name
// resolves to, and only from them.
func TestATrustedProxyByHostName(t *testing.T) {
	e := config.NewEnv(func(k string) string {
		if k == "TRUSTED_PROXIES" {
			return "localhost, 10.9.0.0/16"
		}
		return ""
	})
	p := LoadProxies(e, "TRUSTED_PROXIES")
	if err := e.Err(); err != nil || len(p.Hosts) != 1 || len(p.Prefixes) != 1 {
		t.Fatalf("proxies %+v, %v", p, err)
	}
	trusted := newTrustedSet(p)
	for remote, want := range map[string]string{"127.0.0.1:5555": "203.0.113.9", "192.0.2.1:5555": "192.0.2.1", "10.9.1.1:80": "203.0.113.9"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = remote
		req.Header.Set("X-Forwarded-For", "203.0.113.9")
		var info requestInfo
		resolveClient(trusted, req, &info)
		if got := info.ip; got.String() != want {
			t.Errorf("from %s: client %s, want %s", remote, got, want)
		}
	}
	bad := config.NewEnv(func(k string) string { return map[string]string{"TRUSTED_PROXIES": "proxy, not a host!"}[k] })
	if LoadProxies(bad, "TRUSTED_PROXIES"); bad.Err() == nil || !strings.Contains(bad.Err().Error(), "not a host!") {
		t.Fatalf("a bad entry: %v", bad.Err())
	}
}
