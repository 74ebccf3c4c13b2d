// Package deployment reads a deployment file (DEPLOYMENT_FILE): the chain id, the contracts'
// addresses and the deployment's first block, in the manifest's format (`chainId`,
// `startBlock`, `contracts`; devnet.json is one, and so is what a deployer writes), so that
// every service can be pointed at a deployment with one variable. A variable set explicitly
// overrides what the file says. Its `tokens` (the vault's tokens when it was deployed) are
// VAULT_TOKENS, the addresses the relayer refuses as a recipient.
package deployment

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// File is what a deployment file holds that the services read.
type File struct {
	ChainID    uint64            `json:"chainId"`
	StartBlock uint64            `json:"startBlock"`
	Contracts  map[string]string `json:"contracts"`
	Tokens     []struct {
		Address string `json:"address"`
	} `json:"tokens"`
}

// variables maps the file's contracts to the variables that name them.
var variables = map[string]string{
	"vault":             "COMMIT_REVEAL_VAULT_ADDRESS",
	"nullifierRegistry": "NULLIFIER_REGISTRY_ADDRESS",
	"commitmentTree":    "COMMITMENT_TREE_ADDRESS",
	"tokenFactory":      "TOKEN_FACTORY_ADDRESS",
}

// VerificationKeyFile is the name of the verifying key a deployment keeps beside its file.
const VerificationKeyFile = "verification_key.json"

// Env is getenv with DEPLOYMENT_FILE's values under what is not set: CHAIN_ID, START_BLOCK, the
// contracts' *_ADDRESS variables, VAULT_TOKENS (its tokens, comma-separated), and
// VERIFICATION_KEY_FILE when a verification_key.json lies beside the file. Without
// DEPLOYMENT_FILE it is getenv itself. The error says what is wrong with the file.
func Env(getenv func(string) string) (func(string) string, error) {
	path := getenv("DEPLOYMENT_FILE")
	if path == "" {
		return getenv, nil
	}
	f, err := Read(path)
	if err != nil {
		return getenv, err
	}
	values := map[string]string{"CHAIN_ID": strconv.FormatUint(f.ChainID, 10), "START_BLOCK": strconv.FormatUint(f.StartBlock, 10)}
	for name, variable := range variables {
		if a, ok := f.Contracts[name]; ok {
			values[variable] = a
		}
	}
	var tokens []string
	for _, t := range f.Tokens {
		tokens = append(tokens, t.Address)
	}
	values["VAULT_TOKENS"] = strings.Join(tokens, ",")
	if vk := filepath.Join(filepath.Dir(path), VerificationKeyFile); fileExists(vk) {
		values["VERIFICATION_KEY_FILE"] = vk
	}
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return values[k]
	}, nil
}

// Read reads and checks a deployment file.
func Read(path string) (File, error) {
	var f File
	data, err := os.ReadFile(path)
	if err != nil {
		return f, fmt.Errorf("DEPLOYMENT_FILE: %w", err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("DEPLOYMENT_FILE %s: not a deployment file: %w", path, err)
	}
	var errs []error
	if f.ChainID == 0 {
		errs = append(errs, errors.New("no chainId"))
	}
	for name, a := range f.Contracts {
		if !common.IsHexAddress(a) {
			errs = append(errs, fmt.Errorf("contracts.%s is not an address", name))
		}
	}
	for i, t := range f.Tokens {
		if !common.IsHexAddress(t.Address) {
			errs = append(errs, fmt.Errorf("tokens[%d].address is not an address", i))
		}
	}
	if f.Contracts["vault"] == "" {
		errs = append(errs, errors.New("no contracts.vault"))
	}
	if err := errors.Join(errs...); err != nil {
		return f, fmt.Errorf("DEPLOYMENT_FILE %s: %w", path, err)
	}
	return f, nil
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
