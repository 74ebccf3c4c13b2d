package relayer_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
)

// Every vaultd_relayer_* metric a dashboard or alert rule names is exported by the relayer.
func TestDashboardsUseRealMetrics(t *testing.T) {
	c := devchaintest.Start(t)
	s := startRelayer(t, c, map[string]string{"RATE_LIMIT_PER_IP": "1/1m"})
	_, req := request(t, c, devUsers(c, 0), 3)
	reveal(t, s, req) // mined: gas, stages, outcome
	reveal(t, s, req) // over the per-IP limit: rate_limited_total
	exported := scrape(t, s)
	files, _ := filepath.Glob("../../dashboards/*")
	name := regexp.MustCompile(`vaultd_relayer_[a-z_]+`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.yaml") {
			continue
		}
		data, _ := os.ReadFile(f)
		for _, n := range name.FindAllString(string(data), -1) {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				n = strings.TrimSuffix(n, suffix)
			}
			found++
			if !strings.Contains(exported, "# TYPE "+n+" ") {
				t.Errorf("%s names %s, which the relayer does not export", filepath.Base(f), n)
			}
		}
	}
	if found < 10 {
		t.Fatalf("only %d relayer metric references found in dashboards/", found)
	}
}
