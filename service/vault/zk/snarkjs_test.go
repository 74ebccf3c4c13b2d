package zk

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"testing"
)

var updateGnarkFixture = flag.Bool("update-gnark-fixture", false, "rewrite testdata/gnark with a fresh proof made with the dev keys")

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func readFixture(t *testing.T, dir string, vkPath string) (*VerificationKey, Proof, []*big.Int) {
	t.Helper()
	var vkJSON VerificationKeyJSON
	var proofJSON ProofJSON
	var public []string
	readJSON(t, vkPath, &vkJSON)
	readJSON(t, filepath.Join(dir, "proof.json"), &proofJSON)
	readJSON(t, filepath.Join(dir, "public.json"), &public)
	vk, err := ParseVerificationKey(vkJSON)
	if err != nil {
		t.Fatal(err)
	}
	proof, err := ParseProof(proofJSON)
	if err != nil {
		t.Fatal(err)
	}
	var signals []*big.Int
	for _, s := range public {
		v, err := parseScalar(s)
		if err != nil {
			t.Fatal(err)
		}
		signals = append(signals, v)
	}
	return vk, proof, signals
}

// A proof, key and public signals written by the npm snarkjs package itself
// (testdata/snarkjs/make-fixture.sh) verify with the Go verifier; tampering fails.
func TestSnarkjsFixture(t *testing.T) {
	dir := "testdata/snarkjs"
	vk, proof, signals := readFixture(t, dir, filepath.Join(dir, "verification_key.json"))
	if len(signals) != 6 {
		t.Fatalf("%d signals", len(signals))
	}
	if err := Verify(vk, proof, signals); err != nil {
		t.Fatalf("the snarkjs proof does not verify: %v", err)
	}
	for i := range signals {
		tampered := append([]*big.Int{}, signals...)
		tampered[i] = new(big.Int).Add(signals[i], big.NewInt(1))
		if err := Verify(vk, proof, tampered); !errors.Is(err, ErrInvalidProof) {
			t.Errorf("signal %d tampered: %v", i, err)
		}
	}
	swapped := proof
	swapped.A, swapped.C = proof.C, proof.A
	if err := Verify(vk, swapped, signals); !errors.Is(err, ErrInvalidProof) {
		t.Errorf("A and C swapped: %v", err)
	}
	tooBig := append([]*big.Int{}, signals...)
	tooBig[0] = new(big.Int).Add(signals[0], ScalarField) // same residue, but not below r
	if err := Verify(vk, proof, tooBig); !errors.Is(err, ErrInvalidProof) {
		t.Errorf("a signal ≥ r: %v", err)
	}
}

// testdata/gnark holds a reveal proof made by this package with the dev keys, in snarkjs's
// format. .ci/run checks it with `snarkjs groth16 verify` against the dev
// verification_key.json; this test keeps it valid for the current keys.
func TestGnarkFixture(t *testing.T) {
	dir := "testdata/gnark"
	if *updateGnarkFixture {
		keys, err := DevKeys()
		if err != nil {
			t.Fatal(err)
		}
		proof, signals, _ := proveSample(t, keys, big.NewInt(500), big.NewInt(200))
		public := make([]string, len(signals))
		for i, s := range signals {
			public[i] = s.String()
		}
		os.MkdirAll(dir, 0o755)
		for name, v := range map[string]any{"proof.json": proof.JSON(), "public.json": public} {
			data, _ := json.MarshalIndent(v, "", " ")
			if err := os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	vk, proof, signals := readFixture(t, dir, filepath.Join(devKeysDir, "verification_key.json"))
	if err := Verify(vk, proof, signals); err != nil {
		t.Fatalf("testdata/gnark does not verify with the dev keys (run with -update-gnark-fixture): %v", err)
	}
}

// parseScalar reads a decimal or 0x-hex integer that must be < r.
func parseScalar(str string) (*big.Int, error) {
	v, err := parseInt(str)
	if err != nil {
		return nil, err
	}
	if v.Cmp(ScalarField) >= 0 {
		return nil, fmt.Errorf("%s is not below the scalar field modulus r", str)
	}
	return v, nil
}
