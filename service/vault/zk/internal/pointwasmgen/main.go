// Command pointwasmgen writes pointwasm's WebAssembly module (with which the browser's prover
// decodes and multiplies the proving key's points) to a file. Run by
// web/client/scripts/assets.mjs at build.
//
//	go run ./service/vault/zk/internal/pointwasmgen <pointwasm.wasm>
package main

import (
	"fmt"
	"os"

	"github.com/seed018cc74c/vaultd/service/vault/zk/pointwasm"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pointwasmgen <pointwasm.wasm>")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], pointwasm.Module(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pointwasmgen:", err)
		os.Exit(1)
	}
}
