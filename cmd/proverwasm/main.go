//go:build js && wasm

// Command proverwasm is the reveal prover for the browser (and Node): the project's own circuit
// and card format compiled to WebAssembly (GOOS=js GOARCH=wasm), loaded by the TypeScript
// package (web/client), which runs it in a Web Worker. It registers globalThis.vaultdProver:
//
//	newNote(json {chainId, vault, token, amount}): string               a fresh card and its commitment
//	parseCard(card: string): string                                     a card's fields, leaf and nullifier
//
// and proves a reveal with the sectioned proving key's (reveal.pks, docs/prover.md) points dealt
// between several workers, each a Go runtime of its own (a page's Web Workers on a phone's other
// cores), every worker's share decoding the points it is given as the key arrives and keeping
// them, each proof multiplying them by its scalars (zk.Share); the circuit is compiled in:
//
//	keyLayout(prefix: Uint8Array): string                               {need: bytes} until prefix holds the key's header, then {layout}
//	shareStart(layout json): string                                     {share}
//	shareFeed(share, section, from: number, points: Uint8Array): string {} once the points are decoded
//	proveStreaming(json {card, leaves, recipient, amount?, fee?}): string {handle}: the witness solved, h computed
//	layout(handle, prefix: Uint8Array): string                          as keyLayout, for the proof
//	scalars(handle): Uint8Array                                         every section's scalars, for shareScalars
//	shareScalars(share, scalars: Uint8Array): string                    {}, before the first flush
//	shareFlush(share, section): string                                  {} once the section's points fed are multiplied
//	shareSums(share): string                                            {sums}: the share's sums for this proof
//	addSums(handle, json {sums}): string                                {} (then finish)
//	finish(handle: number): string                                      once every share's sums are added: {request, change?}
//	cancel(handle: number): string                                      drops a proof not finished
//	shareReset(share): string                                           {}: a proof abandoned (its scalars and sums)
//	shareDrop(share): string                                            {}: the share and its points freed
//
// A share keeps its points decoded from proof to proof: a key dealt once, as it arrives, serves
// every proof after it. A share's error in decoding (a point that is not one, say) drops it.
//
// fee {amount, receiver} is a relayer's quoted fee paid out of the amount revealed (the vault's
// revealWithFee): the proof's signal [3] is then zk.FeeBinding(recipient, fee), not the recipient.
//
// finish answers the relayer's request (and the change card after a partial reveal). gnark's own
// prover and its key decoding are not linked: nothing here calls them (docs/prover.md).
//
// Each call runs to its end before it returns (Go's wasm is one thread), so the key's download is
// read where these calls do not block it (docs/prover.md). The caller checks the key's sha256
// before it sends the proof.
//
// Every function answers a JSON string: the result, or {"error": "…"}. Secrets come from
// crypto.getRandomValues (Go's crypto/rand on js/wasm).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"syscall/js"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// streaming are the proofs under way (proveStreaming), by handle; shares, the shares of proofs
// this runtime multiplies (shareStart), by handle too.
var (
	streaming  = map[int]*streamProof{}
	shares     = map[int]*zk.Share{}
	nextHandle = 1
)

type streamProof struct {
	prover *zk.StreamProver
	card   note.Card
	req    zk.RevealRequest
	change *note.Card
}

func main() {
	zk.QuotientBy = quotientByPointModule
	js.Global().Set("vaultdProver", js.ValueOf(map[string]any{
		"newNote":   jsonFunc(newNote),
		"parseCard": js.FuncOf(parseCard),

		"proveStreaming": jsonFunc(proveStreaming),
		"finish":         js.FuncOf(finish),
		"cancel":         js.FuncOf(cancel),

		"keyLayout":    js.FuncOf(keyLayout),
		"layout":       js.FuncOf(layout),
		"scalars":      js.FuncOf(scalars),
		"addSums":      js.FuncOf(addSums),
		"shareStart":   js.FuncOf(shareStart),
		"shareFeed":    js.FuncOf(shareFeed),
		"shareScalars": js.FuncOf(shareScalars),
		"shareFlush":   js.FuncOf(shareFlush),
		"shareSums":    js.FuncOf(shareSums),
		"shareReset":   js.FuncOf(shareReset),
		"shareDrop":    js.FuncOf(shareDrop),
	}))
	select {} // serve calls until the page goes away
}

