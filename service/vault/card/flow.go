package card

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Errors a card holder can act on.
var (
	ErrAlreadyRedeemed = errors.New("this card has already been redeemed")
	ErrWrongToken      = errors.New("the vault does not hold this card's token")
	ErrWrongChain      = errors.New("the card is for another chain")
	// ErrRecipientNotAllowed is a recipient that is the vault or a token it registered: a
	// contract, which keeps what is sent to it, so the card would be lost.
	ErrRecipientNotAllowed = errors.New("the recipient is the vault or a token's contract, not a wallet: what is sent there is lost")
)

var (
	vaultABI    = contracts.NewCommitRevealVault()
	vaultErrors = vaultABI.GetABI()
	treeABI     = contracts.NewCommitRevealVault()
	nullABI     = contracts.NewCommitRevealVault()
	tokenABI    = contracts.NewWrappedToken()
)

// Create approves and commits amount of token from key's account into the vault and returns
// the card. It waits for both transactions.
func Create(ctx context.Context, client *ethclient.Client, key *ecdsa.PrivateKey, vault, token common.Address, amount *big.Int) (Card, *types.Receipt, error) {
	chainID, err := client.ChainID(ctx)
	if err != nil {
		return Card{}, nil, fmt.Errorf("%w: %w", chain.ErrUnavailable, err)
	}
	c := Card{ChainID: chainID.Uint64(), Vault: vault, Token: token, Amount: amount}
	if c.Secret, c.NullifierSecret, err = NewSecrets(); err != nil {
		return Card{}, nil, err
	}
	id, err := bind.Call(vaultABI.Instance(client, vault), &bind.CallOpts{Context: ctx}, vaultABI.PackTokenIdOf(token), vaultABI.UnpackTokenIdOf)
	if err != nil {
		return Card{}, nil, fmt.Errorf("read the vault: %w", err)
	}
	if id.Sign() == 0 {
		return Card{}, nil, ErrWrongToken
	}
	if _, err := Send(ctx, client, key, token, tokenABI.PackApprove(vault, amount)); err != nil {
		return Card{}, nil, fmt.Errorf("approve: %w", err)
	}
	commitment := zk.Commitment(c.Secret, c.NullifierSecret)
	receipt, err := Send(ctx, client, key, vault, vaultABI.PackCommit(token, amount, common.BigToHash(commitment)))
	if err != nil {
		return Card{}, nil, fmt.Errorf("commit: %w", err)
	}
	return c, receipt, nil
}

// logIndexLags reports whether err is go-ethereum's log index not having caught up with a
// block just sealed ("failed to retrieve log value pointer … not found"): an answer that holds
// for a moment, not a fault, so the query is asked again.
func logIndexLags(err error) bool {
	return strings.Contains(err.Error(), "log value pointer")
}

// Tree rebuilds the commitment tree from its CommitmentInserted events, in leaf order, and
// checks each event's root against the root the rebuilt tree has after that leaf: a tree that
// computes roots otherwise than the contract (or events from elsewhere) is refused here, not
// found out by a proof the vault refuses.
func Tree(ctx context.Context, client *ethclient.Client, treeAddr common.Address) (*zk.Tree, error) {
	ev := treeABI.GetABI().Events["CommitmentInserted"]
	query := ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{treeAddr}, Topics: [][]common.Hash{{ev.ID}}}
	logs, err := client.FilterLogs(ctx, query)
	for attempt := 0; err != nil && logIndexLags(err) && attempt < 10 && ctx.Err() == nil; attempt++ {
		time.Sleep(100 * time.Millisecond)
		logs, err = client.FilterLogs(ctx, query)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: read CommitmentInserted events: %w", chain.ErrUnavailable, err)
	}
	t := &zk.Tree{}
	for _, l := range logs {
		e, err := treeABI.UnpackCommitmentInsertedEvent(&l)
		if err != nil {
			return nil, err
		}
		if int(e.LeafIndex) != t.Len() {
			return nil, fmt.Errorf("CommitmentInserted events out of order: leaf %d after %d leaves", e.LeafIndex, t.Len())
		}
		t.Append(new(big.Int).SetBytes(e.Commitment[:]))
		if root := new(big.Int).SetBytes(e.Root[:]); root.Cmp(t.Root()) != 0 {
			return nil, fmt.Errorf("after leaf %d the contract's root is %#x and the tree's %#x", e.LeafIndex, root, t.Root())
		}
	}
	return t, nil
}

// Leaves is where a reveal's commitment tree is rebuilt from: the tree contract's address in,
// its leaves in leaf order out.
type Leaves func(ctx context.Context, tree common.Address) (*zk.Tree, error)

