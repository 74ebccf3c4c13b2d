package deploy

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
	"github.com/ethereum/go-ethereum/params"
)

// Each opcode probe runs on an EVM that has the opcode and fails on one from before it (go-
// ethereum's own interpreter at Berlin and at Cancun rules), and the contracts do use some of
// them: preflight's probes are not vacuous.
func TestOpcodeProbes(t *testing.T) {
	berlin := *params.MainnetChainConfig
	berlin.LondonBlock, berlin.ArrowGlacierBlock, berlin.GrayGlacierBlock, berlin.MergeNetsplitBlock = nil, nil, nil, nil
	berlin.ShanghaiTime, berlin.CancunTime, berlin.PragueTime, berlin.OsakaTime = nil, nil, nil, nil
	berlin.TerminalTotalDifficulty = nil
	cancun := *params.MainnetChainConfig
	cancun.PragueTime, cancun.OsakaTime = nil, nil
	exec := func(code string, cfg *params.ChainConfig) error {
		_, _, err := runtime.Execute(common.FromHex(code), nil, &runtime.Config{
			ChainConfig: cfg, BlockNumber: big.NewInt(30_000_000), Time: 1_800_000_000, BaseFee: big.NewInt(1),
			BlobBaseFee: big.NewInt(1),
		})
		return err
	}
	if err := exec("600000", &berlin); err != nil { // PUSH1 0, STOP: Berlin runs code
		t.Fatalf("the Berlin EVM runs nothing: %v", err)
	}
	for _, o := range laterOpcodes {
		run := func(cfg *params.ChainConfig) error { return exec(o.probe, cfg) }
		if err := run(&cancun); err != nil {
			t.Errorf("%s's probe fails at Cancun: %v", o.op, err)
		}
		if err := run(&berlin); err == nil {
			t.Errorf("%s's probe runs at Berlin, which lacks it", o.op)
		}
	}

	used := map[vm.OpCode]bool{}
	for _, name := range []string{poseidonT3Name, vaultName, verifierName} {
		code, err := runtimeOf(name)
		if err != nil {
			t.Fatal(err)
		}
		opcodesUsed(link(code, nil), used)
	}
	if !used[vm.PUSH0] || !used[vm.MCOPY] {
		t.Fatalf("the contracts use %v; compiled for cancun they use PUSH0 and MCOPY", used)
	}
}
