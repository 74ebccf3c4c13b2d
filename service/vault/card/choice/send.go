package choice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Reveal is the reveal Send sends: the card's, proved by Prove for each fee and receiver.
type Reveal struct {
	Client *ethclient.Client // the card's chain, where the nullifier is followed
	Card   card.Card
	// Prove proves the reveal paying fee (nil: none). A partial reveal's proofs must all make
	// the same change card (card.PrepareKeeping with one card.ChangeOf), so that the change
	// kept is the one mined whichever relayer sends.
	Prove   func(ctx context.Context, fee *zk.Fee) (card.Request, error)
	Voucher *relayerapi.Voucher // paying by a sponsor's voucher
}

// SendOptions tune Send; the zero value is the doc's defaults.
type SendOptions struct {
	Answer       time.Duration // how long a POST /reveal's answer is waited for; 0: 2 min
	Poll         time.Duration // how often a reveal that may have been sent is followed; 0: 1 s
	SettleBlocks uint64        // blocks past a silent relayer's failure, the nullifier unspent, after which the next is tried; 0: 3
	Progress     func(Attempt) // told of each attempt as it ends; nil: none
	HTTPClient   *http.Client  // nil: a client of its own
}

// Attempt is one relayer tried, what it answered and what it cost.
type Attempt struct {
	Relayer     Kept
	Answer      string        // for people: "mined", "refused the connection", "503 OPERATOR_BALANCE_LOW: …"
	Took        time.Duration // from its proof to knowing (proving again included)
	MayHaveSent bool          // it may have sent, and the client waited to know
}

func (a Attempt) String() string {
	return fmt.Sprintf("%s: %s (%s)", a.Relayer.Name, a.Answer, a.Took.Round(time.Millisecond))
}

// Outcome is the reveal spent on chain.
type Outcome struct {
	Result   relayerapi.RevealResult // as the relayer answers it; read from the chain when it did not
	PaidBy   *Kept                   // the relayer that sent it; nil: a transaction none of them sent (a card redeemed before)
	Attempts []Attempt
}

// Failed is every candidate failing: those dropped and what each tried answered. Nothing was
// sent by the client that may still be mined.
type Failed struct {
	Dropped  []Dropped
	Attempts []Attempt
}

func (f *Failed) Error() string {
	var b strings.Builder
	b.WriteString("no relayer took the reveal; nothing was sent:")
	for _, d := range f.Dropped {
		b.WriteString("\n  " + d.String())
	}
	for _, a := range f.Attempts {
		b.WriteString("\n  " + a.String())
	}
	if len(f.Dropped)+len(f.Attempts) == 0 {
		b.WriteString(" no relayer was given")
	}
	return b.String()
}

// Refused is a refusal every relayer would answer alike (a bad proof, a recipient the vault
// refuses): no other is tried.
type Refused struct{ Attempt Attempt }

func (r *Refused) Error() string {
	return fmt.Sprintf("%s refused the reveal: %s; no other relayer was tried", r.Attempt.Relayer.Name, r.Attempt.Answer)
}

// stopCodes are the refusals of the request itself, which every relayer answers alike.
var stopCodes = map[string]bool{
	"INVALID_REQUEST": true, "INVALID_PROOF": true, "INVALID_RECIPIENT": true,
	"RECIPIENT_NOT_ALLOWED": true, "SIGNAL_MISMATCH": true, "REVEAL_REJECTED": true,
}

// verdict is what one relayer's answer to POST /reveal means.
type verdict int

const (
	next     verdict = iota // it did not take the reveal: the next is tried
	stop                    // the request is wrong everywhere
	mined                   // it was mined
	spent                   // the nullifier is spent (read the chain)
	reverted                // its transaction reverted: spent by another, or nothing revealed
	unsure                  // it may have sent: follow it until known
)

