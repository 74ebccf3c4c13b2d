package contracts

import _ "embed"

// Combined is combined.json, the compiler's output the bindings above are generated from: the
// runtime code in it is what service/ops/deploy compares a deployed contract's code against.
//
//go:embed combined.json
var Combined []byte
