package check

import (
	"os"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

const (
	root     = "../../.."
	chartDir = "../vaultd"
)

// required are the settings the chart has no default for (the chain and the contracts): with
// them alone, the chart's defaults are a deployment of one pod a service.
var required = map[string]any{
	"chain": map[string]any{"rpcUrl": "https://rpc.example.org", "chainId": 5446},
	"contracts": map[string]any{
		"vault":             "0x0000000000000000000000000000000000000001",
		"nullifierRegistry": "0x0000000000000000000000000000000000000001",
		"commitmentTree":    "0x0000000000000000000000000000000000000001",
	},
}

// The chart, with its defaults and with the replicated example: lint clean, every object of the
// Kubernetes API's types, the services configured by the variables they read, the admin
// listeners out of the ingress's reach, and the alert rules dashboards/alerts.yaml's.
func TestChart(t *testing.T) {
	b, err := os.ReadFile("../replicas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var replicas map[string]any
	if err := yaml.Unmarshal(b, &replicas); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		values         map[string]any
		pods           map[string]int // per service
		monitors, rule int
	}{
		{"defaults", required, map[string]int{"registry": 1, "relayer": 1, "faucet": 1, "indexer": 1}, 0, 1},
		{"replicas.yaml", replicas, map[string]int{"registry": 2, "relayer": 3, "faucet": 2, "indexer": 2}, 4, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, m := range Lint(chartDir, c.values) {
				t.Errorf("helm lint: %s", m)
			}
			rendered, err := Render(chartDir, c.values)
			if err != nil {
				t.Fatal(err)
			}
			objects, err := Decode(rendered)
			if err != nil {
				t.Fatal(err)
			}
			unknown, err := Env(root, objects)
			if err != nil || len(unknown) > 0 {
				t.Errorf("variables no service reads: %v %v", unknown, err)
			}
			if err := Alerts(root, objects); err != nil {
				t.Error(err)
			}
			pods, budgets, monitors, rules := map[string]int{}, map[string]bool{}, 0, 0
			admin := map[string]bool{}
			for _, o := range objects {
				switch v := o.Value.(type) {
				case *appsv1.Deployment:
					svc := v.Spec.Template.Labels["app.kubernetes.io/component"]
					pods[svc] += int(*v.Spec.Replicas)
					ready := "/ready"
					if svc == "registry" {
						ready = "/health" // it has no /ready
					}
					if p := v.Spec.Template.Spec.Containers[0].ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != ready {
						t.Errorf("%s: readiness %+v, want GET %s", o.Name, p, ready)
					}
					if r := v.Spec.Template.Spec.Containers[0].Resources.Requests; r.Cpu().IsZero() || r.Memory().IsZero() {
						t.Errorf("%s: no CPU or memory request", o.Name)
					}
				case *corev1.Service:
					for _, p := range v.Spec.Ports {
						if p.Name == "admin" {
							admin[o.Name] = true
						}
					}
				case *policyv1.PodDisruptionBudget:
					budgets[v.Spec.Selector.MatchLabels["app.kubernetes.io/component"]] = true
				case *networkingv1.Ingress:
					for _, r := range v.Spec.Rules {
						for _, p := range r.HTTP.Paths {
							if s := p.Backend.Service; s == nil || admin[s.Name] || strings.HasSuffix(s.Name, "-admin") || s.Port.Name != "http" {
								t.Errorf("the ingress routes %s to %+v: want a public Service's http port", r.Host, s)
							}
						}
					}
				case *monitoringv1.ServiceMonitor:
					monitors++
				case *monitoringv1.PrometheusRule:
					rules++
				}
			}
			for svc, want := range c.pods {
				if pods[svc] != want || budgets[svc] != (want > 1) {
					t.Errorf("%s: %d pods, a disruption budget %v: want %d pods, and a budget with more than one", svc, pods[svc], budgets[svc], want)
				}
			}
			if len(admin) != 2 {
				t.Errorf("admin Services %v: want the relayer's and the faucet's", admin)
			}
			if monitors != c.monitors || rules != c.rule {
				t.Errorf("%d ServiceMonitors, %d PrometheusRules: want %d, %d", monitors, rules, c.monitors, c.rule)
			}
			t.Logf("%d objects", len(objects))
		})
	}
}

// An unknown field, a field of the wrong type or a kind the check does not know fails it.
func TestStrict(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replica: 2}\n", `unknown field "replica"`},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {ports: [{port: http}]}\n", "cannot unmarshal"},
		{"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x}\n", "a kind this check does not know"},
		{"apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: x}\nspec: {groups: [{name: g, rule: []}]}\n", `unknown field "rule"`},
	} {
		if _, err := decodeOne("t.yaml", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
	if unknown, err := Env(root, []Object{{Name: "x", Value: &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "relayer", Env: []corev1.EnvVar{{Name: "RPC_URL"}, {Name: "OPERATOR_PRIVATE_KEY_FILE"}, {Name: "OPERATOR_KMS_KEY_ID"}, {Name: "OPERATOR_KEY"}}}},
	}}}}}}); err != nil || len(unknown) != 1 || !strings.HasSuffix(unknown[0], "OPERATOR_KEY") {
		t.Errorf("unknown variables %v, %v: want OPERATOR_KEY alone", unknown, err)
	}
}