// Send posts the reveal to ch's relayers in rank order until one has it mined, never to a second
// while the one before may have sent it (docs/choosing.md, "Failing over").
func Send(ctx context.Context, ch Choice, r Reveal, opts SendOptions) (*Outcome, error) {
	note, err := r.Card.Note()
	if err != nil {
		return nil, err
	}
	nullifier := common.BigToHash(note.Nullifier())
	from, err := r.Client.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", chain.ErrUnavailable, err)
	}
	s := &sender{r: r, opts: opts, ch: ch, nullifier: nullifier, from: from}
	if s.opts.HTTPClient == nil {
		s.opts.HTTPClient = &http.Client{}
	}
	out := &Outcome{}
	var proved *card.Request
	var provedFee *zk.Fee
	for _, k := range ch.Ranked {
		began := time.Now()
		fee, err := feeOf(k)
		if err != nil {
			return nil, err
		}
		if proved == nil || !sameFee(fee, provedFee) { // the fee and its receiver are bound in the proof
			req, err := r.Prove(ctx, fee)
			if err != nil {
				return nil, err
			}
			proved, provedFee = &req, fee
		}
		a := Attempt{Relayer: k}
		v, what, res := s.post(ctx, k, *proved)
		a.Answer = what
		if v == unsure {
			a.MayHaveSent = true
			v, what, res = s.follow(ctx, k)
			a.Answer += "; then " + what
		}
		if v == reverted || v == spent {
			sp, err := card.Spent(ctx, r.Client, r.Card.Vault, nullifier, from)
			switch {
			case err != nil:
				return nil, err
			case sp != nil:
				v, res = spent, &spend{Spend: *sp}
			default:
				v = next // reverted: nothing revealed, the card may be sent again
			}
		}
		a.Took = time.Since(began)
		out.Attempts = append(out.Attempts, a)
		if opts.Progress != nil {
			opts.Progress(a)
		}
		switch v {
		case stop:
			return nil, &Refused{Attempt: a}
		case mined:
			out.Result, out.PaidBy = *res.answer, &k
			return out, nil
		case spent:
			out.PaidBy = s.sentBy(res.Sender)
			out.Result = relayerapi.RevealResult{Success: true, TxHash: res.TxHash.Hex(), BlockNumber: int64(res.Block)}
			if rc, err := r.Client.TransactionReceipt(ctx, res.TxHash); err == nil {
				out.Result.GasUsed = fmt.Sprint(rc.GasUsed)
			}
			return out, nil
		case unsure: // the caller's context ended while it was followed
			return out, fmt.Errorf("%s may have sent the reveal and it is not known yet (%s): redeem again to follow it: %w", k.Name, a.Answer, ctx.Err())
		}
	}
	return nil, &Failed{Dropped: ch.Dropped, Attempts: out.Attempts}
}

// spend is how a reveal ended: the relayer's answer, or its spend on chain.
type spend struct {
	card.Spend
	answer *relayerapi.RevealResult // mined, as its relayer answered
}

type sender struct {
	r         Reveal
	opts      SendOptions
	ch        Choice
	nullifier common.Hash
	from      uint64 // the block the sending began at: the spend is looked for from there
}

// post sends the request to k and says what its answer means.
func (s *sender) post(ctx context.Context, k Kept, req card.Request) (verdict, string, *spend) {
	client, err := relayerapi.NewClientWithResponses(k.URL, relayerapi.WithHTTPClient(s.opts.HTTPClient))
	if err != nil {
		return next, err.Error(), nil
	}
	wait := s.opts.Answer
	if wait <= 0 {
		wait = 2 * time.Minute
	}
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	body := card.ToAPI(req)
	if k.Quote != nil {
		body.Fee = &relayerapi.RevealFee{Amount: k.Quote.Fee, Receiver: k.Quote.FeeReceiver, Quote: *k.Quote}
	}
	body.Voucher = s.r.Voucher
	resp, err := client.RevealWithResponse(pctx, body)
	if err != nil {
		if nothingSent(err) {
			return next, "refused the connection: " + err.Error(), nil
		}
		if ctx.Err() != nil {
			return unsure, "the caller gave up waiting: " + ctx.Err().Error(), nil
		}
		return unsure, "no answer after the request was sent: " + err.Error(), nil
	}
	status, code := resp.StatusCode(), codeOf(resp.Body)
	what := fmt.Sprintf("%d %s", status, code)
	var e struct{ TxHash string }
	_ = json.Unmarshal(resp.Body, &e)
	switch {
	case status == http.StatusOK && resp.JSON200 != nil:
		return mined, "mined", &spend{answer: resp.JSON200}
	case strings.HasPrefix(code, "NULLIFIER_USED"):
		return spent, what, nil
	case strings.HasPrefix(code, "TX_REVERTED"):
		return reverted, what, nil
	case status == http.StatusGatewayTimeout, status >= 500 && e.TxHash != "":
		return unsure, what, nil
	case stopCodes[strings.SplitN(code, ":", 2)[0]]:
		return stop, what, nil
	}
	return next, what, nil
}

