package devchain_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
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

// With a block time, transactions wait for the next block and share it; empty blocks keep
// coming; switching back to no block time mines what waits at once.
func TestBlockTime(t *testing.T) {
	c := devchaintest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := c.Client()

	c.SetBlockTime(100 * time.Millisecond)
	c.PauseSealing() // so the three sends cannot straddle a block boundary
	var txs []*types.Transaction
	for _, u := range c.Accounts.Users[:3] {
		to := c.Accounts.Faucet.Address
		tx, err := devchain.SendTx(ctx, c, u.Key, &to, big.NewInt(1), nil)
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	c.ResumeSealing()
	var blocks []uint64
	for _, tx := range txs {
		r, err := devchain.WaitReceipt(ctx, client, tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, r.BlockNumber.Uint64())
	}
	if blocks[0] != blocks[1] || blocks[1] != blocks[2] {
		t.Fatalf("the three transactions were mined in blocks %v; want one block", blocks)
	}
	for { // empty blocks follow
		head, err := client.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head >= blocks[0]+2 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("head stuck at %d after block %d", head, blocks[0])
		case <-time.After(20 * time.Millisecond):
		}
	}

	c.SetBlockTime(time.Hour)
	to := c.Accounts.Faucet.Address
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Users[3].Key, &to, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // sealing on arrival would have mined it by now
	if r, _ := client.TransactionReceipt(ctx, tx.Hash()); r != nil {
		t.Fatalf("mined in block %v with an hour's block time", r.BlockNumber)
	}
	c.SetBlockTime(0)
	if _, err := devchain.WaitReceipt(ctx, client, tx.Hash()); err != nil {
		t.Fatalf("after switching back to sealing on arrival: %v", err)
	}
}

