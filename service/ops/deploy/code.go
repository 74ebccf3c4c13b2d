package deploy

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/seed018cc74c/vaultd/gen/contracts"
)

// artifact is one compiled contract of gen/contracts/combined.json: its creation code and its
// runtime code, both hex with library placeholders (__$<id>$__) not yet linked.
type artifact struct {
	Bin     string `json:"bin"`
	Runtime string `json:"bin-runtime"`
}

var (
	artifactsOnce sync.Once
	artifacts     map[string]artifact
	artifactsErr  error
)

// runtimeOf returns the runtime code of the contract named as in combined.json ("File.sol:Name").
func runtimeOf(name string) (string, error) {
	artifactsOnce.Do(func() {
		var combined struct {
			Contracts map[string]artifact `json:"contracts"`
		}
		artifactsErr = json.Unmarshal(contracts.Combined, &combined)
		artifacts = combined.Contracts
	})
	if artifactsErr != nil {
		return "", artifactsErr
	}
	a, ok := artifacts[name]
	if !ok {
		return "", fmt.Errorf("gen/contracts has no %s", name)
	}
	return a.Runtime, nil
}

// link replaces the library placeholders of code (hex) with the libraries' addresses, keyed by
// the bind.MetaData ID the placeholder carries; a placeholder without an address becomes zeros.
func link(code string, libraries map[string]common.Address) []byte {
	code = strings.TrimPrefix(code, "0x")
	for {
		i := strings.Index(code, "__$")
		if i < 0 {
			break
		}
		id := code[i+3 : i+37]
		addr := libraries[id]
		code = code[:i] + strings.ToLower(addr.Hex()[2:]) + code[i+40:]
	}
	return common.FromHex(code)
}

// sameCode reports whether the code found on chain is the compiled runtime code: equal byte for
// byte except where the compiled code holds zeros the deployment fills in (immutables, and a
// library's own address), which must still be all there is to differ.
func sameCode(compiled, onChain []byte) bool {
	if len(compiled) != len(onChain) || len(compiled) == 0 {
		return false
	}
	for i := range compiled {
		if compiled[i] != onChain[i] && compiled[i] != 0 {
			return false
		}
	}
	return true
}

// laterOpcodes are the opcodes introduced after London that the compiler may emit for the
// contracts' EVM version, each with a fragment of creation code that runs it and stops: a node
// whose EVM lacks one fails the eth_call that runs it.
var laterOpcodes = []struct {
	op    vm.OpCode
	probe string
}{
	{vm.BASEFEE, "4800"},
	{vm.PUSH0, "5f00"},
	{vm.TLOAD, "60005c00"},
	{vm.TSTORE, "600060005d00"},
	{vm.MCOPY, "6000600060005e00"},
	{vm.BLOBHASH, "60004900"},
	{vm.BLOBBASEFEE, "4a00"},
}

// opcodesUsed returns which of laterOpcodes the code uses, walking its instructions (the data
// of PUSH1…PUSH32 skipped).
func opcodesUsed(code []byte, into map[vm.OpCode]bool) {
	later := map[vm.OpCode]bool{}
	for _, o := range laterOpcodes {
		later[o.op] = true
	}
	for pc := 0; pc < len(code); pc++ {
		op := vm.OpCode(code[pc])
		if later[op] {
			into[op] = true
		}
		if op >= vm.PUSH1 && op <= vm.PUSH32 {
			pc += int(op - vm.PUSH1 + 1)
		}
	}
}
