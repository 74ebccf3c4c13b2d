// Package deploy puts vaultd's contracts on an EVM chain, the dev chain or any other: the
// Poseidon libraries, the Groth16 verifier with a verifying key, the vault with its commitment
// tree and nullifier registry, the registration of tokens, and on test chains the dev token
// factory with its tokens. It is resumable and idempotent: every transaction is recorded in a
// Journal before it is sent, a run that died halfway follows what it sent instead of sending it
// again, and what is already on the chain (checked there: code, links, registrations) is not
// deployed twice. Preflight checks the node (chain id, BN254 precompiles, the opcodes the
// contracts use, the deployer's balance) before any gas is spent. cmd/deploy is its command.
package deploy

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Options say what to deploy.
type Options struct {
	// VerificationKey is the key the verifier is deployed with (a ceremony's
	// verification_key.json, or zk.DevVerificationKey with DevKeys set).
	VerificationKey *zk.VerificationKey
	DevKeys         bool // the key is the dev key: recorded as "devKeys": true
	// Operator, when set, is the only address that may call the vault's reveal.
	Operator common.Address
	// Tokens are existing ERC-20 tokens to register in the vault.
	Tokens []common.Address
	// DevTokens deploys the dev token factory and its tokens (DevTokenList), registered in the
	// vault and minted to MintTo: for test chains.
	DevTokens bool
	MintTo    []common.Address
	// ChainID, when set, is the chain the deployment must be for; 0 takes the node's.
	ChainID uint64
	// DeprecatedChainID lets the deployment go on a chain whose id is the deprecated one (the
	// dev chain started with it, to test the services' warning); otherwise preflight refuses it.
	DeprecatedChainID bool
	// Log receives one line per step; nil discards them.
	Log io.Writer
	// Poll is how often, at most, a sent transaction is looked for (from 25 ms, doubling); 0
	// means 500 ms.
	Poll time.Duration
}

// Token is a token the vault takes.
type Token struct {
	Address  common.Address `json:"address"`
	Name     string         `json:"name"`
	Symbol   string         `json:"symbol"`
	Decimals uint8          `json:"decimals"`
}

// DevTokenList is what the dev token factory creates: the usual decimals of stablecoins (6),
// bitcoin (8) and ether (18).
var DevTokenList = []Token{
	{Name: "Vault Wrapped Ether", Symbol: "vWETH", Decimals: 18},
	{Name: "Vault Wrapped USD Coin", Symbol: "vUSDC", Decimals: 6},
	{Name: "Vault Wrapped Bitcoin", Symbol: "vWBTC", Decimals: 8},
}

// DevMint is how many whole tokens of each dev token every MintTo address receives.
const DevMint = 1_000_000

// Report says what a run did.
type Report struct {
	Steps []StepReport
}

// StepReport is one step of a run.
type StepReport struct {
	Name    string
	Tx      common.Hash // zero when the step found its work done without a transaction
	GasUsed uint64
	Budget  uint64 // the most the step was expected to cost (gasBudget)
	Sent    bool   // this run sent the transaction (or sent it again)
}

// Sent is how many transactions the run sent.
func (r Report) Sent() int {
	n := 0
	for _, s := range r.Steps {
		if s.Sent {
			n++
		}
	}
	return n
}

// GasUsed is the gas of every step's transaction, whichever run sent it.
func (r Report) GasUsed() uint64 {
	var g uint64
	for _, s := range r.Steps {
		g += s.GasUsed
	}
	return g
}

// Run deploys what opts asks for from key's wallet, following and extending journal, and
// returns the deployment (what the services read) and what it did. existing, when not nil, is
// an earlier deployment file whose addresses are checked on chain and kept when right.
func Run(ctx context.Context, client *chain.Client, key *ecdsa.PrivateKey, opts Options, journal *Journal, existing *Deployment) (Deployment, Report, error) {
	r, err := newRun(ctx, client, key, opts, journal, existing)
	if err != nil {
		return Deployment{}, Report{}, err
	}
	if err := r.preflight(ctx); err != nil {
		return Deployment{}, Report{}, err
	}
	for _, s := range r.steps() {
		rep, err := r.do(ctx, s)
		if err != nil {
			return Deployment{}, r.report, fmt.Errorf("%s: %w", s.name, err)
		}
		r.report.Steps = append(r.report.Steps, rep)
	}
	return r.deployment(), r.report, nil
}

