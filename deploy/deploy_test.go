// Package deploy holds the example deployment (compose.yaml, prometheus.yml, Grafana
// provisioning); its test checks them against the Dockerfile, the services' configuration and
// the shipped dashboards, as far as a machine without a container engine can.
package deploy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/registry"
	"github.com/seed018cc74c/vaultd/service/relayer"
)

type compose struct {
	Services map[string]struct {
		Build *struct {
			Context, Target string
		}
		Image       string
		Environment map[string]string
		Ports       []string
		Volumes     []string
		Secrets     []string
	}
	Secrets map[string]struct{ File string }
}

func readCompose(t *testing.T) compose {
	t.Helper()
	data, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

// testValues stand in for what an operator puts in .env.
var testValues = map[string]string{
	"RPC_URL": "http://127.0.0.1:8545", "CHAIN_ID": "1337", "GRAFANA_ADMIN_PASSWORD": "x",
	"COMMIT_REVEAL_VAULT_ADDRESS": "0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2",
	"NULLIFIER_REGISTRY_ADDRESS":  "0x1111111111111111111111111111111111111111",
	"COMMITMENT_TREE_ADDRESS":     "0x2222222222222222222222222222222222222222",
}

var interpolation = regexp.MustCompile(`\$\{([A-Z_]+)(:\?[^}]*|:-([^}]*))?\}`)

// Each service's environment in compose.yaml, with .env's values and the secret files in place,
// is a configuration the service loads without a complaint, and every variable it sets is one
// the service reads (a misspelt name would be silently ignored otherwise). Every image is a
// target of the Dockerfile.
func TestServicesLoadTheirComposeEnvironment(t *testing.T) {
	c := readCompose(t)
	dockerfile, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	secrets := t.TempDir()
	files := map[string]string{
		"/run/secrets/admin_key":      "0123456789abcdef0123456789abcdef",
		"/run/secrets/operator_key":   "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
		"/run/secrets/faucet_key":     "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
		"/keys/verification_key.json": "",
	}
	for name, content := range files {
		if content == "" {
			continue
		}
		path := filepath.Join(secrets, filepath.Base(name))
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		files[name] = path
	}
	files["/keys/verification_key.json"] = "../gen/zk/devkeys/verification_key.json"
	load := map[string]func(func(string) string) error{
		"registry": func(g func(string) string) error { _, err := registry.LoadConfig(g); return err },
		"relayer":  func(g func(string) string) error { _, err := relayer.LoadConfig(g); return err },
		"faucet":   func(g func(string) string) error { _, err := faucet.LoadConfig(g); return err },
		"indexer":  func(g func(string) string) error { _, err := indexer.LoadConfig(g); return err },
	}
	for name, loadConfig := range load {
		svc, ok := c.Services[name]
		if !ok {
			t.Errorf("compose.yaml has no %s", name)
			continue
		}
		if svc.Build == nil || svc.Build.Context != ".." || !strings.Contains(string(dockerfile), "\nFROM service AS "+svc.Build.Target+"\n") || svc.Build.Target != name {
			t.Errorf("%s: build %+v is not the Dockerfile's %s target", name, svc.Build, name)
		}
		env := map[string]string{}
		for k, v := range svc.Environment {
			v = interpolation.ReplaceAllStringFunc(v, func(m string) string {
				sub := interpolation.FindStringSubmatch(m)
				if strings.HasPrefix(sub[2], ":-") {
					return sub[3]
				}
				if tv, ok := testValues[sub[1]]; ok {
					return tv
				}
				t.Errorf("%s: %s needs %s, which the test does not know", name, k, sub[1])
				return ""
			})
			if f, ok := files[v]; ok {
				v = f
			}
			env[k] = v
		}
		read := map[string]bool{}
		getenv := func(k string) string { read[k] = true; return env[k] }
		if err := loadConfig(getenv); err != nil {
			t.Errorf("%s: the compose environment does not load:\n%v", name, err)
		}
		for k := range env {
			if !read[k] && !read[strings.TrimSuffix(k, "_FILE")] {
				t.Errorf("%s: compose sets %s, which the service never reads", name, k)
			}
		}
	}
}

// Prometheus scrapes each service by its compose name and port under the job name the alert
// rules and dashboards use; Grafana's provisioning reads the directory the dashboards are
// mounted at, and the rules file is the shipped one.
func TestMonitoringMatchesTheServices(t *testing.T) {
	c := readCompose(t)
	data, err := os.ReadFile("prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var prom struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			JobName       string                       `yaml:"job_name"`
			StaticConfigs []struct{ Targets []string } `yaml:"static_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(data, &prom); err != nil {
		t.Fatal(err)
	}
	jobs := map[string][]string{}
	for _, s := range prom.ScrapeConfigs {
		for _, sc := range s.StaticConfigs {
			jobs[s.JobName] = append(jobs[s.JobName], sc.Targets...)
		}
	}
	for name, port := range map[string]string{"registry": "3009", "relayer": "3010", "faucet": "3011", "indexer": "3012"} {
		if !slices.Contains(jobs["vaultd-"+name], name+":"+port) {
			t.Errorf("prometheus.yml does not scrape %s:%s as vaultd-%s", name, port, name)
		}
		if !slices.Contains(c.Services[name].Ports, port+":"+port) {
			t.Errorf("%s does not publish %s", name, port)
		}
	}
	if !slices.Contains(prom.RuleFiles, "alerts.yaml") || !slices.Contains(c.Services["prometheus"].Volumes, "../dashboards/alerts.yaml:/etc/prometheus/alerts.yaml:ro") {
		t.Error("Prometheus does not load the shipped alerts.yaml")
	}
	prov, err := os.ReadFile("grafana/provisioning/dashboards/vaultd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(prov), "path: /var/lib/grafana/dashboards/vaultd") ||
		!slices.Contains(c.Services["grafana"].Volumes, "../dashboards:/var/lib/grafana/dashboards/vaultd:ro") {
		t.Error("Grafana's provisioning does not read the mounted dashboards")
	}
	for _, s := range c.Secrets {
		if !strings.HasPrefix(s.File, "./secrets/") {
			t.Errorf("secret file %s outside deploy/secrets (which .gitignore keeps out of the repository)", s.File)
		}
	}
}
