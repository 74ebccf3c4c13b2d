package deployment_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/service/kit/deployment"
)

func write(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "deployment.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The file's values stand under what is not set; a variable set explicitly wins; a
// verification_key.json beside the file is VERIFICATION_KEY_FILE.
func TestEnvFromADeploymentFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := write(t, dir, `{"chainId":5446,"startBlock":12,"contracts":{"vault":"0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2","commitmentTree":"0x2222222222222222222222222222222222222222","nullifierRegistry":"0x1111111111111111111111111111111111111111"},"tokens":[{"address":"0x3333333333333333333333333333333333333333","symbol":"A"},{"address":"0x4444444444444444444444444444444444444444"}]}`)
	os.WriteFile(filepath.Join(dir, "verification_key.json"), []byte("{}"), 0o644)
	set := map[string]string{"DEPLOYMENT_FILE": path, "START_BLOCK": "40"}
	get, err := deployment.Env(func(k string) string { return set[k] })
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"CHAIN_ID": "5446", "START_BLOCK": "40", "COMMIT_REVEAL_VAULT_ADDRESS": "0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2",
		"COMMITMENT_TREE_ADDRESS": "0x2222222222222222222222222222222222222222", "NULLIFIER_REGISTRY_ADDRESS": "0x1111111111111111111111111111111111111111",
		"TOKEN_FACTORY_ADDRESS": "", "VERIFICATION_KEY_FILE": filepath.Join(dir, "verification_key.json"),
		"VAULT_TOKENS": "0x3333333333333333333333333333333333333333,0x4444444444444444444444444444444444444444",
	} {
		if got := get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// A file that is not a deployment's is refused, saying what is wrong.
func TestABadDeploymentFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for body, want := range map[string]string{
		`not json`: "not a deployment file",
		`{"contracts":{"vault":"0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2"}}`: "no chainId",
		`{"chainId":1,"contracts":{"vault":"nope"}}`:                           "contracts.vault is not an address",
		`{"chainId":1,"contracts":{}}`:                                         "no contracts.vault",
		`{"chainId":1,"contracts":{"vault":"0x1"},"tokens":[{"address":"x"}]}`: "tokens[0].address is not an address",
	} {
		path := write(t, dir, body)
		if _, err := deployment.Env(func(k string) string { return map[string]string{"DEPLOYMENT_FILE": path}[k] }); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	if _, err := deployment.Env(func(k string) string { return map[string]string{"DEPLOYMENT_FILE": filepath.Join(dir, "none.json")}[k] }); err == nil {
		t.Error("a missing file: no error")
	}
}