// quotientByPointModule computes a proof's h with the point module's quotient, where the page
// has set globalThis.vaultdQuotient(input, n) (web/client's points.ts): the bytes zk lays out
// in, h's out, sooner than the Go wasm's transforms (docs/prover.md, "Stop 63").
func quotientByPointModule(in []byte, n int) (out []byte, err error) {
	f := js.Global().Get("vaultdQuotient")
	if f.Type() != js.TypeFunction {
		return nil, errors.New("no point module")
	}
	defer func() {
		if e := recover(); e != nil { // a JavaScript exception: zk computes h itself
			err = fmt.Errorf("the point module's quotient: %v", e)
		}
	}()
	arg := js.Global().Get("Uint8Array").New(len(in))
	js.CopyBytesToJS(arg, in)
	h := f.Invoke(arg, n)
	out = make([]byte, h.Get("length").Int())
	js.CopyBytesToGo(out, h)
	return out, nil
}

// answer is a function's JSON answer: v, or {"error": err}.
func answer(v any, err error) any {
	if err != nil {
		data, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(data)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return answer(nil, err)
	}
	return string(data)
}

// jsonFunc wraps a function of one JSON argument.
func jsonFunc[T any](f func(T) (any, error)) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		var in T
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return answer(nil, errors.New("want one JSON string argument"))
		}
		if err := json.Unmarshal([]byte(args[0].String()), &in); err != nil {
			return answer(nil, err)
		}
		return answer(f(in))
	})
}

// isBytes is whether v is a Uint8Array (bytesOf's argument).
func isBytes(v js.Value) bool { return v.InstanceOf(js.Global().Get("Uint8Array")) }

func bytesOf(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

type noteIn struct {
	ChainID uint64 `json:"chainId"`
	Vault   string `json:"vault"`
	Token   string `json:"token"`
	Amount  string `json:"amount"`
}

// noteOut is a card with what a wallet needs to commit it and to follow it.
type noteOut struct {
	Card       string `json:"card"`
	Commitment string `json:"commitment"` // commit(token, amount, commitment)'s third argument
	Leaf       string `json:"leaf"`       // the tree leaf the vault will insert
	Nullifier  string `json:"nullifier"`  // spent once revealed
	TokenID    string `json:"tokenId"`
}

func describe(c note.Card) (noteOut, error) {
	n, err := c.Note()
	if err != nil {
		return noteOut{}, err
	}
	return noteOut{Card: c.String(), Commitment: hex32(n.Commitment()), Leaf: hex32(n.Leaf()), Nullifier: hex32(n.Nullifier()), TokenID: n.TokenID.String()}, nil
}

func hex32(v *big.Int) string { return fmt.Sprintf("0x%064x", v) }

func newNote(in noteIn) (any, error) {
	vault, err := address.Parse(in.Vault)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	token, err := address.Parse(in.Token)
	if err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	amount, ok := new(big.Int).SetString(in.Amount, 10)
	if !ok || amount.Sign() <= 0 || amount.Cmp(zk.MaxAmount) > 0 {
		return nil, errors.New("amount must be a decimal integer from 1 to the vault's maximum")
	}
	c := note.Card{ChainID: in.ChainID, Vault: vault, Token: token, Amount: amount}
	if c.Secret, c.NullifierSecret, err = note.NewSecrets(); err != nil {
		return nil, err
	}
	return describe(c)
}

func parseCard(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return answer(nil, errors.New("parseCard(card string)"))
	}
	c, err := note.Parse(args[0].String())
	if err != nil {
		return answer(nil, err)
	}
	return answer(describe(c))
}

type proveIn struct {
	Card      string   `json:"card"`
	Leaves    []string `json:"leaves"` // every leaf of the tree, in insertion order
	Recipient string   `json:"recipient"`
	Amount    string   `json:"amount,omitempty"` // "" is the whole card
	Fee       *feeIn   `json:"fee,omitempty"`    // a relayer's fee out of the amount: signal [3] binds it
}

// feeIn is the fee a relayer quoted: amount in the token's base units, to receiver.
type feeIn struct {
	Amount   string `json:"amount"`
	Receiver string `json:"receiver"`
}

type proveOut struct {
	Request note.Request `json:"request"`
	Change  string       `json:"change,omitempty"` // the change note's card, after a partial reveal
}