// run is one run of the deployment: its settings and what it learned so far.
type run struct {
	client   *chain.Client
	key      *ecdsa.PrivateKey
	from     common.Address
	chainID  uint64
	opts     Options
	journal  *Journal
	existing Deployment
	log      io.Writer
	report   Report

	// what the steps made
	libraries                                map[string]common.Address // Poseidon libraries by bind.MetaData ID
	verifier, vault, tree, registry, factory common.Address
	tokens                                   []Token          // registered: opts.Tokens, then the dev tokens
	devTokens                                []common.Address // DevTokenList's, in its order
}

func newRun(ctx context.Context, client *chain.Client, key *ecdsa.PrivateKey, opts Options, journal *Journal, existing *Deployment) (*run, error) {
	if opts.VerificationKey == nil {
		return nil, errors.New("no verifying key: give a ceremony's verification_key.json, or the dev keys")
	}
	if opts.Poll == 0 {
		opts.Poll = 500 * time.Millisecond
	}
	r := &run{client: client, key: key, from: crypto.PubkeyToAddress(key.PublicKey), opts: opts, journal: journal,
		log: opts.Log, libraries: map[string]common.Address{}}
	if r.log == nil {
		r.log = io.Discard
	}
	if existing != nil {
		r.existing = *existing
	}
	id, err := client.ChainID(ctx)
	if err != nil {
		return nil, err
	}
	r.chainID = id
	if journal.ChainID != 0 && journal.ChainID != id {
		return nil, fmt.Errorf("%s is the journal of a deployment on chain %d, and the node is chain %d: give another --out", journal.path, journal.ChainID, id)
	}
	if journal.Deployer != (common.Address{}) && journal.Deployer != r.from {
		return nil, fmt.Errorf("%s is the journal of deployer %s, not %s: give its key, or another --out", journal.path, journal.Deployer.Hex(), r.from.Hex())
	}
	if r.existing.ChainID != 0 && r.existing.ChainID != id {
		return nil, fmt.Errorf("the deployment file is for chain %d, and the node is chain %d: give another --out", r.existing.ChainID, id)
	}
	journal.ChainID, journal.Deployer = id, r.from
	return r, nil
}

// step is one transaction of the deployment, or the finding that its work is done.
type step struct {
	name string
	gas  uint64 // what it costs at most (gasBudget), for the balance check
	// tx builds the transaction (to == nil creates a contract); it runs when the step is
	// reached, so it may use what earlier steps made.
	tx func() (to *common.Address, data []byte)
	// made reads from the receipt the address of what the step made (nil: it makes nothing).
	made func(*types.Receipt) (common.Address, error)
	// known is where the existing deployment file says the step's contract is (zero: nowhere).
	known func() common.Address
	// check says whether what the step made at addr is right (an error says what is wrong);
	// for a step that makes nothing, addr is zero and check says whether its effect is in place
	// (errNotDone when it is not).
	check func(ctx context.Context, addr common.Address) error
	// keep takes what the step made into the run.
	keep func(addr common.Address)
}

// errNotDone is a check's answer for work that is not on the chain yet.
var errNotDone = errors.New("not done")

// errDisplaced means another transaction of the deployer used the nonce of the step's.
var errDisplaced = errors.New("displaced")

// do runs one step: follows the transaction the journal has for it, or finds its work done, or
// sends its transaction.
func (r *run) do(ctx context.Context, s step) (StepReport, error) {
	rep := StepReport{Name: s.name, Budget: s.gas}
	if rec := r.journal.Steps[s.name]; rec != nil {
		receipt, err := r.follow(ctx, s.name, rec, time.Time{}, &rep)
		switch {
		case errors.Is(err, errDisplaced):
			fmt.Fprintf(r.log, "%-28s transaction %s was displaced at nonce %d: made again\n", s.name, rec.Hash, rec.Nonce)
			if err := r.journal.drop(s.name); err != nil {
				return rep, err
			}
		case err != nil:
			return rep, err
		default:
			return rep, r.settle(ctx, s, rec, receipt, &rep)
		}
	}
	if s.known != nil {
		if addr := s.known(); addr != (common.Address{}) {
			if err := s.check(ctx, addr); err != nil {
				return rep, fmt.Errorf("the deployment file has it at %s, but %w (move the file away to deploy afresh)", addr.Hex(), err)
			}
			fmt.Fprintf(r.log, "%-28s already at %s\n", s.name, addr.Hex())
			s.keep(addr)
			return rep, nil
		}
	}
	if s.made == nil {
		switch err := s.check(ctx, common.Address{}); {
		case err == nil:
			fmt.Fprintf(r.log, "%-28s already done\n", s.name)
			return rep, nil
		case !errors.Is(err, errNotDone):
			return rep, err
		}
	}
	rec, sentAt, err := r.send(ctx, s)
	if err != nil {
		return rep, err
	}
	rep.Sent = true
	receipt, err := r.follow(ctx, s.name, rec, sentAt, &rep)
	if err != nil {
		if errors.Is(err, errDisplaced) {
			err = fmt.Errorf("transaction %s was displaced at nonce %d by another of %s: run again", rec.Hash, rec.Nonce, r.from.Hex())
		}
		return rep, err
	}
	return rep, r.settle(ctx, s, rec, receipt, &rep)
}

