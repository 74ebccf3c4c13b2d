package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The browser's prover links no circuit compiler (it reads the circuit compiled at build time),
// none of gnark's other curves, and not go-iden3-crypto's Poseidon constants: they were over half
// of its bytes (docs/client.md, "Serving the prover"). Nor any package of gnark's: it solves the
// witness with zk's own solver, and gnark's constraint system, solver and their serialization
// (CBOR, intcomp, its profiler, zerolog, testing) were a third of what was left (docs/prover.md).
// Nor go-ethereum's common, whose regexp (with its Unicode tables) was 0.6 MB more: the wasm's
// addresses are address.Raw.
func TestTheWasmLinksNoCompiler(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/consensys/gnark-crypto/ecc/bn254"] || !deps["syscall/js"] {
		t.Fatalf("the wasm does not link gnark-crypto's BN254: is this list the wasm's?\n%s", out)
	}
	for p := range deps {
		if strings.HasPrefix(p, "github.com/consensys/gnark/") {
			t.Errorf("the wasm links gnark's %s", p)
		}
	}
	for _, p := range []string{
		"github.com/consensys/gnark/frontend/cs/r1cs",                           // the circuit compiler
		"github.com/consensys/gnark/backend/groth16",                            // gnark's curve-generic Groth16: every curve
		"github.com/consensys/gnark-crypto/ecc/bls12-381",                       // one of those curves
		"github.com/vocdoni/gnark-crypto-primitives/hash/native/bn254/poseidon", // the circuit's Poseidon, 2 MB of constants
		"github.com/iden3/go-iden3-crypto/poseidon",                             // 1.4 MB of constants
		"github.com/ethereum/go-ethereum/common",                                // and its regexp
		"regexp",
	} {
		if deps[p] {
			t.Errorf("the wasm links %s", p)
		}
	}
}

// The browser proves with zk.StreamProver and zk.Share only: gnark's own Groth16 prover and the
// whole-key decoding (zk.LoadKeys) are not linked (1.3 MB of the wasm, docs/prover.md), nor the
// sectioned key's chunk-by-chunk decoder (readSectionedKey's: the shares decode whole points).
// The linker keeps what is called, so the built wasm's names (its name section, kept without -s)
// tell.
func TestTheWasmLinksNoWholeKeyProver(t *testing.T) {
	wasm := t.TempDir() + "/prover.wasm"
	cmd := exec.Command("go", "build", "-ldflags=-w", "-o", wasm, ".") // -w only: GOFLAGS' -s (CI's) would drop the name section
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "service/vault/zk.(*StreamProver).Finish") {
		t.Fatal("the wasm's names do not show the stream prover: were they stripped?")
	}
	for _, f := range []string{"github.com/consensys/gnark/backend/groth16/bn254.Prove", "service/vault/zk.LoadKeys", "service/vault/zk.(*keyDecoder)"} {
		if strings.Contains(string(data), f) {
			t.Errorf("the wasm links %s", f)
		}
	}
}
