package deploy

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// gasBudget is the most each kind of step costs (its gas measured on the dev chain, plus a
// quarter; TestGasBudgetsHold checks that they still hold): what the balance check counts on.
var gasBudget = map[string]uint64{
	"library":  6_500_000, // PoseidonT3 5,140,670 (23,522 bytes of code: under EIP-170's 24,576); PoseidonT4 3,126,112
	"verifier": 850_000,   // 572,490
	"vault":    3_300_000, // 1,920,096 (its tree and registry are its bases)
	"factory":  1_150_000, // 910,537
	"token":    760_000,   // 606,100
	"register": 115_000,   // 89,128
	"mint":     90_000,    // 68,352
}

// The contracts' names in gen/contracts/combined.json.
const (
	poseidonT3Name = "poseidon-solidity/PoseidonT3.sol:PoseidonT3"
	poseidonT4Name = "poseidon-solidity/PoseidonT4.sol:PoseidonT4"
	verifierName   = "Groth16Verifier.sol:Groth16Verifier"
	vaultName      = "CommitRevealVault.sol:CommitRevealVault"
	factoryName    = "TokenFactory.sol:TokenFactory"
	tokenName      = "WrappedToken.sol:WrappedToken"
)

// steps is the deployment in order. What a step needs from earlier ones it reads when it runs.
func (r *run) steps() []step {
	steps := []step{
		r.library("library PoseidonT3", &contracts.PoseidonT3MetaData, poseidonT3Name, "poseidonT3"),
		r.library("library PoseidonT4", &contracts.PoseidonT4MetaData, poseidonT4Name, "poseidonT4"),
		r.verifierStep(),
		r.vaultStep(),
	}
	for _, t := range r.opts.Tokens {
		steps = append(steps, r.register("register "+t.Hex(), func() common.Address { return t }))
	}
	if r.opts.DevTokens {
		steps = append(steps, r.factoryStep())
		for i, t := range DevTokenList {
			steps = append(steps, r.devToken(t))
			steps = append(steps, r.register("register "+t.Symbol, func() common.Address { return r.devTokenAddress(i) }))
			for _, to := range r.opts.MintTo {
				steps = append(steps, r.mint(i, to))
			}
		}
	}
	return steps
}

// created reads the address a contract creation made.
func created(receipt *types.Receipt) (common.Address, error) {
	if receipt.ContractAddress == (common.Address{}) {
		return common.Address{}, fmt.Errorf("transaction %s created no contract", receipt.TxHash)
	}
	return receipt.ContractAddress, nil
}

// codeIs checks that addr holds the compiled runtime code of name, linked to the run's libraries.
func (r *run) codeIs(ctx context.Context, addr common.Address, name string) error {
	runtime, err := runtimeOf(name)
	if err != nil {
		return err
	}
	code, err := r.client.CodeAt(ctx, addr)
	if err != nil {
		return err
	}
	if len(code) == 0 {
		return fmt.Errorf("there is no contract at %s", addr.Hex())
	}
	if !sameCode(link(runtime, r.libraries), code) {
		return fmt.Errorf("the code at %s is not %s as gen/contracts has it", addr.Hex(), name[strings.LastIndex(name, ":")+1:])
	}
	return nil
}

func (r *run) library(name string, md *bind.MetaData, artifact, key string) step {
	return step{
		name: name, gas: gasBudget["library"],
		tx:    func() (*common.Address, []byte) { return nil, common.FromHex(md.Bin) },
		made:  created,
		known: func() common.Address { return r.existing.Contracts[key] },
		check: func(ctx context.Context, addr common.Address) error { return r.codeIs(ctx, addr, artifact) },
		keep:  func(addr common.Address) { r.libraries[md.ID] = addr },
	}
}

func (r *run) verifierCode() []byte {
	alpha, beta, gamma, delta, ic := zk.VerifierArgs(r.opts.VerificationKey)
	return append(common.FromHex(contracts.Groth16VerifierMetaData.Bin),
		contracts.NewGroth16Verifier().PackConstructor(alpha, beta, gamma, delta, ic)...)
}

func (r *run) verifierStep() step {
	return step{
		name: "verifier", gas: gasBudget["verifier"],
		tx:    func() (*common.Address, []byte) { return nil, r.verifierCode() },
		made:  created,
		known: func() common.Address { return r.existing.Contracts["verifier"] },
		// The verifier's immutables are the verifying key: its code must be exactly what its
		// creation with this key returns.
		check: func(ctx context.Context, addr common.Address) error {
			code, err := r.client.CodeAt(ctx, addr)
			if err != nil {
				return err
			}
			want, err := r.client.Eth().CallContract(ctx, ethereum.CallMsg{From: r.from, Data: r.verifierCode()}, nil)
			if err != nil {
				return fmt.Errorf("simulate the verifier's creation: %w", err)
			}
			if len(code) == 0 || !bytes.Equal(code, want) {
				return fmt.Errorf("the verifier at %s is not one with this verifying key", addr.Hex())
			}
			return nil
		},
		keep: func(addr common.Address) { r.verifier = addr },
	}
}

func (r *run) vaultStep() step {
	v := contracts.NewCommitRevealVault()
	return step{
		name: "vault", gas: gasBudget["vault"],
		tx: func() (*common.Address, []byte) {
			return nil, append(link(contracts.CommitRevealVaultMetaData.Bin, r.libraries), v.PackConstructor(r.verifier, r.opts.Operator)...)
		},
		made:  created,
		known: func() common.Address { return r.existing.Contracts["vault"] },
		check: r.checkVault,
		keep:  func(addr common.Address) { r.vault = addr },
	}
}