// settle takes the mined receipt of a step's transaction: what it made, checked on chain.
func (r *run) settle(ctx context.Context, s step, rec *Record, receipt *types.Receipt, rep *StepReport) error {
	rep.Tx, rep.GasUsed = receipt.TxHash, receipt.GasUsed
	if receipt.Status != types.ReceiptStatusSuccessful {
		if s.made == nil && s.check(ctx, common.Address{}) == nil { // done meanwhile by someone else
			return nil
		}
		return fmt.Errorf("transaction %s reverted in block %d", receipt.TxHash, receipt.BlockNumber)
	}
	var addr common.Address
	if s.made != nil {
		if err := r.waitHead(ctx, receipt.BlockNumber.Uint64()); err != nil {
			return err
		}
		var err error
		if addr, err = s.made(receipt); err != nil {
			return err
		}
		if err := s.check(ctx, addr); err != nil {
			return fmt.Errorf("transaction %s made %s, but %w", receipt.TxHash, addr.Hex(), err)
		}
		s.keep(addr)
	}
	if rec.Block == 0 {
		rec.Block, rec.GasUsed, rec.Address = receipt.BlockNumber.Uint64(), receipt.GasUsed, addr
		if err := r.journal.put(s.name, rec); err != nil {
			return err
		}
	}
	verb := "mined"
	if !rep.Sent {
		verb = "found mined"
	}
	what := ""
	if addr != (common.Address{}) {
		what = " → " + addr.Hex()
	}
	fmt.Fprintf(r.log, "%-28s %s in block %d, gas %d%s\n", s.name, verb, receipt.BlockNumber, receipt.GasUsed, what)
	return nil
}

// send signs the step's transaction, records it in the journal, and sends it.
func (r *run) send(ctx context.Context, s step) (*Record, time.Time, error) {
	to, data := s.tx()
	gas, err := r.client.EstimateGas(ctx, ethereum.CallMsg{From: r.from, To: to, Data: data})
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("the node refuses the transaction: %s", r.reason(err))
	}
	tip, feeCap, err := chain.WalletFees(ctx, r.client.Eth())
	if err != nil {
		return nil, time.Time{}, err
	}
	nonce, err := r.client.PendingNonceAt(ctx, r.from)
	if err != nil {
		return nil, time.Time{}, err
	}
	tx, err := types.SignNewTx(r.key, types.LatestSignerForChainID(new(big.Int).SetUint64(r.chainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(r.chainID), Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap,
		Gas: gas * 12 / 10, To: to, Data: data,
	})
	if err != nil {
		return nil, time.Time{}, err
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return nil, time.Time{}, err
	}
	rec := &Record{Nonce: nonce, Hash: tx.Hash(), Raw: raw}
	if err := r.journal.put(s.name, rec); err != nil {
		return nil, time.Time{}, fmt.Errorf("record the transaction before sending it: %w", err)
	}
	fmt.Fprintf(r.log, "%-28s sent %s (nonce %d, gas limit %d)\n", s.name, tx.Hash(), nonce, tx.Gas())
	err = r.client.SendTransaction(ctx, tx)
	if err != nil && chain.IsNodeAnswer(err) && !alreadySent(err) { // refused: it never left
		if dropErr := r.journal.drop(s.name); dropErr != nil {
			return nil, time.Time{}, dropErr
		}
		return nil, time.Time{}, fmt.Errorf("the node refuses the transaction: %w", err)
	}
	// Sent, or perhaps sent (the answer was lost): followed by its hash either way.
	return rec, time.Now(), nil
}

