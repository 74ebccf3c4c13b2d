package card_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

var ctx = context.Background()

func keys(t testing.TB) *zk.Keys {
	k, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func freshAddress(t testing.TB) common.Address {
	k, _ := crypto.GenerateKey()
	return crypto.PubkeyToAddress(k.PublicKey)
}

func tokenBalance(t testing.TB, c *devchain.Chain, token, who common.Address) *big.Int {
	w := contracts.NewWrappedToken()
	b, err := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(who), w.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newCard(t testing.TB, c *devchain.Chain, from *ecdsa.PrivateKey, token common.Address, amount int64) card.Card {
	t.Helper()
	cd, _, err := card.Create(ctx, c.Client(), from, c.Contracts.Vault, token, big.NewInt(amount))
	if err != nil {
		t.Fatal(err)
	}
	return cd
}

func wantRevert(t testing.TB, what string, err error, name string) {
	t.Helper()
	var re *card.RevertError
	if !errors.As(err, &re) || re.Revert.Name != name {
		t.Fatalf("%s: err = %v, want the vault's %s", what, err, name)
	}
}

// The whole card flow, directly on chain: commit, prove, reveal; the recipient, who holds no
// gas, gets exactly the amount; a second reveal is refused.
func TestCardRevealDirect(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[1].Address // vUSDC, 6 decimals
	sender, relayer := c.Accounts.Users[0], c.Accounts.Users[1]
	cd, commitReceipt, err := card.Create(ctx, c.Client(), sender.Key, c.Contracts.Vault, token, big.NewInt(25_000_000))
	if err != nil {
		t.Fatal(err)
	}
	back, err := card.Parse(cd.String())
	if err != nil || back.String() != cd.String() {
		t.Fatalf("card string round trip: %v", err)
	}

	recipient := freshAddress(t)
	req, err := card.Prepare(ctx, c.Client(), keys(t), back, recipient)
	if err != nil {
		t.Fatal(err)
	}
	vaultBefore := tokenBalance(t, c, token, c.Contracts.Vault)
	receipt, err := card.Reveal(ctx, c.Client(), relayer.Key, c.Contracts.Vault, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := tokenBalance(t, c, token, recipient); got.Cmp(big.NewInt(25_000_000)) != 0 {
		t.Fatalf("recipient holds %s, want 25000000", got)
	}
	if d := new(big.Int).Sub(vaultBefore, tokenBalance(t, c, token, c.Contracts.Vault)); d.Cmp(big.NewInt(25_000_000)) != 0 {
		t.Fatalf("the vault paid out %s", d)
	}
	if eth, _ := c.Client().BalanceAt(ctx, recipient, nil); eth.Sign() != 0 {
		t.Fatalf("the recipient holds %s wei: it should never need gas", eth)
	}
	t.Logf("gas: commit %d, reveal %d", commitReceipt.GasUsed, receipt.GasUsed)

	if _, err := card.Prepare(ctx, c.Client(), keys(t), cd, recipient); !errors.Is(err, card.ErrAlreadyRedeemed) {
		t.Fatalf("preparing a redeemed card: %v", err)
	}
	_, err = card.Reveal(ctx, c.Client(), relayer.Key, c.Contracts.Vault, req)
	wantRevert(t, "second reveal", err, "NullifierAlreadySpent")
}

// Each way a reveal can be wrong is refused with its own custom error, and the right one still
// goes through afterwards.
func TestRevealRejections(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[0].Address
	cd := newCard(t, c, c.Accounts.Users[0].Key, token, 1000)
	recipient := freshAddress(t)
	req, err := card.Prepare(ctx, c.Client(), keys(t), cd, recipient)
	if err != nil {
		t.Fatal(err)
	}
	send := func(data []byte) error {
		_, err := card.Send(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, data)
		return err
	}
	vault := contracts.NewCommitRevealVault()
	proof, _ := zk.ParseProof(req.Proof)
	signals, _ := zk.ParseSignals(req.PublicSignals)
	a, b, cc := proof.CallArgs()
	with := func(f func(s *zk.Signals)) [6]*big.Int {
		s := signals
		f(&s)
		return [6]*big.Int(s)
	}

	wantRevert(t, "wrong recipient", send(vault.PackReveal(a, b, cc, [6]*big.Int(signals), freshAddress(t))), "RecipientMismatch")
	wantRevert(t, "unknown root", send(vault.PackReveal(a, b, cc, with(func(s *zk.Signals) { s[zk.SignalMerkleRoot] = big.NewInt(12345) }), recipient)), "UnknownRoot")
	wantRevert(t, "tampered amount", send(vault.PackReveal(a, b, cc, with(func(s *zk.Signals) { s[zk.SignalAmount] = big.NewInt(999) }), recipient)), "InvalidProof")
	wantRevert(t, "unknown token id", send(vault.PackReveal(a, b, cc, with(func(s *zk.Signals) { s[zk.SignalTokenID] = big.NewInt(7) }), recipient)), "UnknownTokenId")
	unswapped := [2][2]*big.Int{{b[0][1], b[0][0]}, {b[1][1], b[1][0]}}
	wantRevert(t, "pi_b in JSON order", send(vault.PackReveal(a, unswapped, cc, [6]*big.Int(signals), recipient)), "InvalidProof")
	// The verifier skips a zero signal's term: a change claimed where the proof has none is
	// refused all the same (and a change dropped from a proof that has one, in
	// TestPartialRevealLeavesChange).
	wantRevert(t, "a change the proof does not have", send(vault.PackReveal(a, b, cc, with(func(s *zk.Signals) { s[zk.SignalChangeCommitment] = big.NewInt(5) }), recipient)), "InvalidProof")
	wantRevert(t, "zero recipient", send(vault.PackReveal(a, b, cc, with(func(s *zk.Signals) { s[zk.SignalRecipient] = new(big.Int) }), common.Address{})), "InvalidRecipient")

	if _, err := card.Reveal(ctx, c.Client(), c.Accounts.Users[1].Key, c.Contracts.Vault, req); err != nil {
		t.Fatalf("the valid reveal after the refusals: %v", err)
	}
}

// A proof against an older root that is still in the history is accepted; one whose root has
// left the 32-root history is refused.
func TestOlderRoots(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[0].Address
	user := c.Accounts.Users[0].Key
	old := newCard(t, c, user, token, 10)
	oldReq, err := card.Prepare(ctx, c.Client(), keys(t), old, freshAddress(t))
	if err != nil {
		t.Fatal(err)
	}
	stale := newCard(t, c, user, token, 11)
	staleReq, err := card.Prepare(ctx, c.Client(), keys(t), stale, freshAddress(t))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		newCard(t, c, user, token, 1)
	}
	if _, err := card.Reveal(ctx, c.Client(), user, c.Contracts.Vault, oldReq); err != nil {
		t.Fatalf("reveal against a root 4 inserts old: %v", err)
	}
	for range 32 {
		newCard(t, c, user, token, 1)
	}
	_, err = card.Reveal(ctx, c.Client(), user, c.Contracts.Vault, staleReq)
	wantRevert(t, "root out of the history", err, "UnknownRoot")
	// A fresh proof for the same card, against the current root, goes through.
	fresh, err := card.Prepare(ctx, c.Client(), keys(t), stale, common.HexToAddress(staleReq.Recipient))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := card.Reveal(ctx, c.Client(), user, c.Contracts.Vault, fresh); err != nil {
		t.Fatal(err)
	}
}

// Poseidon agrees between the contracts (poseidon-solidity, through the tree root, the leaf the
// vault computes and the tokenId it registers) and go-iden3-crypto; the circuit's agreement with
// go-iden3-crypto is in service/vault/zk.
func TestPoseidonAgreesOnChain(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[2].Address
	vault := contracts.NewCommitRevealVault()
	inst := vault.Instance(c.Client(), c.Contracts.Vault)
	onchainID, err := bind.Call(inst, nil, vault.PackTokenIdOf(token), vault.UnpackTokenIdOf)
	if err != nil {
		t.Fatal(err)
	}
	goID, _ := tokenid.Compute(token, c.ChainID)
	if onchainID.Cmp(goID) != 0 {
		t.Fatalf("tokenId: contract %s, Go %s", onchainID, goID)
	}
	// Twelve leaves: indices with up to three trailing 1-bits, left children with and without a
	// right sibling. card.Tree checks the root each insertion's event states.
	var cards []card.Card
	for i := range 12 {
		cards = append(cards, newCard(t, c, c.Accounts.Users[i%3].Key, token, int64(100+i)))
	}
	tree, err := card.Tree(ctx, c.Client(), c.Contracts.CommitmentTree)
	if err != nil {
		t.Fatal(err)
	}
	for i, cd := range cards {
		note, _ := cd.Note()
		if tree.Leaf(i).Cmp(note.Leaf()) != 0 {
			t.Fatalf("leaf %d: contract %s, Go %s", i, tree.Leaf(i), note.Leaf())
		}
	}
	ct := contracts.NewCommitRevealVault()
	root, err := bind.Call(ct.Instance(c.Client(), c.Contracts.CommitmentTree), nil, ct.PackGetLastRoot(), ct.UnpackGetLastRoot)
	if err != nil {
		t.Fatal(err)
	}
	if new(big.Int).SetBytes(root[:]).Cmp(tree.Root()) != 0 {
		t.Fatalf("root: contract %x, Go %s", root, tree.Root())
	}
}

// A partial reveal inserts the change note the circuit computed, and the change note can be
// revealed in turn.
func TestPartialRevealLeavesChange(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[0].Address
	user := c.Accounts.Users[0].Key
	cd := newCard(t, c, user, token, 100)
	note, _ := cd.Note()
	tree, _ := card.Tree(ctx, c.Client(), c.Contracts.CommitmentTree)
	changeSecret, changeNullifier, _ := card.NewSecrets()
	recipient := freshAddress(t)
	proof, signals, err := keys(t).Prove(zk.RevealRequest{Note: note, Tree: tree, LeafIndex: 0, Amount: big.NewInt(40), Recipient: recipient,
		ChangeSecret: changeSecret, ChangeNullifierSecret: changeNullifier})
	if err != nil {
		t.Fatal(err)
	}
	// The change dropped (signal 0, a term the verifier skips): refused, nothing spent.
	dropped := signals
	dropped[zk.SignalChangeCommitment] = new(big.Int)
	a, b, cc := proof.CallArgs()
	_, err = card.Send(ctx, c.Client(), user, c.Contracts.Vault, contracts.NewCommitRevealVault().PackReveal(a, b, cc, [6]*big.Int(dropped), recipient))
	wantRevert(t, "the change dropped", err, "InvalidProof")
	req := card.Request{Proof: proof.JSON(), PublicSignals: signals.Hex(), Recipient: recipient.Hex(), TokenAddress: token.Hex(), Amount: "40"}
	if _, err := card.Reveal(ctx, c.Client(), user, c.Contracts.Vault, req); err != nil {
		t.Fatal(err)
	}
	change := card.Card{ChainID: cd.ChainID, Vault: cd.Vault, Token: token, Amount: big.NewInt(60), Secret: changeSecret, NullifierSecret: changeNullifier}
	changeReq, err := card.Prepare(ctx, c.Client(), keys(t), change, recipient)
	if err != nil {
		t.Fatalf("the change note is not in the tree: %v", err)
	}
	if _, err := card.Reveal(ctx, c.Client(), user, c.Contracts.Vault, changeReq); err != nil {
		t.Fatal(err)
	}
	if got := tokenBalance(t, c, token, recipient); got.Cmp(big.NewInt(100)) != 0 {
		t.Fatalf("recipient holds %s after both reveals, want 100", got)
	}
}

// A token that calls back into commit from its transferFrom is refused there (Reentrancy, the
// flag in transient storage): one transfer is never counted for two deposits.
func TestATokenCannotReenterCommit(t *testing.T) {
	c := devchaintest.Start(t)
	deployer, user := c.Accounts.Deployer.Key, c.Accounts.Users[0]
	tx, err := devchain.SendTx(ctx, c, deployer, nil, nil, common.FromHex(contracts.ReentrantTokenMetaData.Bin))
	if err != nil {
		t.Fatal(err)
	}
	receipt, err := devchain.WaitReceipt(ctx, c.Client(), tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	token, rt, vault := receipt.ContractAddress, contracts.NewReentrantToken(), contracts.NewCommitRevealVault()
	send := func(key *ecdsa.PrivateKey, to common.Address, data []byte) {
		t.Helper()
		if _, err := card.Send(ctx, c.Client(), key, to, data); err != nil {
			t.Fatal(err)
		}
	}
	send(deployer, c.Contracts.Vault, vault.PackRegisterToken(token))
	send(user.Key, token, rt.PackMint(user.Address, big.NewInt(10)))
	send(user.Key, token, rt.PackMint(token, big.NewInt(1))) // what the re-entered commit would move
	send(user.Key, token, rt.PackArm(c.Contracts.Vault, common.BigToHash(zk.Commitment(big.NewInt(71), big.NewInt(72)))))
	leaves := func() uint32 {
		n, err := bind.Call(vault.Instance(c.Client(), c.Contracts.Vault), nil, vault.PackNextIndex(), vault.UnpackNextIndex)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := leaves()
	send(user.Key, c.Contracts.Vault, vault.PackCommit(token, big.NewInt(5), common.BigToHash(zk.Commitment(big.NewInt(81), big.NewInt(82)))))
	inst := rt.Instance(c.Client(), token)
	if reentered, _ := bind.Call(inst, nil, rt.PackReentered(), rt.UnpackReentered); !reentered {
		t.Fatal("the token did not call back into commit")
	}
	got, err := bind.Call(inst, nil, rt.PackReentryError(), rt.UnpackReentryError)
	if want := vault.GetABI().Errors["Reentrancy"].ID; err != nil || got != [4]byte(want[:4]) {
		t.Fatalf("the re-entered commit ended with %x (%v), want Reentrancy()", got, err)
	}
	if n := leaves(); n != before+1 {
		t.Fatalf("%d leaves inserted, want 1", n-before)
	}
}

func TestPrepareErrors(t *testing.T) {
	c := devchaintest.Start(t)
	token := c.Tokens[0].Address
	cd := newCard(t, c, c.Accounts.Users[0].Key, token, 5)
	unknown := cd
	unknown.Secret = big.NewInt(42)
	if _, err := card.Prepare(ctx, c.Client(), keys(t), unknown, freshAddress(t)); !errors.Is(err, card.ErrUnknownCard) {
		t.Errorf("unknown card: %v", err)
	}
	other := cd
	other.ChainID = 5446
	if _, err := card.Prepare(ctx, c.Client(), keys(t), other, freshAddress(t)); !errors.Is(err, card.ErrWrongChain) {
		t.Errorf("other chain: %v", err)
	}
	legacy := cd
	legacy.Token = c.Tokens[3].Address
	if _, err := card.Prepare(ctx, c.Client(), keys(t), legacy, freshAddress(t)); !errors.Is(err, card.ErrWrongToken) {
		t.Errorf("token the vault does not hold: %v", err)
	}
	if _, _, err := card.Create(ctx, c.Client(), c.Accounts.Users[0].Key, c.Contracts.Vault, c.Tokens[3].Address, big.NewInt(1)); !errors.Is(err, card.ErrWrongToken) {
		t.Errorf("create with an unregistered token: %v", err)
	}
	client := c.Client()
	c.Close()
	if _, err := card.Prepare(ctx, client, keys(t), cd, freshAddress(t)); !errors.Is(err, chain.ErrUnavailable) {
		t.Errorf("chain down: %v", err)
	}
	for _, bad := range []string{"", "vaultd-card:v2?chain=1", "https://example.com", cd.String()[:len(cd.String())-10] + "zz"} {
		if _, err := card.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// A vault deployed with an operator lets only the operator reveal.
func TestOperatorOnlyVault(t *testing.T) {
	c := devchaintest.Start(t)
	v, err := c.DeployVault(ctx, c.Accounts.Operator.Address)
	if err != nil {
		t.Fatal(err)
	}
	token := c.Tokens[0].Address
	cd, _, err := card.Create(ctx, c.Client(), c.Accounts.Users[0].Key, v.Vault, token, big.NewInt(3))
	if err != nil {
		t.Fatal(err)
	}
	req, err := card.Prepare(ctx, c.Client(), keys(t), cd, freshAddress(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = card.Reveal(ctx, c.Client(), c.Accounts.Users[1].Key, v.Vault, req)
	wantRevert(t, "reveal by another account", err, "NotOperator")
	if _, err := card.Reveal(ctx, c.Client(), c.Accounts.Operator.Key, v.Vault, req); err != nil {
		t.Fatalf("reveal by the operator: %v", err)
	}
}

// A commitment already deposited is refused, decoded as the vault's error: a second deposit
// under it would share its nullifier and could never be revealed. Nothing is taken.
func TestCommitmentUsedTwiceIsRefused(t *testing.T) {
	c := devchaintest.Start(t)
	from := c.Accounts.Users[0]
	token := c.Tokens[0].Address
	cd := newCard(t, c, from.Key, token, 70)
	note, err := cd.Note()
	if err != nil {
		t.Fatal(err)
	}
	vault := contracts.NewCommitRevealVault()
	wrapped := contracts.NewWrappedToken()
	if _, err := card.Send(ctx, c.Client(), from.Key, token, wrapped.PackApprove(c.Contracts.Vault, big.NewInt(70))); err != nil {
		t.Fatal(err)
	}
	before := tokenBalance(t, c, token, from.Address)
	_, err = card.Send(ctx, c.Client(), from.Key, c.Contracts.Vault, vault.PackCommit(token, big.NewInt(70), common.BigToHash(note.Commitment())))
	wantRevert(t, "the same commitment again", err, "CommitmentAlreadyUsed")
	if after := tokenBalance(t, c, token, from.Address); after.Cmp(before) != 0 {
		t.Fatalf("the refused deposit took %s", new(big.Int).Sub(before, after))
	}
}

// The request the browser prover writes (note.Request, hand-tagged: the wasm stays free of the
// generated server code) is, as JSON, exactly the relayer's generated model built by ToAPI.
func TestRequestJSONIsTheRelayerModel(t *testing.T) {
	req := card.Request{Proof: zk.ProofJSON{PiA: []string{"1", "2", "1"}, PiB: [][]string{{"1", "2"}, {"3", "4"}, {"1", "0"}}, PiC: []string{"5", "6", "1"}},
		PublicSignals: []string{"0x01", "0x02", "0x03", "0x04", "0x05", "0x06"}, Recipient: "0x1111111111111111111111111111111111111111",
		TokenAddress: "0x2222222222222222222222222222222222222222", Amount: "7"}
	a, _ := json.Marshal(req)
	b, _ := json.Marshal(card.ToAPI(req))
	var av, bv any
	json.Unmarshal(a, &av)
	json.Unmarshal(b, &bv)
	if !reflect.DeepEqual(av, bv) {
		t.Fatalf("note.Request %s\nrelayerapi %s", a, b)
	}
}