// ChainLeaves reads the leaves from the chain's own CommitmentInserted logs (eth_getLogs).
func ChainLeaves(client *ethclient.Client) Leaves {
	return func(ctx context.Context, tree common.Address) (*zk.Tree, error) { return Tree(ctx, client, tree) }
}

// Prepare proves the reveal of the whole card to recipient and returns the request, with the
// tree rebuilt from the chain's logs. It checks first that the card is for this chain, was
// committed, and is not spent.
func Prepare(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c Card, recipient common.Address) (Request, error) {
	return PrepareFrom(ctx, client, keys, c, recipient, ChainLeaves(client))
}

// PrepareFrom is Prepare with the tree rebuilt from leaves (an indexer's, say).
func PrepareFrom(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c Card, recipient common.Address, leaves Leaves) (Request, error) {
	req, _, err := PreparePart(ctx, client, keys, c, recipient, leaves, nil)
	return req, err
}

// PreparePart is PrepareFrom revealing only amount of the card (nil: all of it): what is left
// goes to a new card, the change, returned with fresh secrets (nil when nothing is left). Its
// leaf is inserted by the reveal; keep it before the reveal is sent, or the change is lost.
func PreparePart(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c Card, recipient common.Address, leaves Leaves, amount *big.Int) (Request, *Card, error) {
	return PreparePaying(ctx, client, keys, c, recipient, leaves, amount, nil)
}

// PreparePaying is PreparePart for a reveal that pays a relayer's fee out of the amount revealed
// (nil: none; note.ProvePaying).
func PreparePaying(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c Card, recipient common.Address, leaves Leaves, amount *big.Int, fee *zk.Fee) (Request, *Card, error) {
	change, err := ChangeOf(c, amount)
	if err != nil {
		return Request{}, nil, err
	}
	req, err := PrepareKeeping(ctx, client, keys, c, recipient, leaves, amount, fee, change)
	return req, change, err
}

// PrepareKeeping is PreparePaying with the partial reveal's change given (ChangeOf's; nil for a
// whole reveal): the proofs of one reveal for relayers of different fees then all make that
// change card, so the one kept is the one mined, whichever relayer sends.
func PrepareKeeping(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c Card, recipient common.Address, leaves Leaves, amount *big.Int, fee *zk.Fee, change *Card) (Request, error) {
	chainID, err := client.ChainID(ctx)
	if err != nil {
		return Request{}, fmt.Errorf("%w: %w", chain.ErrUnavailable, err)
	}
	if chainID.Uint64() != c.ChainID {
		return Request{}, fmt.Errorf("%w (card: %d, chain: %d)", ErrWrongChain, c.ChainID, chainID)
	}
	note, err := c.Note()
	if err != nil {
		return Request{}, err
	}
	vault := vaultABI.Instance(client, c.Vault)
	opts := &bind.CallOpts{Context: ctx}
	if tok, err := bind.Call(vault, opts, vaultABI.PackTokenOfId(note.TokenID), vaultABI.UnpackTokenOfId); err != nil {
		return Request{}, fmt.Errorf("read the vault: %w", err)
	} else if tok != c.Token {
		return Request{}, ErrWrongToken
	}
	treeAddr, err := bind.Call(vault, opts, vaultABI.PackCommitmentTree(), vaultABI.UnpackCommitmentTree)
	if err != nil {
		return Request{}, fmt.Errorf("read the vault: %w", err)
	}
	nullAddr, err := bind.Call(vault, opts, vaultABI.PackNullifierRegistry(), vaultABI.UnpackNullifierRegistry)
	if err != nil {
		return Request{}, fmt.Errorf("read the vault: %w", err)
	}
	spent, err := bind.Call(nullABI.Instance(client, nullAddr), opts, nullABI.PackIsSpent(common.BigToHash(note.Nullifier())), nullABI.UnpackIsSpent)
	if err != nil {
		return Request{}, fmt.Errorf("read the nullifier registry: %w", err)
	}
	if spent {
		return Request{}, ErrAlreadyRedeemed
	}
	tree, err := leaves(ctx, treeAddr)
	if err != nil {
		return Request{}, err
	}
	return ProveKeeping(keys, c, tree, recipient, amount, fee, change)
}

// CheckRecipient refuses the vault and every token it registered (its tokenIdOf, read from the
// chain) as a card's recipient, with ErrRecipientNotAllowed.
func CheckRecipient(ctx context.Context, client *ethclient.Client, vault, recipient common.Address) error {
	if recipient == vault {
		return fmt.Errorf("%w (%s is the vault)", ErrRecipientNotAllowed, recipient.Hex())
	}
	id, err := bind.Call(vaultABI.Instance(client, vault), &bind.CallOpts{Context: ctx}, vaultABI.PackTokenIdOf(recipient), vaultABI.UnpackTokenIdOf)
	if err != nil {
		return fmt.Errorf("read the vault: %w", err)
	}
	if id.Sign() != 0 {
		return fmt.Errorf("%w (%s is a token the vault holds)", ErrRecipientNotAllowed, recipient.Hex())
	}
	return nil
}