// alreadySent reports a send refused because the node has the transaction (or its nonce is
// used: follow decides by whom).
func alreadySent(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "already known") || strings.Contains(msg, "nonce too low") ||
		strings.Contains(msg, "already imported") || strings.Contains(msg, "known transaction")
}

// rebroadcastAfter is how long a sent transaction that no node knows waits before its recorded
// bytes are sent again.
const rebroadcastAfter = 2 * time.Second

// follow waits for the receipt of a recorded transaction. While no node knows it and its nonce
// is unused, it sends the recorded bytes again (the run that signed it may have died before
// they left); when the nonce was used by another transaction, it answers errDisplaced.
func (r *run) follow(ctx context.Context, name string, rec *Record, sentAt time.Time, rep *StepReport) (*types.Receipt, error) {
	tx, err := rec.Tx()
	if err != nil {
		return nil, err
	}
	waiting := false
	var checked time.Time                         // when the nonce was last looked at
	poll := min(25*time.Millisecond, r.opts.Poll) // a chain that seals at once answers in a few ms; then up to Poll
	for {
		receipt, err := r.client.TransactionReceipt(ctx, rec.Hash)
		if err == nil {
			return receipt, nil
		}
		// Not mined yet: every rebroadcastAfter (at once for a run that resumes), whether its
		// nonce went to another transaction, or no node has it and its bytes go out again.
		if errors.Is(err, ethereum.NotFound) && time.Since(checked) >= rebroadcastAfter {
			checked = time.Now()
			used, err := r.client.NonceAt(ctx, r.from)
			switch {
			case err != nil:
			case used > rec.Nonce: // mined: ours (its receipt not indexed yet) or another's
				if mined, err := r.client.FindNonce(ctx, r.from, rec.Nonce); err == nil && mined.Tx != rec.Hash {
					return nil, errDisplaced
				}
			case time.Since(sentAt) >= rebroadcastAfter:
				if known, err := r.client.TransactionKnown(ctx, rec.Hash); err == nil && !known {
					switch err := r.client.SendTransaction(ctx, tx); {
					case err == nil || alreadySent(err):
						rep.Sent = true
						fmt.Fprintf(r.log, "%-28s sent %s again (nonce %d): no node knew it\n", name, rec.Hash, rec.Nonce)
					case chain.IsNodeAnswer(err): // refused for good (fees too low, say): say so
						return nil, fmt.Errorf("send %s again: %w", rec.Hash, err)
					} // unreachable: tried again later
				}
				sentAt = time.Now()
			}
		}
		if !waiting && time.Since(sentAt) > 10*time.Second {
			fmt.Fprintf(r.log, "%-28s waiting for %s (nonce %d) to be mined\n", name, rec.Hash, rec.Nonce)
			waiting = true
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w (run again to go on following it)", rec.Hash, ctx.Err())
		case <-time.After(poll):
		}
		poll = min(2*poll, r.opts.Poll)
	}
}

// waitHead waits until the node's latest block is at least block: a receipt can be served
// before the state of its block is "latest" (a node between inserting a block and making it the
// head; a provider whose backends are a block apart), and what the step made is checked there.
func (r *run) waitHead(ctx context.Context, block uint64) error {
	for {
		head, err := r.client.BlockNumber(ctx)
		if err == nil && head >= block {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.opts.Poll):
		}
	}
}

// reason says why the node refused an estimate: the contract's error by name when it reverted.
func (r *run) reason(err error) string {
	for _, md := range []*bind.MetaData{&contracts.CommitRevealVaultMetaData, &contracts.WrappedTokenMetaData} {
		parsed, perr := md.ParseABI()
		if perr != nil {
			continue
		}
		if rev, ok := chain.RevertOf(parsed, err); ok && rev.Name != "" {
			return rev.String()
		}
	}
	return err.Error()
}

// call makes an eth_call and unpacks its answer.
func call[T any](ctx context.Context, r *run, to common.Address, data []byte, unpack func([]byte) (T, error)) (T, error) {
	out, err := r.client.Call(ctx, "deploy_check", to, data)
	if err != nil {
		var zero T
		return zero, err
	}
	return unpack(out)
}
