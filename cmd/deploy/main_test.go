package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// The command as an operator types it: a ceremony's keys directory, an operator, an existing
// token; the deployment file every service reads, the key beside it, the variables on stdout;
// run again, nothing sent.
func TestDeployCommand(t *testing.T) {
	c := devchaintest.Start(t)
	ctx := context.Background()
	dir := t.TempDir()
	key, err := devchain.FundedKey(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "deployer.key")
	os.WriteFile(keyFile, []byte(hex.EncodeToString(crypto.FromECDSA(key))+"\n"), 0o600)
	keysDir := filepath.Join(dir, "keys") // what cmd/ceremony finalize leaves: here the dev key
	os.Mkdir(keysDir, 0o755)
	vk, _ := zk.DevVerificationKey()
	vkJSON, _ := json.Marshal(vk.JSON())
	os.WriteFile(filepath.Join(keysDir, zk.VerificationKeyJSONFile), vkJSON, 0o644)
	out := filepath.Join(dir, "deployment.json")
	operator := c.Accounts.Operator.Address.Hex()
	args := []string{"--rpc-url", c.RPCURL, "--deployer-key-file", keyFile, "--out", out, "--keys", keysDir,
		"--operator", operator, "--tokens", c.Tokens[0].Address.Hex()}

	var stdout, stderr bytes.Buffer
	if err := run(ctx, args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "DEV KEYS") {
		t.Fatal("a ceremony's keys were taken for the dev keys")
	}
	if !strings.Contains(stderr.String(), "5 steps, 5 transactions sent") {
		t.Fatalf("first run: %s", stderr.String())
	}
	f, err := deployment.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "COMMIT_REVEAL_VAULT_ADDRESS="+f.Contracts["vault"]) || !strings.Contains(stdout.String(), "DEPLOYMENT_FILE="+out) {
		t.Fatalf("the variables: %s", stdout.String())
	}
	raw, _ := os.ReadFile(out)
	var d struct {
		Operator string `json:"operator"`
		DevKeys  bool   `json:"devKeys"`
		Tokens   []struct{ Symbol string }
	}
	json.Unmarshal(raw, &d)
	if d.Operator != operator || d.DevKeys || len(d.Tokens) != 1 || d.Tokens[0].Symbol != c.Tokens[0].Symbol {
		t.Fatalf("deployment.json: %s", raw)
	}
	if strings.Contains(string(raw), hex.EncodeToString(crypto.FromECDSA(key))) {
		t.Fatal("the deployment file holds the deployer's key")
	}
	if _, err := zk.ReadVerificationKeyFile(filepath.Join(dir, deployment.VerificationKeyFile)); err != nil {
		t.Fatal(err)
	}

	stderr.Reset()
	if err := run(ctx, args, &stdout, &stderr); err != nil || !strings.Contains(stderr.String(), "5 steps, 0 transactions sent") {
		t.Fatalf("second run: %v %s", err, stderr.String())
	}
}

// Wrong flags are listed together, and a key file that is not a key is not quoted.
func TestDeployFlags(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.key")
	os.WriteFile(bad, []byte("s3cret-not-hex"), 0o600)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"--deployer-key-file", bad, "--keys", dir, "--dev-keys", "--mint-to", "0x1", "--operator", "nope"}, &stdout, &stderr)
	if !errors.Is(err, errUsage) {
		t.Fatalf("bad flags: %v", err)
	}
	for _, want := range []string{"--rpc-url", "not a private key", "choose one of --keys DIR and --dev-keys", "--mint-to", "--operator"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("the errors do not say %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "s3cret") {
		t.Fatal("the key file's content was echoed")
	}
}
