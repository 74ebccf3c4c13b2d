// Command genbindings writes the Go bindings of the contracts in a solc combined-json file, as
// `abigen --v2 --combined-json` does, through go-ethereum's own binding generator
// (accounts/abi/abigen). Run by `go generate ./...` (service/dev/devchain). It calls the
// library rather than building the abigen command because that command links geth's whole CLI
// (GraphQL, InfluxDB, ethstats: about sixty packages nothing else here needs), which a fresh
// machine compiles only to run this.
//
//	go run ./internal/genbindings <combined.json> <package> <file.go>
package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/abigen"
	"github.com/ethereum/go-ethereum/common/compiler"
	"github.com/ethereum/go-ethereum/crypto"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: genbindings <combined.json> <package> <file.go>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "genbindings:", err)
		os.Exit(1)
	}
}

func generate(combined, pkg, out string) error {
	data, err := os.ReadFile(combined)
	if err != nil {
		return err
	}
	contracts, err := compiler.ParseCombinedJSON(data, "", "", "", "")
	if err != nil {
		return fmt.Errorf("%s: %w", combined, err)
	}
	var types, abis, bins []string
	libs := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(contracts)) {
		contract := contracts[name]
		// A name is <source file>:<type>.
		typeName := name[strings.LastIndex(name, ":")+1:]
		abi, err := json.Marshal(contract.Info.AbiDefinition)
		if err != nil {
			return fmt.Errorf("%s's ABI: %w", name, err)
		}
		types, abis, bins = append(types, typeName), append(abis, string(abi)), append(bins, contract.Code)
		// A library's placeholder in bytecode: the first 34 hex digits of keccak256(name).
		libs[crypto.Keccak256Hash([]byte(name)).String()[2:36]] = typeName
	}
	code, err := abigen.BindV2(types, abis, bins, pkg, libs, nil) // no aliases
	if err != nil {
		return err
	}
	return os.WriteFile(out, []byte(code), 0o644)
}
