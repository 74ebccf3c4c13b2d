// Command sectionkey writes a proving key in gnark's raw encoding (a keys directory's reveal.pk:
// the dev keys', or a ceremony's) as a sectioned key (zk.SectionedKey, docs/prover.md), which the
// browser's prover multiplies while it downloads, and with a third path its raw tail
// (SectionedKey.WriteRawTail: what a browser too slow to decompress the key's points fetches
// instead of the key's end). Run by web/client/scripts/assets.mjs at build.
//
//	go run ./service/vault/zk/internal/sectionkey <reveal.pk> <reveal.pks> [<reveal.tail.pks>]
package main

import (
	"bytes"
	"fmt"
	"os"

	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sectionkey <reveal.pk> <reveal.pks> [<reveal.tail.pks>]")
		os.Exit(2)
	}
	tail := ""
	if len(os.Args) == 4 {
		tail = os.Args[3]
	}
	if err := convert(os.Args[1], os.Args[2], tail); err != nil {
		fmt.Fprintln(os.Stderr, "sectionkey:", err)
		os.Exit(1)
	}
}

// convert writes in's key as a sectioned key at out, and its raw tail at tail unless "".
func convert(in, out, tail string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var pk groth16bn254.ProvingKey
	if _, err := pk.ReadFrom(bytes.NewReader(data)); err != nil { // checked: points on the curve, in their subgroups
		return fmt.Errorf("%s: %w", in, err)
	}
	sk, err := zk.SectionedKeyOf(&pk)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := sk.WriteTo(&b); err != nil {
		return err
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	if tail == "" {
		return nil
	}
	var r bytes.Buffer
	if _, err := sk.WriteRawTail(&r); err != nil {
		return err
	}
	return os.WriteFile(tail, r.Bytes(), 0o644)
}
