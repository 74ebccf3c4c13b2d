package deploy_test

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/contracts"
)

// Every contract fits EIP-170's limit on code size, which every chain vaultd deploys onto
// enforces (the dev chain under Osaka too, and Hardhat Network by default): the contracts are
// compiled for cheap calls, which makes PoseidonT3's code larger (compile.mjs).
func TestContractsFitEIP170(t *testing.T) {
	t.Parallel()
	var combined struct {
		Contracts map[string]struct {
			Runtime string `json:"bin-runtime"`
		} `json:"contracts"`
	}
	if err := json.Unmarshal(contracts.Combined, &combined); err != nil {
		t.Fatal(err)
	}
	for name, c := range combined.Contracts {
		if size := len(c.Runtime) / 2; size > params.MaxCodeSize {
			t.Errorf("%s: %d bytes of code, over EIP-170's %d", name, size, params.MaxCodeSize)
		}
	}
}