// checkVault checks the vault at addr: its code, its verifier, operator and owner (the
// deployer, who registers tokens), and that it holds its commitment tree and nullifier registry
// itself (both getters answer its own address), as the contracts in gen/ do.
func (r *run) checkVault(ctx context.Context, addr common.Address) error {
	if err := r.codeIs(ctx, addr, vaultName); err != nil {
		return err
	}
	v := contracts.NewCommitRevealVault()
	for _, want := range []struct {
		what   string
		data   []byte
		unpack func([]byte) (common.Address, error)
		value  common.Address
	}{
		{"verifier", v.PackVerifier(), v.UnpackVerifier, r.verifier},
		{"operator", v.PackOperator(), v.UnpackOperator, r.opts.Operator},
		{"owner", v.PackOwner(), v.UnpackOwner, r.from},
		{"commitment tree", v.PackCommitmentTree(), v.UnpackCommitmentTree, addr},
		{"nullifier registry", v.PackNullifierRegistry(), v.UnpackNullifierRegistry, addr},
	} {
		got, err := call(ctx, r, addr, want.data, want.unpack)
		if err != nil {
			return err
		}
		if got != want.value {
			return fmt.Errorf("the vault at %s has %s %s, not %s", addr.Hex(), want.what, got.Hex(), want.value.Hex())
		}
	}
	r.tree, r.registry = addr, addr
	return nil
}

func (r *run) factoryStep() step {
	return step{
		name: "token factory", gas: gasBudget["factory"],
		tx:    func() (*common.Address, []byte) { return nil, common.FromHex(contracts.TokenFactoryMetaData.Bin) },
		made:  created,
		known: func() common.Address { return r.existing.Contracts["tokenFactory"] },
		check: func(ctx context.Context, addr common.Address) error { return r.codeIs(ctx, addr, factoryName) },
		keep:  func(addr common.Address) { r.factory = addr },
	}
}

// devToken creates one of DevTokenList through the factory, the deployer its minter.
func (r *run) devToken(t Token) step {
	f, w := contracts.NewTokenFactory(), contracts.NewWrappedToken()
	return step{
		name: "token " + t.Symbol, gas: gasBudget["token"],
		tx: func() (*common.Address, []byte) {
			return &r.factory, f.PackCreateToken(t.Name, t.Symbol, t.Decimals)
		},
		made: func(receipt *types.Receipt) (common.Address, error) {
			for _, l := range receipt.Logs {
				if ev, err := f.UnpackTokenCreatedEvent(l); err == nil && l.Address == r.factory {
					return ev.Token, nil
				}
			}
			return common.Address{}, fmt.Errorf("transaction %s created no token", receipt.TxHash)
		},
		known: func() common.Address {
			for _, e := range r.existing.Tokens {
				if e.Symbol == t.Symbol && !slices.Contains(r.opts.Tokens, e.Address) { // not a registered one of that name
					return e.Address
				}
			}
			return common.Address{}
		},
		check: func(ctx context.Context, addr common.Address) error {
			if err := r.codeIs(ctx, addr, tokenName); err != nil {
				return err
			}
			if symbol, err := call(ctx, r, addr, w.PackSymbol(), w.UnpackSymbol); err != nil || symbol != t.Symbol {
				return fmt.Errorf("the token at %s is not %s (%v)", addr.Hex(), t.Symbol, err)
			}
			if minter, err := call(ctx, r, addr, w.PackMinter(), w.UnpackMinter); err != nil || minter != r.from {
				return fmt.Errorf("the token at %s is not minted by %s (%v)", addr.Hex(), r.from.Hex(), err)
			}
			return nil
		},
		keep: func(addr common.Address) {
			t.Address = addr
			r.tokens = append(r.tokens, t)
			r.devTokens = append(r.devTokens, addr)
		},
	}
}

// devTokenAddress is where the i-th of DevTokenList was found or made.
func (r *run) devTokenAddress(i int) common.Address { return r.devTokens[i] }

// register registers a token in the vault, unless it is registered already.
func (r *run) register(name string, token func() common.Address) step {
	v := contracts.NewCommitRevealVault()
	return step{
		name: name, gas: gasBudget["register"],
		tx: func() (*common.Address, []byte) { return &r.vault, v.PackRegisterToken(token()) },
		check: func(ctx context.Context, _ common.Address) error {
			id, err := call(ctx, r, r.vault, v.PackTokenIdOf(token()), v.UnpackTokenIdOf)
			if err != nil {
				return err
			}
			if id.Sign() == 0 {
				return errNotDone
			}
			return nil
		},
	}
}

// mint mints DevMint whole tokens of the i-th dev token to an address: once per journal (a
// balance says nothing of whether it was minted).
func (r *run) mint(i int, to common.Address) step {
	t := DevTokenList[i]
	amount := new(big.Int).Mul(big.NewInt(DevMint), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Decimals)), nil))
	return step{
		name: "mint " + t.Symbol + " to " + to.Hex(), gas: gasBudget["mint"],
		tx: func() (*common.Address, []byte) {
			token := r.devTokenAddress(i)
			return &token, contracts.NewWrappedToken().PackMint(to, amount)
		},
		check: func(context.Context, common.Address) error { return errNotDone },
	}
}
