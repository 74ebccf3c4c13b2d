// Package gasbench measures what the vault's operations cost in gas on the in-process dev chain
// (Osaka rules), and where that gas goes: a commit (the first into an empty tree and a later
// one), a reveal of a whole note and a reveal of part of one (its change note inserted), the
// latter also paying a relayer's fee (revealWithFee, as a quote prices it), on the
// real tree (a leaf or two) and at the larger trees of Sizes: those are the calls traced
// (debug_traceCall) with the tree's storage overridden to hold that many leaves (its leaf
// counter, and a root history already full), since filling a tree by commits would take hours.
// An insertion's cost depends on its index: the tree (a LeanIMT) hashes once per 1-bit of it. Each figure is split by where it is spent: the transaction's intrinsic cost,
// the Poseidon hashes (calls into the PoseidonT3 and PoseidonT4 libraries), the proof's
// verification, the token's calls, storage reads and writes, and the rest.
package gasbench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Targets are the most each operation should cost (docs/gas.md, "Targets"); .ci/journey checks
// them on Hardhat too.
var Targets = map[string]uint64{"commit": 450_000, "reveal whole": 320_000, "reveal part": 600_000}

// Sizes are the larger trees measured, by leaves before the insertion (the new leaf's index):
// 1,000 and 100,000 (six 1-bits each), 65,536 = 2^16 (one: the cheapest insertion into a tree
// whose root history is full), 16,383 = 2^14 − 1 (fourteen), and the dearest indices: 131,071 =
// 2^17 − 1, the most 1-bits below 2^17 (seventeen), and 1,048,575 = 2^20 − 1, the last leaf the
// tree takes (twenty).
var Sizes = []int{1_000, 16_383, 65_536, 100_000, 131_071, 1_048_575}

// Profile is one operation's gas, split by where it goes. The parts add up to Total.
type Profile struct {
	Operation string
	Leaves    int // in the tree before the operation
	Total     uint64

	Intrinsic            uint64 // 21,000 and the calldata
	Poseidon             uint64 // the library calls (PoseidonT3 and PoseidonT4), whole
	PoseidonCalls        int
	Verify               uint64 // the verifier's call, whole
	Token                uint64 // the token's calls (balanceOf, transferFrom, transfer), whole
	Storage              uint64 // SLOAD and SSTORE outside those calls, before refunds
	StorageReads, Writes int
	Refund               uint64 // given back at the end (storage set back, as the reentrancy flag is)
	Rest                 uint64 // everything else: the vault's and the tree's own code, events, calls' overhead

	// Estimate is eth_estimateGas of the same call over the same state (0 for a mined
	// transaction): the least gas limit it succeeds with, above Total since a call may forward
	// only 63/64 of what is left (EIP-150) and refunds come back only at the end. A relayer's
	// fee check compares a fee with it, so the quotes follow it (docs/gas.md).
	Estimate uint64
}

// Result is every profile measured.
type Result struct{ Profiles []Profile }

