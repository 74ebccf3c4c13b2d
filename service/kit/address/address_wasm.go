//go:build js && wasm

package address

// Address is Raw in the browser's prover: go-ethereum's common.Address would link its package's
// regexp (raw.go).
type Address = Raw
