// Package check checks deploy/helm/vaultd without a cluster: helm's own lint, the chart
// rendered as `helm template` renders it (with the chart's defaults and with ../replicas.yaml),
// and every rendered object decoded strictly into the Kubernetes API's own Go types (and the
// Prometheus operator's for ServiceMonitor and PrometheusRule): an unknown field, a wrong type
// or a kind it does not know fails. Its tests are the check (`go -C deploy/helm/check test .`);
// it is a module of its own so that helm and the Kubernetes types stay out of the services'
// go.mod.
package check

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/releaseutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// Object is one rendered object, decoded into its API type.
type Object struct {
	Source, Kind, Name string
	Value              any // *appsv1.Deployment, *corev1.Service, …
}

// kinds are the kinds the chart may render, each with its API type: anything else fails.
var kinds = map[string]func() any{
	"apps/v1 Deployment":                      func() any { return new(appsv1.Deployment) },
	"v1 Service":                              func() any { return new(corev1.Service) },
	"v1 ServiceAccount":                       func() any { return new(corev1.ServiceAccount) },
	"v1 ConfigMap":                            func() any { return new(corev1.ConfigMap) },
	"v1 Secret":                               func() any { return new(corev1.Secret) },
	"policy/v1 PodDisruptionBudget":           func() any { return new(policyv1.PodDisruptionBudget) },
	"networking.k8s.io/v1 Ingress":            func() any { return new(networkingv1.Ingress) },
	"monitoring.coreos.com/v1 ServiceMonitor": func() any { return new(monitoringv1.ServiceMonitor) },
	"monitoring.coreos.com/v1 PrometheusRule": func() any { return new(monitoringv1.PrometheusRule) },
}

// Lint is `helm lint --strict`: its messages at warning or above, with values over the chart's.
func Lint(chartDir string, values map[string]any) []string {
	var out []string
	for _, m := range lint.All(chartDir, values, "vaultd", false).Messages {
		if m.Severity >= support.WarningSev {
			out = append(out, m.Error())
		}
	}
	return out
}

// Render is `helm template vaultd CHART -f values` on a cluster that has the Prometheus
// operator's CRDs: each rendered object, by its template.
func Render(chartDir string, values map[string]any) (map[string]string, error) {
	c, err := loader.Load(chartDir)
	if err != nil {
		return nil, err
	}
	caps := *chartutil.DefaultCapabilities
	caps.APIVersions = append(append(chartutil.VersionSet{}, caps.APIVersions...),
		"monitoring.coreos.com/v1", "monitoring.coreos.com/v1/PrometheusRule", "monitoring.coreos.com/v1/ServiceMonitor")
	vals, err := chartutil.ToRenderValues(c, values, chartutil.ReleaseOptions{Name: "vaultd", Namespace: "vaultd", IsInstall: true}, &caps)
	if err != nil {
		return nil, err
	}
	return engine.Render(c, vals)
}

// Decode splits the rendered templates into objects and decodes each strictly into its type.
func Decode(rendered map[string]string) ([]Object, error) {
	var out []Object
	var problems []string
	names := make([]string, 0, len(rendered))
	for n := range rendered {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, source := range names {
		if !strings.HasSuffix(source, ".yaml") {
			continue // NOTES.txt, helpers
		}
		docs := releaseutil.SplitManifests(rendered[source])
		keys := make([]string, 0, len(docs))
		for k := range docs {
			keys = append(keys, k)
		}
		sort.Sort(releaseutil.BySplitManifestsOrder(keys))
		for _, k := range keys {
			doc := docs[k]
			if strings.TrimSpace(doc) == "" {
				continue
			}
			o, err := decodeOne(source, []byte(doc))
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			out = append(out, o)
		}
	}
	if len(problems) > 0 {
		return out, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return out, nil
}

func decodeOne(source string, doc []byte) (Object, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return Object{}, fmt.Errorf("%s: not YAML: %v", source, err)
	}
	kind := head.APIVersion + " " + head.Kind
	newValue, ok := kinds[kind]
	if !ok {
		return Object{}, fmt.Errorf("%s: %s %q: a kind this check does not know", source, kind, head.Metadata.Name)
	}
	v := newValue()
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		return Object{}, fmt.Errorf("%s: %s %q: %v", source, head.Kind, head.Metadata.Name, err)
	}
	return Object{Source: source, Kind: head.Kind, Name: head.Metadata.Name, Value: v}, nil
}

// documented are the variables docs/*.md name (in backquotes); Env checks every variable a pod
// is given against them, so that the chart configures the services by the names they read.
func documented(root string) (map[string]bool, error) {
	paths, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	re := regexp.MustCompile("`([A-Z][A-Z0-9_]+)`")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
	}
	return names, nil
}

// kmsVariables are the AWS KMS signer's (OPERATOR_KMS_KEY_ID, …) and the AWS SDK's, which the
// chart sets for keys in KMS.
var kmsVariables = regexp.MustCompile(`^(OPERATOR_KMS_KEY_IDS?|FAUCET_KMS_KEY_ID|AWS_[A-Z_]+)$`)

// Env lists the variables of the rendered Deployments that no service reads: neither in docs/
// (X_FILE is X read from a file, for any secret X) nor the KMS ones.
func Env(root string, objects []Object) ([]string, error) {
	names, err := documented(root)
	if err != nil {
		return nil, err
	}
	var unknown []string
	for _, o := range objects {
		d, ok := o.Value.(*appsv1.Deployment)
		if !ok {
			continue
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			for _, e := range c.Env {
				if !names[e.Name] && !names[strings.TrimSuffix(e.Name, "_FILE")] && !kmsVariables.MatchString(e.Name) {
					unknown = append(unknown, fmt.Sprintf("%s %s: %s", o.Name, c.Name, e.Name))
				}
			}
		}
	}
	return unknown, nil
}

// Alerts checks that the chart's copy of the alert rules is dashboards/alerts.yaml as it is, and
// that each rendered PrometheusRule holds those rules.
func Alerts(root string, objects []Object) error {
	want, err := os.ReadFile(filepath.Join(root, "dashboards", "alerts.yaml"))
	if err != nil {
		return err
	}
	copied, err := os.ReadFile(filepath.Join(root, "deploy", "helm", "vaultd", "files", "alerts.yaml"))
	if err != nil {
		return err
	}
	if !bytes.Equal(want, copied) {
		return fmt.Errorf("deploy/helm/vaultd/files/alerts.yaml is not dashboards/alerts.yaml: cp dashboards/alerts.yaml deploy/helm/vaultd/files/")
	}
	var spec monitoringv1.PrometheusRuleSpec
	if err := yaml.UnmarshalStrict(want, &spec); err != nil {
		return fmt.Errorf("dashboards/alerts.yaml as a PrometheusRule's spec: %v", err)
	}
	wantJSON, _ := yaml.Marshal(spec)
	for _, o := range objects {
		if r, ok := o.Value.(*monitoringv1.PrometheusRule); ok {
			got, _ := yaml.Marshal(r.Spec)
			if !bytes.Equal(got, wantJSON) {
				return fmt.Errorf("PrometheusRule %s's rules are not dashboards/alerts.yaml's", o.Name)
			}
		}
	}
	return nil
}