// Run measures on a fresh dev chain and writes a report to out.
func Run(ctx context.Context, out io.Writer) (Result, error) {
	var res Result
	dev, err := devchain.Start(ctx, devchain.Config{Users: 3})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	keys, err := zk.DevKeys()
	if err != nil {
		return res, err
	}
	rpcClient, err := rpc.DialContext(ctx, dev.RPCURL)
	if err != nil {
		return res, err
	}
	defer rpcClient.Close()
	b := &bench{dev: dev, rpc: rpcClient}

	// Real: the first commit into the empty tree, then a later one; a whole and a partial reveal.
	user := dev.Accounts.Users[0]
	token := dev.Tokens[0].Address
	var cards []card.Card
	for i, name := range []string{"commit (the first into an empty tree)", "commit"} {
		c, receipt, err := card.Create(ctx, dev.Client(), user.Key, dev.Contracts.Vault, token, big.NewInt(int64(1_000+i)))
		if err != nil {
			return res, err
		}
		cards = append(cards, c)
		p, err := b.traceTx(ctx, name, i, receipt)
		if err != nil {
			return res, err
		}
		res.Profiles = append(res.Profiles, p)
	}
	tree, err := card.Tree(ctx, dev.Client(), dev.Contracts.CommitmentTree)
	if err != nil {
		return res, err
	}
	var p Profile
	payer := dev.Accounts.Users[1] // pays for the reveals, as a relayer would
	whole, err := revealCalldata(keys, cards[0], tree, nil)
	if err != nil {
		return res, err
	}
	// The whole reveal paying a relayer's fee to a receiver holding none of the token yet, traced
	// before the reveal is sent: what a quote for a whole reveal pays for.
	wholePaying, err := revealCalldataPaying(keys, cards[0], tree, nil, &zk.Fee{Amount: big.NewInt(7), Receiver: fresh()})
	if err != nil {
		return res, err
	}
	if p, err = b.traceAt(ctx, "reveal whole, fee", 0, payer.Address, dev.Contracts.Vault, wholePaying); err != nil {
		return res, err
	}
	res.Profiles = append(res.Profiles, p)
	receipt, err := card.Send(ctx, dev.Client(), payer.Key, dev.Contracts.Vault, whole)
	if err != nil {
		return res, err
	}
	p, err = b.traceTx(ctx, "reveal whole", tree.Len(), receipt)
	if err != nil {
		return res, err
	}
	res.Profiles = append(res.Profiles, p)
	// The partial reveal is traced, not sent: its nullifier stays unspent for the larger trees.
	part, err := revealCalldata(keys, cards[1], tree, big.NewInt(500))
	if err != nil {
		return res, err
	}
	// The same partial reveal paying a relayer's fee (revealWithFee) to a receiver that holds
	// none of the token yet, the dearer transfer: what a quote for a partial reveal pays for.
	paying, err := revealCalldataPaying(keys, cards[1], tree, big.NewInt(500), &zk.Fee{Amount: big.NewInt(7), Receiver: fresh()})
	if err != nil {
		return res, err
	}
	for _, n := range append([]int{0}, Sizes...) {
		for _, call := range []struct {
			name string
			data []byte
		}{{"reveal part", part}, {"reveal part, fee", paying}} {
			p, err := b.traceAt(ctx, call.name, n, payer.Address, dev.Contracts.Vault, call.data)
			if err != nil {
				return res, err
			}
			res.Profiles = append(res.Profiles, p)
		}
	}
	// Commits into the large trees: the same call as a later commit, traced over the overrides.
	if _, err := card.Send(ctx, dev.Client(), user.Key, token, approve(dev.Contracts.Vault)); err != nil {
		return res, err
	}
	for _, n := range Sizes {
		secret, nullifierSecret, err := card.NewSecrets()
		if err != nil {
			return res, err
		}
		data := contracts.NewCommitRevealVault().PackCommit(token, big.NewInt(1_000), common.BigToHash(zk.Commitment(secret, nullifierSecret)))
		p, err := b.traceAt(ctx, "commit", n, user.Address, dev.Contracts.Vault, data)
		if err != nil {
			return res, err
		}
		res.Profiles = append(res.Profiles, p)
	}
	report(out, res)
	return res, nil
}

// revealCalldata proves a reveal of amount of c (nil: all of it) to a fresh recipient and
// returns the vault call.
func revealCalldata(keys *zk.Keys, c card.Card, tree *zk.Tree, amount *big.Int) ([]byte, error) {
	return revealCalldataPaying(keys, c, tree, amount, nil)
}

// revealCalldataPaying is revealCalldata for a reveal paying fee (nil: none): the vault's
// revealWithFee.
func revealCalldataPaying(keys *zk.Keys, c card.Card, tree *zk.Tree, amount *big.Int, fee *zk.Fee) ([]byte, error) {
	recipient := fresh()
	req, _, err := card.ProvePaying(keys, c, tree, recipient, amount, fee)
	if err != nil || fee == nil {
		return card.RevealCalldata(req)
	}
	proof, err := zk.ParseProof(req.Proof)
	if err != nil {
		return nil, err
	}
	signals, err := zk.ParseSignals(req.PublicSignals)
	if err != nil {
		return nil, err
	}
	a, b, cc := proof.CallArgs()
	return contracts.NewCommitRevealVault().PackRevealWithFee(a, b, cc, [6]*big.Int(signals), recipient, fee.Amount, fee.Receiver), nil
}

