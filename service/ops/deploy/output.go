package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/kit/erc20"
)

// Deployment is deployment.json: the manifest's format (chainId, startBlock, contracts, tokens)
// that every service reads through DEPLOYMENT_FILE, with no key in it.
type Deployment struct {
	ChainID uint64 `json:"chainId"`
	// StartBlock is the block of the first deployment transaction: where an indexer starts.
	StartBlock uint64                    `json:"startBlock"`
	Contracts  map[string]common.Address `json:"contracts"`
	Tokens     []Token                   `json:"tokens"`
	Deployer   common.Address            `json:"deployer"`
	// Operator is the only caller of the vault's reveal, when there is one.
	Operator *common.Address `json:"operator,omitempty"`
	// DevKeys says the verifier takes proofs made with the dev keys, whose secrets are public.
	DevKeys bool `json:"devKeys,omitempty"`
}

// MarshalJSON writes addresses in EIP-55 form, as the manifest and the services do.
func (d Deployment) MarshalJSON() ([]byte, error) {
	type plain Deployment
	type token struct {
		Address  string `json:"address"`
		Name     string `json:"name"`
		Symbol   string `json:"symbol"`
		Decimals uint8  `json:"decimals"`
	}
	out := struct {
		plain
		Contracts map[string]string `json:"contracts"`
		Tokens    []token           `json:"tokens"`
		Deployer  string            `json:"deployer"`
		Operator  string            `json:"operator,omitempty"`
	}{plain: plain(d), Contracts: map[string]string{}, Tokens: []token{}, Deployer: d.Deployer.Hex()}
	for name, a := range d.Contracts {
		out.Contracts[name] = a.Hex()
	}
	for _, t := range d.Tokens {
		out.Tokens = append(out.Tokens, token{t.Address.Hex(), t.Name, t.Symbol, t.Decimals})
	}
	if d.Operator != nil {
		out.Operator = d.Operator.Hex()
	}
	return json.Marshal(out)
}

// ReadDeployment reads a deployment file; a missing file is (nil, nil).
func ReadDeployment(path string) (*Deployment, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d Deployment
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s: not a deployment file: %w", path, err)
	}
	return &d, nil
}

// deployment is what the run made or found.
func (r *run) deployment() Deployment {
	d := Deployment{
		ChainID:  r.chainID,
		Deployer: r.from,
		Contracts: map[string]common.Address{
			"poseidonT3":        r.libraries[contracts.PoseidonT3MetaData.ID],
			"poseidonT4":        r.libraries[contracts.PoseidonT4MetaData.ID],
			"verifier":          r.verifier,
			"vault":             r.vault,
			"commitmentTree":    r.tree,
			"nullifierRegistry": r.registry,
		},
		Tokens:  []Token{},
		DevKeys: r.opts.DevKeys,
	}
	if r.opts.DevTokens {
		d.Contracts["tokenFactory"] = r.factory
	}
	if r.opts.Operator != (common.Address{}) {
		op := r.opts.Operator
		d.Operator = &op
	}
	d.StartBlock = r.existing.StartBlock
	for _, rec := range r.journal.Steps {
		if rec.Block != 0 && (d.StartBlock == 0 || rec.Block < d.StartBlock) {
			d.StartBlock = rec.Block
		}
	}
	d.Tokens = append(d.Tokens, r.tokens...)
	return d
}

// registeredTokens reads the name, symbol and decimals of the tokens of opts.Tokens.
func (r *run) registeredTokens(ctx context.Context) error {
	for _, a := range r.opts.Tokens {
		md, err := erc20.Read(ctx, r.client, a)
		if err != nil {
			return fmt.Errorf("--tokens %s: %w", a.Hex(), err)
		}
		r.tokens = append(r.tokens, Token{Address: a, Name: md.Name, Symbol: md.Symbol, Decimals: md.Decimals})
	}
	return nil
}

// Write writes the deployment file at path, the verifying key beside it (verification_key.json,
// which the relayer reads when VERIFICATION_KEY_FILE is unset).
func Write(path string, d Deployment, opts Options) error {
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	vk, err := json.MarshalIndent(opts.VerificationKey.JSON(), "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(filepath.Dir(path), deployment.VerificationKeyFile), append(vk, '\n')); err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}

// EnvLines are the variables the services take for d (deploy/env.example's), the RPC URL left
// for the operator to fill in: it may carry a provider's key, which no file here should.
func EnvLines(path string, d Deployment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# vaultd on chain %d: every service reads the deployment from one file\n", d.ChainID)
	fmt.Fprintf(&b, "DEPLOYMENT_FILE=%s\n", path)
	b.WriteString("RPC_URL=https://rpc.example.org   # your node or provider\n")
	b.WriteString("# or, variable by variable (each overrides DEPLOYMENT_FILE's value):\n")
	fmt.Fprintf(&b, "CHAIN_ID=%d\n", d.ChainID)
	fmt.Fprintf(&b, "START_BLOCK=%d\n", d.StartBlock)
	fmt.Fprintf(&b, "COMMIT_REVEAL_VAULT_ADDRESS=%s\n", d.Contracts["vault"].Hex())
	fmt.Fprintf(&b, "COMMITMENT_TREE_ADDRESS=%s\n", d.Contracts["commitmentTree"].Hex())
	fmt.Fprintf(&b, "NULLIFIER_REGISTRY_ADDRESS=%s\n", d.Contracts["nullifierRegistry"].Hex())
	if f, ok := d.Contracts["tokenFactory"]; ok {
		fmt.Fprintf(&b, "TOKEN_FACTORY_ADDRESS=%s\n", f.Hex())
	}
	fmt.Fprintf(&b, "VERIFICATION_KEY_FILE=%s\n", filepath.Join(filepath.Dir(path), deployment.VerificationKeyFile))
	return b.String()
}
