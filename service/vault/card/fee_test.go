package card_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal that pays a fee, with the dev keys and the circuit as they are: signal [3] binds the
// recipient, the fee and its receiver (zk.FeeBinding, the vault's feeBinding), the vault pays
// the fee to its receiver and the rest to the recipient in one call, and a copy of the
// transaction that changes any of the three is refused, as is the proof sent as a reveal
// without fee or a fee of the whole amount.
func TestARevealPaysItsFeeBoundByTheProof(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	token := c.Tokens[0].Address
	cd := newCard(t, c, c.Accounts.Users[0].Key, token, 1000)
	note, err := cd.Note()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.Vault)
	if err != nil {
		t.Fatal(err)
	}
	index := tree.Len() - 1
	recipient, receiver := freshAddress(t), freshAddress(t)
	fee := zk.Fee{Amount: big.NewInt(30), Receiver: receiver}
	req := zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: big.NewInt(1000), Recipient: recipient, Fee: &fee}
	proof, signals, err := keys(t).Prove(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := zk.Verify(keys(t).VerificationKey(), proof, signals[:]); err != nil {
		t.Fatalf("the dev keys refuse a fee-paying proof: %v", err)
	}

	vault := contracts.NewCommitRevealVault()
	onChain, err := bind.Call(vault.Instance(c.Client(), c.Contracts.Vault), nil, vault.PackFeeBinding(recipient, fee.Amount, receiver), vault.UnpackFeeBinding)
	if err != nil || onChain.Cmp(zk.FeeBinding(recipient, fee)) != 0 || onChain.Cmp(signals[zk.SignalRecipient]) != 0 {
		t.Fatalf("the vault's feeBinding %v (%v) is not Go's %v", onChain, err, zk.FeeBinding(recipient, fee))
	}
	a, b, cc := proof.CallArgs()
	send := func(data []byte) error {
		_, err := card.Send(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, data)
		return err
	}
	s := [6]*big.Int(signals)
	other := freshAddress(t)
	wantRevert(t, "the fee to another receiver", send(vault.PackRevealWithFee(a, b, cc, s, recipient, fee.Amount, other)), "FeeBindingMismatch")
	wantRevert(t, "a higher fee", send(vault.PackRevealWithFee(a, b, cc, s, recipient, big.NewInt(31), receiver)), "FeeBindingMismatch")
	wantRevert(t, "another recipient", send(vault.PackRevealWithFee(a, b, cc, s, other, fee.Amount, receiver)), "FeeBindingMismatch")
	wantRevert(t, "the proof as a reveal without fee", send(vault.PackReveal(a, b, cc, s, recipient)), "RecipientMismatch")
	wantRevert(t, "no fee", send(vault.PackRevealWithFee(a, b, cc, s, recipient, new(big.Int), receiver)), "InvalidFee")
	whole := s
	whole[zk.SignalRecipient] = zk.FeeBinding(recipient, zk.Fee{Amount: big.NewInt(1000), Receiver: receiver})
	wantRevert(t, "a fee of the whole amount", send(vault.PackRevealWithFee(a, b, cc, whole, recipient, big.NewInt(1000), receiver)), "InvalidFee")

	if err := send(vault.PackRevealWithFee(a, b, cc, s, recipient, fee.Amount, receiver)); err != nil {
		t.Fatalf("the fee-paying reveal: %v", err)
	}
	if got := tokenBalance(t, c, token, recipient); got.Cmp(big.NewInt(970)) != 0 {
		t.Errorf("the recipient holds %s, want 970", got)
	}
	if got := tokenBalance(t, c, token, receiver); got.Cmp(big.NewInt(30)) != 0 {
		t.Errorf("the fee's receiver holds %s, want 30", got)
	}
	if _, _, err := keys(t).Prove(zk.RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: big.NewInt(1000), Recipient: recipient,
		Fee: &zk.Fee{Amount: big.NewInt(1000), Receiver: receiver}}); err == nil {
		t.Error("the prover proved a fee of the whole amount")
	}
}