func fresh() common.Address {
	k, _ := crypto.GenerateKey()
	return crypto.PubkeyToAddress(k.PublicKey)
}

func approve(spender common.Address) []byte {
	return contracts.NewWrappedToken().PackApprove(spender, new(big.Int).Lsh(big.NewInt(1), 200))
}

type bench struct {
	dev *devchain.Chain
	rpc *rpc.Client
}

// frame is a callTracer frame.
type frame struct {
	Type    string         `json:"type"`
	From    common.Address `json:"from"`
	To      common.Address `json:"to"`
	Input   hexutil.Bytes  `json:"input"`
	GasUsed hexutil.Uint64 `json:"gasUsed"`
	Calls   []frame        `json:"calls"`
}

// structLog is a step of the default tracer (stack, memory and storage off).
type structLog struct {
	Op      string `json:"op"`
	Gas     uint64 `json:"gas"` // left before the step
	GasCost uint64 `json:"gasCost"`
	Depth   int    `json:"depth"`
	Refund  uint64 `json:"refund"` // the refund counter so far
}

type structTrace struct {
	Gas        uint64      `json:"gas"`
	Failed     bool        `json:"failed"`
	StructLogs []structLog `json:"structLogs"`
}

var plain = map[string]any{"disableStack": true, "disableStorage": true, "enableMemory": false}

// traceTx profiles a mined transaction.
func (b *bench) traceTx(ctx context.Context, name string, leaves int, r *types.Receipt) (Profile, error) {
	var calls frame
	if err := b.rpc.CallContext(ctx, &calls, "debug_traceTransaction", r.TxHash, map[string]any{"tracer": "callTracer"}); err != nil {
		return Profile{}, err
	}
	var steps structTrace
	if err := b.rpc.CallContext(ctx, &steps, "debug_traceTransaction", r.TxHash, plain); err != nil {
		return Profile{}, err
	}
	tx, _, err := b.dev.Client().TransactionByHash(ctx, r.TxHash)
	if err != nil {
		return Profile{}, err
	}
	p := profile(name, leaves, r.GasUsed, tx.Gas(), calls, steps.StructLogs)
	if uint64(calls.GasUsed) != r.GasUsed {
		return p, fmt.Errorf("%s: the call trace says %d gas, the receipt %d", name, calls.GasUsed, r.GasUsed)
	}
	return p, nil
}

// Where CommitmentTree keeps its state (storage layout: sideNodes[20] in slots 0-19,
// roots[32] in 20-51, then currentRootIndex and nextIndex, two uint32 packed in slot 52, the
// index in its low 4 bytes). traceAt checks it.
const (
	slotRoots   = 20
	slotIndexes = 52
	rootHistory = 32
)