// reveal reads a proveStreaming call's input.
func reveal(in proveIn) (c note.Card, tree *zk.Tree, recipient address.Address, amount *big.Int, fee *zk.Fee, err error) {
	if c, err = note.Parse(in.Card); err != nil {
		return
	}
	if recipient, err = address.ParseNonZero(in.Recipient); err != nil {
		err = fmt.Errorf("recipient: not a valid address")
		return
	}
	if in.Amount != "" {
		var ok bool
		if amount, ok = new(big.Int).SetString(in.Amount, 10); !ok || amount.Sign() <= 0 || amount.Cmp(c.Amount) > 0 {
			err = fmt.Errorf("amount must be from 1 to the card's %s", c.Amount)
			return
		}
	}
	if in.Fee != nil {
		if fee, err = feeOf(*in.Fee); err != nil {
			return
		}
	}
	tree = &zk.Tree{}
	for i, l := range in.Leaves {
		v, ok := new(big.Int).SetString(l, 0)
		if !ok {
			err = fmt.Errorf("leaf %d: not a number", i)
			return
		}
		if _, err = tree.Append(v); err != nil {
			return
		}
	}
	return
}

// feeOf reads a fee; the prover refuses one the vault would (none, all of the amount, or the
// zero address) when it solves the witness.
func feeOf(in feeIn) (*zk.Fee, error) {
	amount, ok := new(big.Int).SetString(in.Amount, 10)
	if !ok || amount.Sign() <= 0 {
		return nil, errors.New("fee: its amount must be a positive decimal integer")
	}
	receiver, err := address.Parse(in.Receiver)
	if err != nil || receiver == (address.Address{}) {
		return nil, errors.New("fee: its receiver is not a valid address")
	}
	return &zk.Fee{Amount: amount, Receiver: receiver}, nil
}

func answerOf(req note.Request, change *note.Card) proveOut {
	out := proveOut{Request: req}
	if change != nil {
		out.Change = change.String()
	}
	return out
}

func proveStreaming(in proveIn) (any, error) {
	c, tree, recipient, amount, fee, err := reveal(in)
	if err != nil {
		return nil, err
	}
	req, change, err := note.Reveal(c, tree, recipient, amount)
	if err != nil {
		return nil, err
	}
	req.Fee = fee
	p, err := zk.NewStreamProver(req)
	if err != nil {
		return nil, err
	}
	h := nextHandle
	nextHandle++
	streaming[h] = &streamProof{prover: p, card: c, req: req, change: change}
	return map[string]int{"handle": h}, nil
}

// proofOf is the proof under way of handle args[0].
func proofOf(args []js.Value, n int, usage string) (int, *streamProof, error) {
	if len(args) != n || args[0].Type() != js.TypeNumber {
		return 0, nil, errors.New(usage)
	}
	h := args[0].Int()
	p := streaming[h]
	if p == nil {
		return 0, nil, fmt.Errorf("no proof under way with handle %d", h)
	}
	return h, p, nil
}

func finish(_ js.Value, args []js.Value) any {
	h, p, err := proofOf(args, 1, "finish(handle)")
	if err != nil {
		return answer(nil, err)
	}
	delete(streaming, h)
	proof, signals, err := p.prover.Finish()
	if err != nil {
		return answer(nil, err)
	}
	return answer(answerOf(note.RequestOf(p.card, p.req, proof, signals), p.change), nil)
}

func cancel(_ js.Value, args []js.Value) any {
	h, _, err := proofOf(args, 1, "cancel(handle)")
	if err != nil {
		return answer(nil, err)
	}
	delete(streaming, h)
	return answer(struct{}{}, nil)
}

// layoutAnswer is {layout}, or {need} while the prefix is short of the header.
func layoutAnswer(l *zk.Layout, need int, err error) any {
	if err != nil {
		return answer(nil, err)
	}
	if l == nil {
		return answer(map[string]int{"need": need}, nil)
	}
	return answer(map[string]*zk.Layout{"layout": l}, nil)
}

func keyLayout(_ js.Value, args []js.Value) any {
	if len(args) != 1 || !isBytes(args[0]) {
		return answer(nil, errors.New("keyLayout(prefix: Uint8Array)"))
	}
	return layoutAnswer(zk.ReadLayout(bytesOf(args[0])))
}

func layout(_ js.Value, args []js.Value) any {
	_, p, err := proofOf(args, 2, "layout(handle, prefix: Uint8Array)")
	if err == nil && !isBytes(args[1]) {
		err = errors.New("layout(handle, prefix: Uint8Array)")
	}
	if err != nil {
		return answer(nil, err)
	}
	return layoutAnswer(p.prover.Layout(bytesOf(args[1])))
}