// Spare operator and faucet wallets (for replicas) are funded like the first, listed in the
// manifest and found by name; the contracts are where they always are.
func TestSpareWallets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := devchain.Start(ctx, devchain.Config{SpareOperators: 2, SpareFaucets: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if plain := devchaintest.Start(t); plain.Contracts != c.Contracts {
		t.Errorf("spare wallets moved the contracts: %+v vs %+v", c.Contracts, plain.Contracts)
	}
	m := c.Manifest()
	if len(m.Accounts.SpareOperators) != 2 || len(m.Accounts.SpareFaucets) != 1 {
		t.Fatalf("manifest lists %d spare operators and %d spare faucets", len(m.Accounts.SpareOperators), len(m.Accounts.SpareFaucets))
	}
	for name, first := range map[string]devchain.Account{"operator1": c.Accounts.Operator, "operator2": c.Accounts.Operator, "faucet1": c.Accounts.Faucet} {
		key, err := m.Account(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		addr := crypto.PubkeyToAddress(key.PublicKey)
		if addr == first.Address {
			t.Errorf("%s is %s's wallet", name, first.Name)
		}
		got, _ := c.Client().BalanceAt(ctx, addr, nil)
		want, _ := c.Client().BalanceAt(ctx, first.Address, nil)
		if got.Sign() == 0 || got.Cmp(want) < 0 {
			t.Errorf("%s holds %s wei, %s holds %s", name, got, first.Name, want)
		}
	}
	if _, err := m.Account("operator3"); err == nil {
		t.Error("operator3 found; only 2 spares were asked for")
	}
}

// Reorgs made while the sealer seals transactions as they arrive never stop the sealer: the
// node's pool answers one forced sync at a time (a second waiter replaces the first, which then
// waits for ever), so the sealer's syncs and a reorg's must not overlap. Before, a reorg racing
// the sealer left it waiting on the pool: nothing was mined again, and Close hung.
func TestReorgsWhileSealingNeverHang(t *testing.T) {
	c := devchaintest.Start(t)
	ctx := context.Background()
	sender := c.Accounts.Users[2]
	to := crypto.PubkeyToAddress(sender.Key.PublicKey)
	stop := make(chan struct{})
	sent := make(chan struct{})
	go func() { // transactions arriving all the time: the sealer commits and syncs the pool on each
		defer close(sent)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = devchain.SendTx(ctx, c, sender.Key, &to, big.NewInt(1), nil)
		}
	}()
	for i := range 100 {
		head, err := c.Client().HeaderByNumber(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.Reorg(head.Hash()) // refused when the pool is not empty: what matters is the sealer after it
		sealed := make(chan struct{})
		go func() {
			defer close(sealed)
			for ctx.Err() == nil {
				if h, err := c.Client().HeaderByNumber(ctx, nil); err == nil && h.Number.Cmp(head.Number) > 0 {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		select {
		case <-sealed:
		case <-time.After(30 * time.Second): // a deadlock, not a slow machine: blocks come every few milliseconds here
			// The chain cannot be closed either (its sealer is stuck, and the test's cleanup would
			// wait for it): end the test binary here, failed, rather than at its timeout.
			fmt.Fprintf(os.Stderr, "--- FAIL: %s: nothing sealed after reorg %d: the sealer waits on the node's pool for ever\n", t.Name(), i)
			os.Exit(1)
		}
	}
	close(stop)
	<-sent
}

// A chain started from the snapshot holds what a deployment on chain leaves: the same contracts
// at the same addresses with the same code, the tokens registered with the same ids and minted
// to the users, the vault's tree at the same root, the deployer's nonce past the deployment.
func TestAChainFromTheSnapshotIsADeployedOne(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	onChain := devchaintest.StartConfig(t, devchain.Config{OnChainDeployment: true})
	fromSnapshot := devchaintest.Start(t)
	if onChain.Contracts != fromSnapshot.Contracts || fmt.Sprint(onChain.Tokens) != fmt.Sprint(fromSnapshot.Tokens) {
		t.Fatalf("deployed %+v %+v, from the snapshot %+v %+v", onChain.Contracts, onChain.Tokens, fromSnapshot.Contracts, fromSnapshot.Tokens)
	}
	if fromSnapshot.StartBlock != 1 || onChain.StartBlock < 1 {
		t.Fatalf("start blocks: %d on chain, %d from the snapshot", onChain.StartBlock, fromSnapshot.StartBlock)
	}
	vault, wrapped := contracts.NewCommitRevealVault(), contracts.NewWrappedToken()
	read := func(c *devchain.Chain) string {
		client := c.Client()
		var b strings.Builder
		for _, a := range []common.Address{c.Contracts.TokenFactory, c.Contracts.Verifier, c.Contracts.Vault, c.Contracts.CommitmentTree, c.Contracts.NullifierRegistry} {
			code, err := client.CodeAt(ctx, a, nil)
			if err != nil || len(code) == 0 {
				t.Fatalf("no code at %s: %v", a, err)
			}
			fmt.Fprintf(&b, "%s %x\n", a, crypto.Keccak256(code))
		}
		root, err := bind.Call(vault.Instance(client, c.Contracts.Vault), nil, vault.PackGetLastRoot(), vault.UnpackGetLastRoot)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "root %x\n", root)
		for _, tok := range c.Tokens {
			code, _ := client.CodeAt(ctx, tok.Address, nil)
			fmt.Fprintf(&b, "%s %x\n", tok.Symbol, crypto.Keccak256(code))
			if tok.Legacy {
				continue
			}
			id, err := bind.Call(vault.Instance(client, c.Contracts.Vault), nil, vault.PackTokenIdOf(tok.Address), vault.UnpackTokenIdOf)
			if err != nil || id.Sign() == 0 {
				t.Fatalf("%s not registered: %v %v", tok.Symbol, id, err)
			}
			fmt.Fprintf(&b, "  id %v\n", id)
			for _, u := range c.Accounts.Users {
				bal, err := bind.Call(wrapped.Instance(client, tok.Address), nil, wrapped.PackBalanceOf(u.Address), wrapped.UnpackBalanceOf)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "  %s %v\n", u.Name, bal)
			}
		}
		nonce, err := client.NonceAt(ctx, c.Accounts.Deployer.Address, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "deployer nonce %d\n", nonce)
		return b.String()
	}
	if a, b := read(onChain), read(fromSnapshot); a != b {
		t.Fatalf("deployed on chain:\n%s\nfrom the snapshot:\n%s", a, b)
	}
}

// A copy holds its chain's state at the head (a transfer made on the chain, the contracts), with
// the slots asked for written over it, and seals blocks of its own.
func TestACopyHoldsTheChainsStateWithTheSlotsSet(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := devchaintest.StartConfig(t, devchain.Config{Preimages: true})
	to := common.HexToAddress("0x00000000000000000000000000000000c0ffee01")
	tx, err := devchain.SendTx(ctx, c, c.Accounts.Users[0].Key, &to, big.NewInt(12345), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash()); err != nil {
		t.Fatal(err)
	}
	slot, value := common.HexToHash("0x2a"), common.HexToHash("0x0102")
	cp, err := c.Copy(ctx, map[common.Address]map[common.Hash]common.Hash{c.Contracts.Vault: {slot: value}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if cp.RPCURL == c.RPCURL || cp.Contracts != c.Contracts {
		t.Fatalf("the copy serves at %s (the chain at %s), its contracts %+v", cp.RPCURL, c.RPCURL, cp.Contracts)
	}
	if got, err := cp.Client().BalanceAt(ctx, to, nil); err != nil || got.Int64() != 12345 {
		t.Errorf("the copy holds %v wei at the address sent 12345 (%v)", got, err)
	}
	if got, err := cp.Client().StorageAt(ctx, c.Contracts.Vault, slot, nil); err != nil || common.BytesToHash(got) != value {
		t.Errorf("the copy's slot holds %x (%v), want %x", got, err, value)
	}
	if code, err := cp.Client().CodeAt(ctx, c.Contracts.Vault, nil); err != nil || len(code) == 0 {
		t.Errorf("the copy has no vault (%v)", err)
	}
	tx, err = devchain.SendTx(ctx, cp, c.Accounts.Users[1].Key, &to, big.NewInt(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := devchain.WaitReceipt(ctx, cp.Client(), tx.Hash()); err != nil {
		t.Fatalf("the copy mines nothing: %v", err)
	}
}
