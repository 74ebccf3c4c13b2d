package registry_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
)

// Every vaultd_registry_*, vaultd_http_* and vaultd_chain_* metric that a dashboard or an alert
// rule names is one the registry exports, so a renamed metric cannot silently blank a panel or
// an alert.
func TestDashboardsUseRealMetrics(t *testing.T) {
	s := startServer(t, "", nil)
	upsert(t, s, registryapi.TokenInput{Address: testChain.Tokens[0].Address.Hex()})
	upsert(t, s, registryapi.TokenInput{Address: testChain.Contracts.TokenFactory.Hex()}) // reverts: chain call errors
	resp, err := http.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	exported, _ := io.ReadAll(resp.Body)
	resp.Body.Close()

	files, _ := filepath.Glob("../../dashboards/*")
	names := map[string]string{}
	name := regexp.MustCompile(`vaultd_(registry|http|chain)_[a-z_]+`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range name.FindAllString(string(data), -1) {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				n = strings.TrimSuffix(n, suffix)
			}
			names[n] = filepath.Base(f)
		}
	}
	if len(names) < 5 {
		t.Fatalf("found only %d metric names in dashboards/: %v", len(names), names)
	}
	for n, file := range names {
		if !strings.Contains(string(exported), "# TYPE "+n+" ") {
			t.Errorf("%s names %s, which the registry does not export", file, n)
		}
	}
}