// traceAt profiles a call from `from` to `to` with data. With n > 0 the tree is overridden to
// hold n leaves: its leaf counter set to n and every root of its history set (a full ring: the
// new root's slot is written over, not filled), the current root kept, so that a proof made
// against it still verifies; n == 0 traces over the chain as it is.
func (b *bench) traceAt(ctx context.Context, name string, n int, from, to common.Address, data []byte) (Profile, error) {
	const gasLimit = 10_000_000
	args := map[string]any{"from": from, "to": to, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(gasLimit)}
	leaves := n
	overrides := map[string]any{}
	if n > 0 {
		tree := contracts.NewCommitRevealVault()
		cur, err := bind.Call(tree.Instance(b.dev.Client(), b.dev.Contracts.CommitmentTree), &bind.CallOpts{Context: ctx}, tree.PackCurrentRootIndex(), tree.UnpackCurrentRootIndex)
		if err != nil {
			return Profile{}, err
		}
		current := uint64(cur)
		diff := map[string]string{slotHex(slotIndexes): common.BigToHash(new(big.Int).SetUint64(current | uint64(n)<<32)).Hex()}
		for i := range uint64(rootHistory) {
			if i != current {
				diff[slotHex(slotRoots+i)] = common.BigToHash(big.NewInt(1)).Hex()
			}
		}
		overrides[b.dev.Contracts.CommitmentTree.Hex()] = map[string]any{"stateDiff": diff}
		// The layout assumed above, checked: the tree, read over the overrides, counts n leaves.
		var out hexutil.Bytes
		if err := b.rpc.CallContext(ctx, &out, "eth_call", map[string]any{"to": b.dev.Contracts.CommitmentTree, "data": hexutil.Bytes(tree.PackNextIndex())},
			"latest", overrides); err != nil {
			return Profile{}, err
		}
		if got, err := tree.UnpackNextIndex(out); err != nil || int(got) != n {
			return Profile{}, fmt.Errorf("the tree overridden to %d leaves reads %d (%v): its storage layout is not the one assumed", n, got, err)
		}
	} else {
		var err error
		if leaves, err = b.leaves(ctx); err != nil {
			return Profile{}, err
		}
	}
	var calls frame
	if err := b.rpc.CallContext(ctx, &calls, "debug_traceCall", args, "latest", map[string]any{"tracer": "callTracer", "stateOverrides": overrides}); err != nil {
		return Profile{}, err
	}
	var steps structTrace
	cfg := map[string]any{"stateOverrides": overrides}
	for k, v := range plain {
		cfg[k] = v
	}
	if err := b.rpc.CallContext(ctx, &steps, "debug_traceCall", args, "latest", cfg); err != nil {
		return Profile{}, err
	}
	if steps.Failed {
		return Profile{}, fmt.Errorf("%s at %d leaves: the call reverted", name, n)
	}
	p := profile(name, leaves, steps.Gas, gasLimit, calls, steps.StructLogs)
	delete(args, "gas")
	var est hexutil.Uint64
	if err := b.rpc.CallContext(ctx, &est, "eth_estimateGas", args, "latest", overrides); err != nil {
		return Profile{}, fmt.Errorf("%s at %d leaves: estimate: %w", name, n, err)
	}
	p.Estimate = uint64(est)
	return p, nil
}

// leaves is the tree's leaf counter now.
func (b *bench) leaves(ctx context.Context) (int, error) {
	tree := contracts.NewCommitRevealVault()
	n, err := bind.Call(tree.Instance(b.dev.Client(), b.dev.Contracts.CommitmentTree), &bind.CallOpts{Context: ctx}, tree.PackNextIndex(), tree.UnpackNextIndex)
	return int(n), err
}

func slotHex(i uint64) string { return common.BigToHash(new(big.Int).SetUint64(i)).Hex() }

// profile splits a transaction's gas by where it goes; limit is its gas limit. The intrinsic
// cost is what the limit lost before the first step ran, as the node counted it.
func profile(name string, leaves int, total, limit uint64, calls frame, steps []structLog) Profile {
	p := Profile{Operation: name, Leaves: leaves, Total: total}
	if len(steps) > 0 {
		p.Intrinsic = limit - steps[0].Gas
	}
	token := tokenOf(calls)
	poseidonT3, poseidonT4 := selector("hash(uint256[2])"), selector("hash(uint256[3])")
	verify := selector("verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[6])")
	// Whole calls, by what they are; the storage and the rest of the frames they sit in count apart.
	var walk func(f frame)
	walk = func(f frame) {
		for _, c := range f.Calls {
			switch sel := selectorOf(c.Input); {
			case sel == poseidonT3 || sel == poseidonT4:
				p.Poseidon += uint64(c.GasUsed)
				p.PoseidonCalls++
			case sel == verify:
				p.Verify += uint64(c.GasUsed)
			case c.To == token:
				p.Token += uint64(c.GasUsed)
			default:
				walk(c)
			}
		}
	}
	walk(calls)
	// Storage outside the whole calls above: the libraries and the verifier touch none, and a
	// token's own storage is counted with its call.
	inToken := tokenSteps(calls, steps, token)
	for i, s := range steps {
		if inToken[i] {
			continue
		}
		switch s.Op {
		case "SLOAD":
			p.Storage += s.GasCost
			p.StorageReads++
		case "SSTORE":
			p.Storage += s.GasCost
			p.Writes++
		}
	}
	if len(steps) > 0 {
		// At most a fifth of the gas used comes back (EIP-3529).
		p.Refund = min(steps[len(steps)-1].Refund, (total+steps[len(steps)-1].Refund)/5)
	}
	p.Rest = total + p.Refund - p.Intrinsic - p.Poseidon - p.Verify - p.Token - p.Storage
	return p
}

