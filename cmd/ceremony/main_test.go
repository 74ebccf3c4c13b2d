package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commands as a coordinator and a participant type them, up to an open phase 1 (the whole
// ceremony, both phases and the keys on a dev chain, is service/ops/ceremony's test).
func TestCommands(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "setup")
	var out, errOut bytes.Buffer
	do := func(args ...string) error {
		out.Reset()
		errOut.Reset()
		return run(args, &out, &errOut)
	}
	if err := do("init", "--dir", dir); err != nil || !strings.Contains(out.String(), "domain 8192") {
		t.Fatalf("init: %v\n%s%s", err, out.String(), errOut.String())
	}
	if err := do("contribute", "--dir", dir); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), "--name is required") {
		t.Fatalf("contribute without a name: %v %s", err, errOut.String())
	}
	if err := do("contribute", "--dir", dir, "--name", "alice"); err != nil || !strings.Contains(out.String(), "sha256 ") {
		t.Fatalf("contribute: %v\n%s%s", err, out.String(), errOut.String())
	}
	hash := strings.TrimPrefix(strings.Split(out.String(), "\n")[1], "sha256 ")
	// An open phase is not "verified": only --partial checks progress.
	if err := do("verify", "--dir", dir); err == nil || !strings.Contains(err.Error(), "phase 1 is open") || strings.Contains(out.String(), "\nverified") {
		t.Fatalf("verify of an open ceremony: %v\n%s%s", err, out.String(), errOut.String())
	}
	if err := do("verify", "--dir", dir, "--partial"); err != nil || !strings.Contains(out.String(), hash+": ok") || !strings.Contains(out.String(), "phase 1 is open: 1 contributions") {
		t.Fatalf("verify --partial: %v\n%s%s", err, out.String(), errOut.String())
	}
	// Keys beside an unfinished transcript cannot come from it: refused, --partial or not.
	if err := os.MkdirAll(filepath.Join(dir, "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keys", "verification_key.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"verify", "--dir", dir}, {"verify", "--dir", dir, "--partial"}} {
		if err := do(args...); err == nil || !strings.Contains(err.Error(), "do not come from this transcript") {
			t.Fatalf("%v with keys beside an open transcript: %v\n%s", args, err, out.String())
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "keys")); err != nil {
		t.Fatal(err)
	}
	if err := do("finalize", "--dir", dir, "--beacon", "not hex"); !errors.Is(err, errUsage) {
		t.Fatalf("finalize with a bad beacon: %v", err)
	}
	if err := do("verify", "--dir", filepath.Join(dir, "nowhere")); err == nil || !strings.Contains(err.Error(), "run init first") {
		t.Fatalf("verify of no ceremony: %v", err)
	}
	if err := do("bake"); !errors.Is(err, errUsage) {
		t.Fatalf("an unknown command: %v", err)
	}
}
