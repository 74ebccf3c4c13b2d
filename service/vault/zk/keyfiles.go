//go:build !(js && wasm)

// Key files, and gnark's curve-generic key types: not in the browser's prover (js/wasm).

package zk

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
)

// Names of the key files in a keys directory: what cmd/ceremony finalize writes and what
// devnet, devstack and the card tool read with --keys.
const (
	ProvingKeyFile          = "reveal.pk"             // gnark, raw encoding
	VerifyingKeyFile        = "reveal.vk"             // gnark encoding
	VerificationKeyJSONFile = "verification_key.json" // snarkjs
	VerifierArgsFile        = "verifier-args.json"    // the Groth16Verifier's constructor arguments
)

// LoadKeysDir reads the proving and verifying keys of dir (reveal.pk, reveal.vk) and compiles
// the circuit to go with them.
func LoadKeysDir(dir string) (*Keys, error) {
	pk, err := os.ReadFile(filepath.Join(dir, ProvingKeyFile))
	if err != nil {
		return nil, err
	}
	vk, err := os.ReadFile(filepath.Join(dir, VerifyingKeyFile))
	if err != nil {
		return nil, err
	}
	k, err := LoadKeys(pk, vk)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return k, nil
}

// ReadVerificationKeyFile reads a snarkjs verification_key.json and checks that it is a key
// for reveals (six public signals).
func ReadVerificationKeyFile(path string) (*VerificationKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var j VerificationKeyJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	vk, err := ParseVerificationKey(j)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(vk.IC) != NumSignals+1 {
		return nil, fmt.Errorf("%s: the key takes %d public signals, reveals have %d", path, len(vk.IC)-1, NumSignals)
	}
	return vk, nil
}

// VerificationKeyOf is a gnark verifying key as points.
func VerificationKeyOf(vk groth16.VerifyingKey) *VerificationKey {
	return verificationKeyOf(vk.(*groth16bn254.VerifyingKey))
}

// Encode returns the proving and verifying keys in gnark's binary form.
func (k *Keys) Encode() (pkBytes, vkBytes []byte, err error) {
	return encode(k.pk, k.vk)
}

func encode(pk groth16.ProvingKey, vk groth16.VerifyingKey) (pkBytes, vkBytes []byte, err error) {
	var pb, vb bytes.Buffer
	if _, err := pk.WriteRawTo(&pb); err != nil {
		return nil, nil, err
	}
	if _, err := vk.WriteTo(&vb); err != nil {
		return nil, nil, err
	}
	return pb.Bytes(), vb.Bytes(), nil
}

// VerifierArgs are the Groth16Verifier constructor's arguments for vk: G2 points in the
// precompile's order (imaginary part first), as in Proof.CallArgs.
func VerifierArgs(vk *VerificationKey) (alpha [2]*big.Int, beta, gamma, delta [2][2]*big.Int, ic [NumSignals + 1][2]*big.Int) {
	g1 := func(p bn254.G1Affine) [2]*big.Int {
		return [2]*big.Int{p.X.BigInt(new(big.Int)), p.Y.BigInt(new(big.Int))}
	}
	g2 := func(p bn254.G2Affine) [2][2]*big.Int {
		return [2][2]*big.Int{
			{p.X.A1.BigInt(new(big.Int)), p.X.A0.BigInt(new(big.Int))},
			{p.Y.A1.BigInt(new(big.Int)), p.Y.A0.BigInt(new(big.Int))},
		}
	}
	alpha, beta, gamma, delta = g1(vk.Alpha), g2(vk.Beta), g2(vk.Gamma), g2(vk.Delta)
	for i := range ic {
		ic[i] = g1(vk.IC[i])
	}
	return
}

// WriteKeysDir writes a keys directory: pk and vk in gnark's encodings, vk as snarkjs's
// verification_key.json, and the Groth16Verifier's constructor arguments for vk.
func WriteKeysDir(dir string, pk groth16.ProvingKey, vk groth16.VerifyingKey) error {
	pkBytes, vkBytes, err := encode(pk, vk)
	if err != nil {
		return err
	}
	points := VerificationKeyOf(vk)
	vkJSON, err := json.MarshalIndent(points.JSON(), "", "  ")
	if err != nil {
		return err
	}
	args, err := json.MarshalIndent(verifierArgsJSON(points), "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range map[string][]byte{ProvingKeyFile: pkBytes, VerifyingKeyFile: vkBytes,
		VerificationKeyJSONFile: append(vkJSON, '\n'), VerifierArgsFile: append(args, '\n')} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// verifierArgs is verifier-args.json: the Groth16Verifier's constructor arguments as decimal
// strings (G2 points in the precompile's order), and ABI-encoded, to append to its bytecode.
type verifierArgs struct {
	Alpha           [2]string    `json:"alpha"`
	Beta            [2][2]string `json:"beta"`
	Gamma           [2][2]string `json:"gamma"`
	Delta           [2][2]string `json:"delta"`
	IC              [][2]string  `json:"ic"`
	ConstructorArgs string       `json:"constructorArgs"`
}

func verifierArgsJSON(vk *VerificationKey) verifierArgs {
	alpha, beta, gamma, delta, ic := VerifierArgs(vk)
	g1 := func(p [2]*big.Int) [2]string { return [2]string{p[0].String(), p[1].String()} }
	g2 := func(p [2][2]*big.Int) [2][2]string { return [2][2]string{g1(p[0]), g1(p[1])} }
	out := verifierArgs{Alpha: g1(alpha), Beta: g2(beta), Gamma: g2(gamma), Delta: g2(delta)}
	for _, p := range ic {
		out.IC = append(out.IC, g1(p))
	}
	// Every argument is a fixed-size array of uint256, so the ABI encoding is the 28 words in
	// order (the ceremony's test checks it against the abigen binding's PackConstructor).
	var words []*big.Int
	words = append(words, alpha[:]...)
	for _, p := range [][2][2]*big.Int{beta, gamma, delta} {
		words = append(words, p[0][0], p[0][1], p[1][0], p[1][1])
	}
	for _, p := range ic {
		words = append(words, p[:]...)
	}
	packed := make([]byte, 0, 32*len(words))
	for _, w := range words {
		packed = append(packed, w.FillBytes(make([]byte, 32))...)
	}
	out.ConstructorArgs = "0x" + hex.EncodeToString(packed)
	return out
}