func selector(sig string) string { return hexutil.Encode(crypto.Keccak256([]byte(sig))[:4]) }

func selectorOf(input []byte) string {
	if len(input) < 4 {
		return ""
	}
	return hexutil.Encode(input[:4])
}

// tokenOf is the token a vault call touches: the target of its first CALL or STATICCALL that is
// neither the tree, the registry, a library nor the verifier (balanceOf comes first in commit,
// transfer last in reveal).
func tokenOf(calls frame) common.Address {
	balanceOf, transfer := selector("balanceOf(address)"), selector("transfer(address,uint256)")
	for _, c := range calls.Calls {
		if s := selectorOf(c.Input); s == balanceOf || s == transfer {
			return c.To
		}
	}
	return common.Address{}
}

// tokenSteps marks the steps run inside the vault's calls to token. The default tracer names no
// addresses: its steps are matched to the call trace's frames by order, each descent from depth
// 1 to 2 entering the vault's next call that runs code (a precompile runs none).
func tokenSteps(calls frame, steps []structLog, token common.Address) map[int]bool {
	var children []frame
	for _, c := range calls.Calls {
		if new(big.Int).SetBytes(c.To.Bytes()).Cmp(big.NewInt(0x100)) >= 0 {
			children = append(children, c)
		}
	}
	in := map[int]bool{}
	child, prev := -1, 1
	for i, s := range steps {
		if s.Depth == 2 && prev == 1 {
			child++
		}
		if s.Depth >= 2 && child >= 0 && child < len(children) && children[child].To == token {
			in[i] = true
		}
		prev = s.Depth
	}
	return in
}

// report writes the profiles as a table, by operation and tree size, beside the targets and the
// anchors.
func report(out io.Writer, res Result) {
	order := map[string]int{"commit (the first into an empty tree)": 0, "commit": 1, "reveal whole": 2, "reveal whole, fee": 3, "reveal part": 4, "reveal part, fee": 5}
	slices.SortStableFunc(res.Profiles, func(a, b Profile) int {
		return cmp.Or(cmp.Compare(order[a.Operation], order[b.Operation]), cmp.Compare(a.Leaves, b.Leaves))
	})
	fmt.Fprintf(out, "%-38s %7s %10s %10s %10s %14s %8s %7s %18s %8s %7s\n", "operation", "leaves", "total", "estimate", "intrinsic", "poseidon (calls)", "verify", "token", "storage (reads/wr)", "refund", "rest")
	for _, p := range res.Profiles {
		est := "-"
		if p.Estimate > 0 {
			est = n(p.Estimate)
		}
		fmt.Fprintf(out, "%-38s %7d %10s %10s %10s %14s %8s %7s %18s %8s %7s\n", p.Operation, p.Leaves, n(p.Total), est, n(p.Intrinsic),
			fmt.Sprintf("%s (%d)", n(p.Poseidon), p.PoseidonCalls), n(p.Verify), n(p.Token),
			fmt.Sprintf("%s (%d/%d)", n(p.Storage), p.StorageReads, p.Writes), "-"+n(p.Refund), n(p.Rest))
	}
	fmt.Fprintln(out, "targets: commit <= 450,000; reveal whole <= 320,000; reveal part <= 600,000")
	fmt.Fprintln(out, "anchors: Tornado Cash deposit ~1,000,000 and withdraw ~301,000 (published); the protocol's estimate: a reveal 300,000-400,000")
}

// n formats a gas figure with thousands separators.
func n(v uint64) string {
	s := fmt.Sprint(v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
