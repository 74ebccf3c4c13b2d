// Command g1wasm writes g1module's WebAssembly module (with which the browser's prover decodes
// and multiplies the proving key's G1 points) to a file. Run by web/client/scripts/assets.mjs at
// build.
//
//	go run ./service/vault/zk/internal/g1wasm <g1module.wasm>
package main

import (
	"fmt"
	"os"

	"github.com/seed018cc74c/vaultd/service/vault/zk/g1module"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: g1wasm <g1module.wasm>")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], g1module.Module(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "g1wasm:", err)
		os.Exit(1)
	}
}
