//go:build !(js && wasm)

package address

import "github.com/ethereum/go-ethereum/common"

// Address is go-ethereum's everywhere but in the browser's prover (raw.go).
type Address = common.Address
