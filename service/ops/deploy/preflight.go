package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// The vault's chain ids: the chain is published as both 5445 and 5446, so both are taken, and the one
// the node answers is printed.
const (
	seedChainID     = 5446
	seedChainIDAlso = 5445
)

// preflight checks, before any gas is spent, that the node can run the contracts and that the
// deployer can pay for what is left to send. Each failure names what is missing.
func (r *run) preflight(ctx context.Context) error {
	switch id := r.chainID; {
	case r.opts.ChainID != 0 && id != r.opts.ChainID:
		return fmt.Errorf("preflight: the node is chain %d, not %d (--chain-id)", id, r.opts.ChainID)
	case id == chain.DeprecatedChainID && !r.opts.DeprecatedChainID:
		return fmt.Errorf("preflight: chain id %d is deprecated (docs/design.md, Chains); deploy to the vault's chain (%d or %d) or another", id, seedChainID, seedChainIDAlso)
	case id == seedChainID || id == seedChainIDAlso:
		fmt.Fprintf(r.log, "preflight: chain id %d (the vault's chain is both %d and %d; this deployment is for %d, the node's)\n", id, seedChainIDAlso, seedChainID, id)
	default:
		fmt.Fprintf(r.log, "preflight: chain id %d\n", id)
	}
	var errs []error
	if err := r.probePrecompiles(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := r.probeOpcodes(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := r.registeredTokens(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("preflight: %w", err)
	}
	return r.checkBalance(ctx)
}

// probePrecompiles calls the BN254 precompiles the verifier uses (EIP-196 add and multiply at
// 0x06 and 0x07, the EIP-197 pairing check at 0x08) with inputs whose answers are known: a node
// without one answers nothing, or something else.
func (r *run) probePrecompiles(ctx context.Context) error {
	_, _, g1, g2 := bn254.Generators()
	var two bn254.G1Affine
	two.Double(&g1)
	var neg bn254.G1Affine
	neg.Neg(&g1)
	word := func(b [32]byte) []byte { return b[:] }
	point := func(p bn254.G1Affine) []byte { return append(word(p.X.Bytes()), word(p.Y.Bytes())...) }
	g2Bytes := bytes.Join([][]byte{word(g2.X.A1.Bytes()), word(g2.X.A0.Bytes()), word(g2.Y.A1.Bytes()), word(g2.Y.A0.Bytes())}, nil)
	one := common.LeftPadBytes([]byte{1}, 32)
	probes := []struct {
		addr  byte
		name  string
		input []byte
		want  []byte
	}{
		{0x06, "ecAdd", append(point(g1), point(g1)...), point(two)},
		{0x07, "ecMul", append(point(g1), common.LeftPadBytes([]byte{2}, 32)...), point(two)},
		{0x08, "ecPairing", bytes.Join([][]byte{point(g1), g2Bytes, point(neg), g2Bytes}, nil), one},
	}
	var errs []error
	for _, p := range probes {
		out, err := r.client.Call(ctx, "deploy_probe", common.BytesToAddress([]byte{p.addr}), p.input)
		if err != nil && !chain.IsNodeAnswer(err) {
			return err
		}
		if err != nil || !bytes.Equal(out, p.want) {
			errs = append(errs, fmt.Errorf("the BN254 precompile %s at 0x%02x, which the verifier needs, is missing or wrong", p.name, p.addr))
		}
	}
	return errors.Join(errs...)
}

// probeOpcodes runs each post-London opcode the contracts' code uses (the compiler's EVM
// version is cancun: PUSH0, MCOPY, …) in an eth_call.
func (r *run) probeOpcodes(ctx context.Context) error {
	used := map[vm.OpCode]bool{}
	names := []string{poseidonT3Name, poseidonT4Name, verifierName, vaultName}
	if r.opts.DevTokens {
		names = append(names, factoryName, tokenName)
	}
	for _, name := range names {
		runtime, err := runtimeOf(name)
		if err != nil {
			return err
		}
		opcodesUsed(link(runtime, nil), used)
	}
	for _, md := range []string{contracts.PoseidonT3MetaData.Bin, contracts.CommitRevealVaultMetaData.Bin, contracts.Groth16VerifierMetaData.Bin} {
		opcodesUsed(link(md, nil), used)
	}
	var errs []error
	for _, o := range laterOpcodes {
		if !used[o.op] {
			continue
		}
		_, err := r.client.Eth().CallContract(ctx, ethereum.CallMsg{From: r.from, Data: common.FromHex(o.probe)}, nil)
		if err != nil && !chain.IsNodeAnswer(err) {
			return err
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("the node's EVM lacks %s (0x%02x), which the contracts use: %v", o.op, byte(o.op), err))
		}
	}
	return errors.Join(errs...)
}

// checkBalance compares the deployer's balance with what the steps not yet in the journal cost
// at most (gasBudget at today's fee cap).
func (r *run) checkBalance(ctx context.Context) error {
	var gas uint64
	n := 0
	for _, s := range r.steps() {
		if r.journal.Steps[s.name] == nil {
			gas += s.gas
			n++
		}
	}
	if n == 0 {
		return nil
	}
	_, feeCap, err := chain.WalletFees(ctx, r.client.Eth())
	if err != nil {
		return err
	}
	cost := new(big.Int).Mul(new(big.Int).SetUint64(gas), feeCap)
	balance, err := r.client.BalanceAt(ctx, r.from)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.log, "preflight: at most %d steps to send, %d gas, %s at %s gwei; the deployer %s holds %s\n",
		n, gas, ether(cost), gwei(feeCap), r.from.Hex(), ether(balance))
	if balance.Cmp(cost) < 0 {
		return fmt.Errorf("preflight: the deployer %s holds %s and the deployment may cost %s (%d gas at %s gwei): fund it",
			r.from.Hex(), ether(balance), ether(cost), gas, gwei(feeCap))
	}
	return nil
}

func ether(wei *big.Int) string { return scaled(wei, params.Ether) + " ETH" }
func gwei(wei *big.Int) string  { return scaled(wei, params.GWei) }

// scaled prints wei in a larger unit with up to 6 decimals.
func scaled(wei *big.Int, unit float64) string {
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(wei), big.NewFloat(unit)).Float64()
	s := fmt.Sprintf("%.6f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}