// Reveal submits the request's reveal from key's account (no relayer) and waits for it.
func Reveal(ctx context.Context, client *ethclient.Client, key *ecdsa.PrivateKey, vault common.Address, req Request) (*types.Receipt, error) {
	data, err := RevealCalldata(req)
	if err != nil {
		return nil, err
	}
	return Send(ctx, client, key, vault, data)
}

// RevealCalldata builds the vault's reveal call from a request: the proof in the contract's
// order (zk.Proof.CallArgs) and the signals as uint256.
func RevealCalldata(req Request) ([]byte, error) {
	proof, err := zk.ParseProof(req.Proof)
	if err != nil {
		return nil, err
	}
	signals, err := zk.ParseSignals(req.PublicSignals)
	if err != nil {
		return nil, err
	}
	recipient, err := address.Parse(req.Recipient)
	if err != nil {
		return nil, err
	}
	a, b, c := proof.CallArgs()
	return vaultABI.PackReveal(a, b, c, [6]*big.Int(signals), recipient), nil
}

// Send sends a transaction from key to `to` with data (chain.SendTx) and waits for its
// receipt. A revert at estimation is returned decoded (see RevertError).
func Send(ctx context.Context, client *ethclient.Client, key *ecdsa.PrivateKey, to common.Address, data []byte) (*types.Receipt, error) {
	tx, err := chain.SendTx(ctx, client, key, &to, nil, data)
	if err != nil {
		if r, ok := chain.RevertOf(&vaultErrors, err); ok {
			return nil, &RevertError{Revert: r}
		}
		return nil, err
	}
	receipt, err := waitReceipt(ctx, client, tx.Hash())
	if err != nil {
		return nil, err
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return receipt, fmt.Errorf("transaction %s reverted", tx.Hash())
	}
	return receipt, nil
}

// RevertError is a call the vault (or a token) refused, decoded.
type RevertError struct{ Revert chain.Revert }

func (e *RevertError) Error() string { return "the vault refused: " + e.Revert.String() }

func waitReceipt(ctx context.Context, client *ethclient.Client, hash common.Hash) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return chain.WaitMined(ctx, client, hash, 10*time.Millisecond)
}

// Spend is a nullifier's spend on chain: the transaction that spent it, its block, and who sent
// it (zero where its NullifierSpent log was not found from the block asked).
type Spend struct {
	TxHash common.Hash
	Block  uint64
	Sender common.Address
}

// Spent reads whether the vault spent nullifier (its nullifier registry's isSpent): nil when it
// did not; else the spend, found among the registry's NullifierSpent logs from block from on.
func Spent(ctx context.Context, client *ethclient.Client, vault common.Address, nullifier common.Hash, from uint64) (*Spend, error) {
	opts := &bind.CallOpts{Context: ctx}
	nullAddr, err := bind.Call(vaultABI.Instance(client, vault), opts, vaultABI.PackNullifierRegistry(), vaultABI.UnpackNullifierRegistry)
	if err != nil {
		return nil, fmt.Errorf("%w: read the vault: %w", chain.ErrUnavailable, err)
	}
	spent, err := bind.Call(nullABI.Instance(client, nullAddr), opts, nullABI.PackIsSpent(nullifier), nullABI.UnpackIsSpent)
	if err != nil {
		return nil, fmt.Errorf("%w: read the nullifier registry: %w", chain.ErrUnavailable, err)
	}
	if !spent {
		return nil, nil
	}
	ev := nullABI.GetABI().Events["NullifierSpent"]
	query := ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from), Addresses: []common.Address{nullAddr}, Topics: [][]common.Hash{{ev.ID}, {nullifier}}}
	logs, err := client.FilterLogs(ctx, query)
	for attempt := 0; err != nil && logIndexLags(err) && attempt < 10 && ctx.Err() == nil; attempt++ {
		time.Sleep(100 * time.Millisecond)
		logs, err = client.FilterLogs(ctx, query)
	}
	if err != nil || len(logs) == 0 {
		return &Spend{}, nil // spent: by which transaction is not needed to know it
	}
	s := &Spend{TxHash: logs[0].TxHash, Block: logs[0].BlockNumber}
	if tx, _, err := client.TransactionByHash(ctx, s.TxHash); err == nil {
		if from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx); err == nil {
			s.Sender = from
		}
	}
	return s, nil
}
