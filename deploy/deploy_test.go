// Package deploy holds the example deployment (compose.yaml, prometheus.yml, Grafana
// provisioning); its test checks them against the Dockerfile, the services' configuration and
// the shipped dashboards, and that every image is pinned by digest; .ci/compose runs compose.yaml.
package deploy

import (
	"fmt"
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

func readCompose(t *testing.T, file string) compose {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}

// composeFiles are the deployments: one process per service, and replicated.
var composeFiles = []string{"compose.yaml", "compose.replicas.yaml"}

// testValues stand in for what an operator puts in .env.
var testValues = map[string]string{
	"RPC_URL": "http://127.0.0.1:8545", "CHAIN_ID": "1337", "GRAFANA_ADMIN_PASSWORD": "x",
	"COMMIT_REVEAL_VAULT_ADDRESS": "0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2",
	"NULLIFIER_REGISTRY_ADDRESS":  "0x1111111111111111111111111111111111111111",
	"COMMITMENT_TREE_ADDRESS":     "0x2222222222222222222222222222222222222222",
	"POSTGRES_PASSWORD":           "pw",
	"REDIS_PASSWORD":              "rpw",
}

var interpolation = regexp.MustCompile(`\$\{([A-Z_]+)(:\?[^}]*|:-([^}]*))?\}`)

// Each service's environment in each compose file, with .env's values and the secret files in
// place, is a configuration the service loads without a complaint, and every variable it sets
// is one the service reads (a misspelt name would be silently ignored otherwise). Every image
// is a target of the Dockerfile.
func TestServicesLoadTheirComposeEnvironment(t *testing.T) {
	for _, file := range composeFiles {
		t.Run(file, func(t *testing.T) { testComposeEnvironment(t, file) })
	}
}

func testComposeEnvironment(t *testing.T, file string) {
	c := readCompose(t, file)
	dockerfile, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	secrets := t.TempDir()
	files := map[string]string{
		"/run/secrets/admin_key":         "0123456789abcdef0123456789abcdef",
		"/run/secrets/operator_key":      "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
		"/run/secrets/faucet_key":        "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
		"/run/secrets/faucet_key_a":      "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
		"/run/secrets/faucet_key_b":      "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
		"/run/secrets/faucet_pow_secret": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"/run/secrets/operator_keys": "# three replicas\n59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d\n" +
			"47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a\n8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba\n",
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
	built := map[string]bool{}
	for name, svc := range c.Services {
		if svc.Build == nil {
			continue
		}
		loadConfig, ok := load[svc.Build.Target]
		if svc.Build.Context != ".." || !strings.Contains(string(dockerfile), "\nFROM service AS "+svc.Build.Target+"\n") || !ok {
			t.Errorf("%s: build %+v is not one of the Dockerfile's service targets", name, svc.Build)
			continue
		}
		built[svc.Build.Target] = true
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
	for name := range load {
		if !built[name] {
			t.Errorf("%s runs no %s", file, name)
		}
	}
}

// Prometheus scrapes each service by its compose name and port under the job name the alert
// rules and dashboards use; Grafana's provisioning reads the directory the dashboards are
// mounted at, and the rules file is the shipped one.
func TestMonitoringMatchesTheServices(t *testing.T) {
	c := readCompose(t, "compose.yaml")
	jobs, ruleFiles := readPrometheus(t, "prometheus.yml")
	for name, port := range map[string]string{"registry": "3009", "relayer": "3010", "faucet": "3011", "indexer": "3012"} {
		if !slices.Contains(jobs["vaultd-"+name], name+":"+port) {
			t.Errorf("prometheus.yml does not scrape %s:%s as vaultd-%s", name, port, name)
		}
		if !slices.Contains(c.Services[name].Ports, port+":"+port) {
			t.Errorf("%s does not publish %s", name, port)
		}
	}
	hostPorts := map[string]string{}
	for _, name := range []string{"relayer", "faucet"} {
		operatorsOnly(t, name, c.Services[name].Environment, c.Services[name].Ports, hostPorts)
	}
	if !slices.Contains(ruleFiles, "alerts.yaml") || !slices.Contains(c.Services["prometheus"].Volumes, "../dashboards/alerts.yaml:/etc/prometheus/alerts.yaml:ro") {
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
	for _, file := range composeFiles {
		for _, s := range readCompose(t, file).Secrets {
			if !strings.HasPrefix(s.File, "./secrets/") {
				t.Errorf("%s: secret file %s outside deploy/secrets (which .gitignore keeps out of the repository)", file, s.File)
			}
		}
	}
}

// readPrometheus reads a Prometheus configuration: each job's targets (host:port, static or by
// DNS service discovery) and the rule files.
func readPrometheus(t *testing.T, file string) (targets map[string][]string, ruleFiles []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var prom struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			JobName       string                       `yaml:"job_name"`
			StaticConfigs []struct{ Targets []string } `yaml:"static_configs"`
			DNSSDConfigs  []struct {
				Names []string
				Type  string
				Port  int
			} `yaml:"dns_sd_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(data, &prom); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	targets = map[string][]string{}
	for _, s := range prom.ScrapeConfigs {
		for _, sc := range s.StaticConfigs {
			targets[s.JobName] = append(targets[s.JobName], sc.Targets...)
		}
		for _, d := range s.DNSSDConfigs {
			for _, n := range d.Names {
				targets[s.JobName] = append(targets[s.JobName], fmt.Sprintf("%s:%d", n, d.Port))
			}
		}
	}
	return targets, prom.RuleFiles
}

// The replicated deployment: Prometheus finds every replica of each service (DNS of the
// service, or each named faucet) under the job names the rules use, loads the shipped rules;
// the proxy publishes each service's port and forwards to its replicas; the replicated services
// share one Postgres and one Redis.
func TestReplicatedMonitoringAndProxyMatchTheServices(t *testing.T) {
	c := readCompose(t, "compose.replicas.yaml")
	targets, ruleFiles := readPrometheus(t, "prometheus.replicas.yml")
	caddy, err := os.ReadFile("Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	ports := map[string]string{"registry": "3009", "relayer": "3010", "faucet": "3011", "indexer": "3012"}
	names, hostPorts := map[string]string{}, map[string]string{}
	for name, svc := range c.Services {
		if svc.Build == nil {
			continue
		}
		port := ports[svc.Build.Target]
		if !slices.Contains(targets["vaultd-"+svc.Build.Target], name+":"+port) {
			t.Errorf("prometheus.replicas.yml does not scrape %s:%s as vaultd-%s", name, port, svc.Build.Target)
		}
		if !strings.Contains(string(caddy), name+" "+port) && !strings.Contains(string(caddy), name+":"+port) {
			t.Errorf("the Caddyfile does not forward to %s:%s", name, port)
		}
		if svc.Build.Target == "relayer" || svc.Build.Target == "faucet" {
			pausable(t, name, svc.Environment, string(caddy), port, names)
			operatorsOnly(t, name, svc.Environment, svc.Ports, hostPorts)
		} else if len(svc.Ports) > 0 {
			t.Errorf("%s publishes %v: replicas are reached through the proxy", name, svc.Ports)
		}
	}
	for _, port := range []string{"3010", "3011"} {
		block := string(caddy)[strings.Index(string(caddy), "\n:"+port+" {"):]
		block = block[:strings.Index(block, "\n}\n")]
		if !strings.Contains(block, "\timport no_admin\n") || !strings.Contains(string(caddy), "handle /admin* {") ||
			!strings.Contains(string(caddy), "respond `{\"error\":\"no such endpoint\",\"code\":\"NOT_FOUND\"}` 404") {
			t.Errorf("the proxy's :%s forwards /admin/*: the operator's routes would reach whichever replica it picks", port)
		}
	}
	for _, port := range ports {
		if !slices.Contains(c.Services["proxy"].Ports, port+":"+port) || !strings.Contains(string(caddy), "\n:"+port+" {") {
			t.Errorf("the proxy does not publish %s", port)
		}
	}
	if !slices.Contains(ruleFiles, "alerts.yaml") || !slices.Contains(c.Services["prometheus"].Volumes, "../dashboards/alerts.yaml:/etc/prometheus/alerts.yaml:ro") ||
		!slices.Contains(c.Services["prometheus"].Volumes, "./prometheus.replicas.yml:/etc/prometheus/prometheus.yml:ro") {
		t.Error("Prometheus does not load prometheus.replicas.yml and the shipped alerts.yaml")
	}
}

// pausable checks a replica an operator can pause (POST /admin/pause): it has the admin key, a
// REPLICA_NAME of its own (its pause is kept under it, across re-creations that change the
// host name), and the proxy checks its /ready, so that a paused replica leaves the rotation.
func pausable(t *testing.T, name string, env map[string]string, caddy, port string, names map[string]string) {
	t.Helper()
	if env["ADMIN_API_KEY_FILE"] != "/run/secrets/admin_key" {
		t.Errorf("%s has no admin key: its operator's routes answer 404", name)
	}
	replica := env["REPLICA_NAME"]
	if other, taken := names[replica]; replica == "" || taken {
		t.Errorf("%s: REPLICA_NAME %q is empty or also %s's", name, replica, other)
	}
	names[replica] = name
	block := caddy[strings.Index(caddy, "\n:"+port+" {"):]
	block = block[:strings.Index(block, "\n}\n")]
	if !strings.Contains(block, name+":"+port) || !strings.Contains(block, "health_uri /ready") {
		t.Errorf("the proxy does not check %s's /ready: a paused %s would keep getting requests", name, name)
	}
}

// operatorsOnly checks that a relayer's or a faucet's operator routes are on a listener of their
// own (ADMIN_ADDR), published on the host's loopback alone (one host port per replica, so that
// the operator reaches each), and that nothing else of it is published but its public port.
func operatorsOnly(t *testing.T, name string, env map[string]string, ports []string, hostPorts map[string]string) {
	t.Helper()
	addr := env["ADMIN_ADDR"]
	if !strings.HasPrefix(addr, ":") {
		t.Errorf("%s: ADMIN_ADDR %q: its operator's routes must be on a listener of their own (\":port\")", name, addr)
		return
	}
	published := false
	for _, p := range ports {
		parts := strings.Split(p, ":")
		switch {
		case len(parts) == 3 && parts[2] == addr[1:] && parts[0] == "127.0.0.1":
			if other, taken := hostPorts[parts[1]]; taken {
				t.Errorf("%s publishes its operator's routes on 127.0.0.1:%s, as %s does", name, parts[1], other)
			}
			hostPorts[parts[1]], published = name, true
		case len(parts) == 2 && parts[0] == parts[1] && parts[1] != addr[1:]: // the public port (compose.yaml)
		default:
			t.Errorf("%s publishes %q: only its public port, and its operator's routes on 127.0.0.1", name, p)
		}
	}
	if !published {
		t.Errorf("%s does not publish its operator's routes (%s) on 127.0.0.1: the operator cannot reach them", name, addr)
	}
}

// pinned is a fully qualified image reference pinned by digest: registry host, path, an
// optional tag, and @sha256: with 64 hex digits.
var pinned = regexp.MustCompile(`^[a-z0-9.-]+\.[a-z]+/[a-z0-9._/-]+(:[A-Za-z0-9._-]+)?@sha256:[0-9a-f]{64}$`)

// Every image an operator pulls is fully qualified (buildah and podman resolve no short names)
// and pinned by digest, in both compose files and as the Dockerfile's defaults; each can be
// replaced by a variable (a mirror, or CI's stand-ins). The services' own images are built
// from the Dockerfile under the names .ci/images gives them.
func TestImagesArePinnedByDigest(t *testing.T) {
	for _, file := range composeFiles {
		for name, svc := range readCompose(t, file).Services {
			if svc.Build != nil {
				if svc.Image != "vaultd-"+svc.Build.Target {
					t.Errorf("%s: %s builds %s but names its image %q", file, name, svc.Build.Target, svc.Image)
				}
				continue
			}
			sub := interpolation.FindStringSubmatch(svc.Image)
			if sub == nil || sub[0] != svc.Image || !strings.HasPrefix(sub[2], ":-") {
				t.Errorf("%s: %s's image %q is not ${VARIABLE:-default}", file, name, svc.Image)
				continue
			}
			if !pinned.MatchString(sub[3]) {
				t.Errorf("%s: %s's image %s is not fully qualified and pinned by digest", file, name, sub[3])
			}
		}
	}
	dockerfile, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	args := regexp.MustCompile(`(?m)^ARG ([A-Z_]+_IMAGE)=(\S+)$`).FindAllStringSubmatch(string(dockerfile), -1)
	if len(args) != 2 {
		t.Errorf("the Dockerfile has %d image arguments, want GO_IMAGE and RUNTIME_IMAGE", len(args))
	}
	for _, a := range args {
		if !pinned.MatchString(a[2]) {
			t.Errorf("Dockerfile: %s=%s is not fully qualified and pinned by digest", a[1], a[2])
		}
	}
}