// scalars answers a Uint8Array, or a JSON error.
func scalars(_ js.Value, args []js.Value) any {
	_, p, err := proofOf(args, 1, "scalars(handle)")
	if err != nil {
		return answer(nil, err)
	}
	b, err := p.prover.Scalars()
	if err != nil {
		return answer(nil, err)
	}
	out := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(out, b)
	return out
}

type sumsOf struct {
	Sums []zk.ShareSum `json:"sums"`
}

func addSums(_ js.Value, args []js.Value) any {
	_, p, err := proofOf(args, 2, "addSums(handle, sums json)")
	if err == nil && args[1].Type() != js.TypeString {
		err = errors.New("addSums(handle, sums json)")
	}
	if err != nil {
		return answer(nil, err)
	}
	var in sumsOf
	if err := json.Unmarshal([]byte(args[1].String()), &in); err != nil {
		return answer(nil, err)
	}
	for _, s := range in.Sums {
		if err := p.prover.AddSum(s); err != nil {
			return answer(nil, err)
		}
	}
	return answer(struct{}{}, nil)
}

func shareStart(_ js.Value, args []js.Value) any {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return answer(nil, errors.New("shareStart(layout json)"))
	}
	var l zk.Layout
	if err := json.Unmarshal([]byte(args[0].String()), &l); err != nil {
		return answer(nil, err)
	}
	sh, err := zk.NewShare(l)
	if err != nil {
		return answer(nil, err)
	}
	h := nextHandle
	nextHandle++
	shares[h] = sh
	return answer(map[string]int{"share": h}, nil)
}

// shareOf is the share of handle args[0], and the section args[1].
func shareOf(args []js.Value, n int, usage string) (int, *zk.Share, zk.Section, error) {
	if len(args) != n || args[0].Type() != js.TypeNumber || (n > 1 && args[1].Type() != js.TypeNumber) {
		return 0, nil, 0, errors.New(usage)
	}
	h := args[0].Int()
	sh := shares[h]
	if sh == nil {
		return 0, nil, 0, fmt.Errorf("no share with handle %d", h)
	}
	var s zk.Section
	if n > 1 {
		s = zk.Section(args[1].Int())
	}
	return h, sh, s, nil
}

func shareFeed(_ js.Value, args []js.Value) any {
	const usage = "shareFeed(share, section, from, points: Uint8Array)"
	h, sh, s, err := shareOf(args, 4, usage)
	if err == nil && (args[2].Type() != js.TypeNumber || !isBytes(args[3])) {
		err = errors.New(usage)
	}
	if err != nil {
		return answer(nil, err)
	}
	if err := sh.Feed(s, args[2].Int(), bytesOf(args[3])); err != nil {
		delete(shares, h)
		return answer(nil, err)
	}
	return answer(struct{}{}, nil)
}

func shareScalars(_ js.Value, args []js.Value) any {
	const usage = "shareScalars(share, scalars: Uint8Array)"
	if len(args) != 2 {
		return answer(nil, errors.New(usage))
	}
	_, sh, _, err := shareOf(args[:1], 1, usage)
	if err == nil && !isBytes(args[1]) {
		err = errors.New(usage)
	}
	if err != nil {
		return answer(nil, err)
	}
	if err := sh.SetScalars(bytesOf(args[1])); err != nil {
		return answer(nil, err)
	}
	return answer(struct{}{}, nil)
}

func shareFlush(_ js.Value, args []js.Value) any {
	_, sh, s, err := shareOf(args, 2, "shareFlush(share, section)")
	if err != nil {
		return answer(nil, err)
	}
	return answer(struct{}{}, sh.Flush(s))
}

func shareSums(_ js.Value, args []js.Value) any {
	_, sh, _, err := shareOf(args, 1, "shareSums(share)")
	if err != nil {
		return answer(nil, err)
	}
	sums, err := sh.Sums()
	return answer(sumsOf{Sums: sums}, err)
}

func shareReset(_ js.Value, args []js.Value) any {
	_, sh, _, err := shareOf(args, 1, "shareReset(share)")
	if err != nil {
		return answer(nil, err)
	}
	sh.Reset()
	return answer(struct{}{}, nil)
}

func shareDrop(_ js.Value, args []js.Value) any {
	h, _, _, err := shareOf(args, 1, "shareDrop(share)")
	if err != nil {
		return answer(nil, err)
	}
	delete(shares, h)
	return answer(struct{}{}, nil)
}
