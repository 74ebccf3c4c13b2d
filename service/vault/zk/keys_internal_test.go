package zk

import (
	"bytes"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"

	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
)

// A verifying key from another setup than the proving key's (here the dev one with another
// [δ]₂) is refused when the keys are loaded, in Go and in the browser's prover alike (it used to
// load, and every proof was then refused by the verifier, or worse).
func TestAProvingKeyAndAVerifyingKeyFromDifferentSetupsAreRefused(t *testing.T) {
	vk := groth16.NewVerifyingKey(ecc.BN254)
	if _, err := vk.ReadFrom(bytes.NewReader(devkeys.VerifyingKey)); err != nil {
		t.Fatal(err)
	}
	v := vk.(*groth16bn254.VerifyingKey)
	v.G2.Delta = v.G2.Gamma // another setup's delta
	var other bytes.Buffer
	if _, err := vk.WriteTo(&other); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKeys(devkeys.ProvingKey, other.Bytes()); err == nil || !strings.Contains(err.Error(), "not from the same setup") {
		t.Fatalf("keys from two setups: %v", err)
	}
	if _, err := LoadKeys(devkeys.ProvingKey, devkeys.VerifyingKey); err != nil {
		t.Fatalf("the dev keys: %v", err)
	}
}
