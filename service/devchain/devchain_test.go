package devchain_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/devchain"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
)

func TestStartDeploysTokensAndFundsAccounts(t *testing.T) {
	c := devchaintest.Start(t)
	ctx := context.Background()
	client := c.Client()

	id, err := client.ChainID(ctx)
	if err != nil || id.Uint64() != devchain.DefaultChainID {
		t.Fatalf("chain id = %v, %v; want %d", id, err, devchain.DefaultChainID)
	}
	if len(c.Tokens) != 4 {
		t.Fatalf("got %d tokens, want 4", len(c.Tokens))
	}
	wrapped := contracts.NewWrappedToken()
	for _, tok := range c.Tokens {
		code, err := client.CodeAt(ctx, tok.Address, nil)
		if err != nil || len(code) == 0 {
			t.Fatalf("%s: no code at %s (%v)", tok.Symbol, tok.Address, err)
		}
		if tok.Legacy {
			continue
		}
		inst := wrapped.Instance(client, tok.Address)
		dec, err := bind.Call(inst, nil, wrapped.PackDecimals(), wrapped.UnpackDecimals)
		if err != nil || dec != tok.Decimals {
			t.Errorf("%s decimals = %d, %v; want %d", tok.Symbol, dec, err, tok.Decimals)
		}
		bal, err := bind.Call(inst, nil, wrapped.PackBalanceOf(c.Accounts.Users[0].Address), wrapped.UnpackBalanceOf)
		if err != nil || bal.Sign() <= 0 {
			t.Errorf("%s: user0 balance = %v, %v; want > 0", tok.Symbol, bal, err)
		}
	}
	for _, a := range append([]devchain.Account{c.Accounts.Deployer, c.Accounts.Operator, c.Accounts.Faucet}, c.Accounts.Users...) {
		bal, err := client.BalanceAt(ctx, a.Address, nil)
		if err != nil || bal.Cmp(big.NewInt(0)) <= 0 {
			t.Errorf("%s %s: balance %v, %v", a.Name, a.Address, bal, err)
		}
	}
}

func TestAddressesAreStableAcrossRuns(t *testing.T) {
	a := devchaintest.Start(t)
	b := devchaintest.Start(t)
	if a.RPCURL == b.RPCURL {
		t.Fatalf("two chains share %s", a.RPCURL)
	}
	if a.Contracts != b.Contracts {
		t.Errorf("contracts differ: %+v vs %+v", a.Contracts, b.Contracts)
	}
	for i := range a.Tokens {
		if a.Tokens[i].Address != b.Tokens[i].Address {
			t.Errorf("token %d: %s vs %s", i, a.Tokens[i].Address, b.Tokens[i].Address)
		}
	}
}