// follow waits until what k may have sent is known: the nullifier spent on chain, or k's
// GET /reveal/{nullifier} saying mined, reverted or unknown, or, k silent, the chain SettleBlocks
// past the failure with the nullifier unspent.
func (s *sender) follow(ctx context.Context, k Kept) (verdict, string, *spend) {
	poll, settle := s.opts.Poll, s.opts.SettleBlocks
	if poll <= 0 {
		poll = time.Second
	}
	if settle == 0 {
		settle = 3
	}
	client, _ := relayerapi.NewClientWithResponses(k.URL, relayerapi.WithHTTPClient(&http.Client{Timeout: 3 * time.Second}))
	failed, err := s.r.Client.BlockNumber(ctx)
	if err != nil {
		failed = s.from
	}
	for {
		sp, err := card.Spent(ctx, s.r.Client, s.r.Card.Vault, s.nullifier, s.from)
		if err == nil && sp != nil {
			return spent, "the nullifier is spent on chain", &spend{Spend: *sp}
		}
		st, gerr := client.GetRevealWithResponse(ctx, s.nullifier.Hex())
		if gerr == nil && st.JSON200 != nil {
			switch st.JSON200.State {
			case "mined", "reverted":
				return reverted, "it says " + string(st.JSON200.State), nil // the chain decides which
			case "unknown":
				return next, "it says it never sent it (unknown)", nil
			}
		} else if err == nil {
			head, herr := s.r.Client.BlockNumber(ctx)
			if herr == nil && head >= failed+settle {
				return next, fmt.Sprintf("it does not answer, and the nullifier is unspent %d blocks later", head-failed), nil
			}
		}
		select {
		case <-ctx.Done():
			return unsure, "not known when the caller gave up", nil
		case <-time.After(poll):
		}
	}
}

// sentBy is the kept relayer whose operator sent the spend, or nil.
func (s *sender) sentBy(sender common.Address) *Kept {
	if sender == (common.Address{}) {
		return nil
	}
	for i, k := range s.ch.Ranked {
		if op := k.Status.Operator; op != nil && common.HexToAddress(*op) == sender {
			return &s.ch.Ranked[i]
		}
	}
	return nil
}

// nothingSent reports whether a request failed before any of it reached the relayer: its
// connection refused or never made.
func nothingSent(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &dns)
}

// feeOf is the fee k's quote asks, as the proof binds it; nil without a quote.
func feeOf(k Kept) (*zk.Fee, error) {
	if k.Quote == nil {
		return nil, nil
	}
	amount, ok := new(big.Int).SetString(k.Quote.Fee, 10)
	receiver, err := address.Parse(k.Quote.FeeReceiver)
	if !ok || err != nil {
		return nil, fmt.Errorf("%s's quote does not read: fee %q, receiver %q", k.Name, k.Quote.Fee, k.Quote.FeeReceiver)
	}
	return &zk.Fee{Amount: amount, Receiver: receiver}, nil
}

func sameFee(a, b *zk.Fee) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Amount.Cmp(b.Amount) == 0 && a.Receiver == b.Receiver
}

// codeOf is an error body's code and message ("CODE: message"), or "" when it has none.
func codeOf(body []byte) string {
	var e struct{ Code, Error string }
	if json.Unmarshal(body, &e) != nil || e.Code == "" {
		return ""
	}
	return e.Code + ": " + e.Error
}
