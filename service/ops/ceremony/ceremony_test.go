package ceremony_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/ops/ceremony"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var ctx = context.Background()

// phase1 starts a ceremony in a directory of t's and has alice and bob contribute to phase 1;
// it returns the directory and the hashes they published.
func phase1(t *testing.T) (string, []string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ceremony")
	if _, err := ceremony.Init(dir); err != nil {
		t.Fatal(err)
	}
	var published []string
	for _, name := range []string{"alice", "bob"} {
		c, err := ceremony.Contribute(dir, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		published = append(published, c.SHA256)
	}
	return dir, published
}

// Two parties contribute to each phase (each building on the one before), each phase is closed
// by a beacon, anyone's verify re-derives the keys, and the keys work: a dev chain whose verifier
// is deployed from the ceremony's verification_key.json pays a reveal proved with its proving
// key, sent through a relayer verifying with that file, and refuses a proof made with the dev
// keys.
func TestMultiPartyCeremony(t *testing.T) {
	t.Parallel()
	start := time.Now()
	dir, published := phase1(t)
	if _, err := ceremony.Init(dir); err == nil {
		t.Fatal("init twice in one directory")
	}
	contribute := func(names ...string) {
		for _, name := range names {
			c, err := ceremony.Contribute(dir, name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			published = append(published, c.SHA256)
		}
	}
	if err := ceremony.Finalize(dir, []byte("drand round 1000: 1f2e")); err != nil {
		t.Fatalf("finalize phase 1: %v", err)
	}
	if err := ceremony.Finalize(dir, []byte("beacon")); err == nil || !strings.Contains(err.Error(), "no contribution") {
		t.Fatalf("finalize of phase 2 with no contribution: %v", err)
	}
	contribute("carol", "dave")
	if err := ceremony.Finalize(dir, []byte("drand round 2000: 3d4c")); err != nil {
		t.Fatalf("finalize phase 2: %v", err)
	}
	if _, err := ceremony.Contribute(dir, "late"); err == nil {
		t.Fatal("a contribution after the ceremony finished")
	}
	t.Logf("ceremony (2 + 2 contributions, both phases finalized): %s", time.Since(start).Round(time.Millisecond))

	// Verify re-derives the keys (most of its minute is phase 2's starting point) while the keys
	// are tried on a dev chain: neither writes to dir.
	t.Run("verify", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		var report bytes.Buffer
		if err := ceremony.Verify(dir, func(f string, a ...any) { report.WriteString(strings.TrimSpace(fmtf(f, a...)) + "\n") }); err != nil {
			t.Fatalf("verify: %v\n%s", err, report.String())
		}
		t.Logf("verify: %s\n%s", time.Since(start).Round(time.Millisecond), report.String())
		for _, h := range published {
			if !strings.Contains(report.String(), h) {
				t.Fatalf("the report does not list the published hash %s", h)
			}
		}
	})
	t.Run("the keys on a dev chain", func(t *testing.T) {
		t.Parallel()
		keysWork(t, dir)
	})
}

// keysWork checks the keys a finished ceremony in dir wrote: a dev chain whose verifier is
// deployed from verification_key.json pays a reveal proved with the proving key (one paying a
// fee too), sent through a relayer verifying with that file, and refuses a dev-key proof.
func keysWork(t *testing.T, dir string) {
	keysDir := filepath.Join(dir, ceremony.KeysDir)
	vkFile := filepath.Join(keysDir, zk.VerificationKeyJSONFile)
	if data, _ := os.ReadFile(vkFile); bytes.Equal(data, devkeys.VerificationKeyJSON) {
		t.Fatal("the ceremony produced the dev key")
	}
	keys, err := zk.LoadKeysDir(keysDir)
	if err != nil {
		t.Fatal(err)
	}
	vk, err := zk.ReadVerificationKeyFile(vkFile)
	if err != nil {
		t.Fatal(err)
	}
	var args struct{ ConstructorArgs string }
	data, _ := os.ReadFile(filepath.Join(keysDir, zk.VerifierArgsFile))
	if err := json.Unmarshal(data, &args); err != nil || !strings.HasPrefix(args.ConstructorArgs, "0x") || len(args.ConstructorArgs) != 2+2*32*(2+4*3+2*7) {
		t.Fatalf("verifier-args.json: %v %q", err, args.ConstructorArgs)
	}
	if want := "0x" + hex.EncodeToString(contracts.NewGroth16Verifier().PackConstructor(zk.VerifierArgs(vk))); args.ConstructorArgs != want {
		t.Fatalf("verifier-args.json's constructorArgs are not the binding's encoding:\n%s\n%s", args.ConstructorArgs, want)
	}

	c, err := devchain.Start(ctx, devchain.Config{VerificationKey: vk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	env := devstack.RelayerEnv(c, vkFile, filepath.Join(t.TempDir(), "relayer.db"))
	maps.Copy(env, map[string]string{"RECEIPT_POLL_INTERVAL": "20ms"})
	cfg, err := relayer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)

	cd, _, err := card.Create(ctx, c.Client(), c.Accounts.Users[0].Key, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(700))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(k.PublicKey)

	// A proof made with the dev keys: the relayer refuses it, and so does the chain.
	devKeys, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	forged, err := card.Prepare(ctx, c.Client(), devKeys, cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	if status, body, err := card.PostToRelayer(ctx, url, forged); err != nil || status != 422 || !strings.Contains(string(body), "INVALID_PROOF") {
		t.Fatalf("a dev-key proof at the relayer: %d %s %v", status, body, err)
	}
	if _, err := card.Reveal(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, forged); err == nil {
		t.Fatal("the chain accepted a proof made with the dev keys")
	}

	// A proof made with the ceremony's proving key: paid.
	req, err := card.Prepare(ctx, c.Client(), keys, cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	if status, body, err := card.PostToRelayer(ctx, url, req); err != nil || status != 200 {
		t.Fatalf("the ceremony's proof at the relayer: %d %s %v", status, body, err)
	}
	w := contracts.NewWrappedToken()
	bal, err := bind.Call(w.Instance(c.Client(), c.Tokens[0].Address), nil, w.PackBalanceOf(recipient), w.UnpackBalanceOf)
	if err != nil || bal.Int64() != 700 {
		t.Fatalf("the recipient holds %v (%v), want 700", bal, err)
	}

	// A reveal that pays a fee (signal [3] binds the recipient, the fee and its receiver; the
	// circuit is the same): the ceremony's keys prove it as they are, and its verifier pays it.
	paying, _, err := card.Create(ctx, c.Client(), c.Accounts.Users[0].Key, c.Contracts.Vault, c.Tokens[0].Address, big.NewInt(500))
	if err != nil {
		t.Fatal(err)
	}
	note, err := paying.Note()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.Vault)
	if err != nil {
		t.Fatal(err)
	}
	receiver := c.Accounts.Users[2].Address
	fee := zk.Fee{Amount: big.NewInt(20), Receiver: receiver}
	proof, signals, err := keys.Prove(zk.RevealRequest{Note: note, Tree: tree, LeafIndex: tree.Len() - 1, Amount: big.NewInt(500), Recipient: recipient, Fee: &fee})
	if err != nil {
		t.Fatal(err)
	}
	before, err := bind.Call(w.Instance(c.Client(), c.Tokens[0].Address), nil, w.PackBalanceOf(receiver), w.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb, pc := proof.CallArgs()
	if _, err := card.Send(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault,
		contracts.NewCommitRevealVault().PackRevealWithFee(pa, pb, pc, [6]*big.Int(signals), recipient, fee.Amount, receiver)); err != nil {
		t.Fatalf("a fee-paying reveal proved with the ceremony's keys: %v", err)
	}
	bal, _ = bind.Call(w.Instance(c.Client(), c.Tokens[0].Address), nil, w.PackBalanceOf(recipient), w.UnpackBalanceOf)
	got, _ := bind.Call(w.Instance(c.Client(), c.Tokens[0].Address), nil, w.PackBalanceOf(receiver), w.UnpackBalanceOf)
	if bal.Int64() != 700+480 || new(big.Int).Sub(got, before).Int64() != 20 {
		t.Fatalf("after the fee-paying reveal the recipient holds %v (want 1180) and the receiver got %v (want 20)", bal, new(big.Int).Sub(got, before))
	}
}

func fmtf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// A contribution that does not build on the one before it (one made from the initial state,
// discarding the earlier participants' randomness: alice's own, put in bob's place) is refused
// by verify, and nobody contributes on top of it; a file that is not the one the manifest
// records is refused before it is read; a ceremony for another circuit cannot be finalized.
// None of it depends on the circuit: the ceremony is for a small one (TestMultiPartyCeremony
// runs the reveal circuit's), and the test runs before the parallel tests, which use the reveal
// circuit.
func TestVerifyRefusesATamperedTranscript(t *testing.T) {
	ceremony.UseSmallCircuit(t)
	rogue := t.TempDir()
	if _, err := ceremony.Init(rogue); err != nil {
		t.Fatal(err)
	}
	if err := ceremony.Finalize(rogue, []byte("beacon")); err == nil || !strings.Contains(err.Error(), "no contribution") {
		t.Fatalf("finalize with no contribution: %v", err)
	}
	dir, _ := phase1(t)
	m, err := ceremony.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	fromStart := m.Phase1.Contributions[0] // alice's, made from the initial state

	var report strings.Builder
	if err := ceremony.Verify(dir, func(f string, a ...any) { report.WriteString(fmtf(f, a...) + "\n") }); !errors.Is(err, ceremony.ErrOpen) {
		t.Fatalf("verify before tampering: %v, want ErrOpen (verified so far, phase 1 open)", err)
	}
	if !strings.Contains(report.String(), "phase 1 is open: 2 contributions so far") {
		t.Fatalf("report:\n%s", report.String())
	}

	// bob's file replaced by one from the initial state, the manifest left alone: the hash differs.
	data, _ := os.ReadFile(filepath.Join(dir, fromStart.File))
	if err := os.WriteFile(filepath.Join(dir, "phase1/0002.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	noReport := func(string, ...any) {}
	if err := ceremony.Verify(dir, noReport); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("verify of a file the manifest does not record: %v", err)
	}
	// The manifest rewritten to match: the update proof does not follow from alice's.
	m.Phase1.Contributions[1].SHA256 = fromStart.SHA256
	writeManifest(t, dir, m)
	if err := ceremony.Verify(dir, noReport); err == nil || !strings.Contains(err.Error(), "phase 1 contribution 2") {
		t.Fatalf("verify of a contribution that starts over: %v", err)
	}
	if _, err := ceremony.Contribute(dir, "carol"); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Fatalf("a contribution on top of a broken one: %v", err)
	}
	if err := ceremony.Finalize(dir, []byte("beacon")); err == nil || !strings.Contains(err.Error(), "phase 1") {
		t.Fatalf("finalize of a broken phase: %v", err)
	}

	m.CircuitHash = strings.Repeat("0", 64)
	writeManifest(t, dir, m)
	if err := ceremony.Finalize(dir, []byte("beacon")); err == nil || !strings.Contains(err.Error(), "circuit changed") {
		t.Fatalf("finalize for another circuit: %v", err)
	}
}

func writeManifest(t *testing.T, dir string, m *ceremony.Manifest) {
	t.Helper()
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, ceremony.ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
