package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/seed018cc74c/vaultd/service/vault/card/choice"
)

// urlsFlag is a flag that may be given several times, each a URL.
type urlsFlag []string

func (u *urlsFlag) String() string { return strings.Join(*u, ",") }

func (u *urlsFlag) Set(s string) error {
	*u = append(*u, s)
	return nil
}

// throughRelayers chooses among the relayers given and the registry's (docs/choosing.md), says
// on stderr what was chosen, dropped and tried (with what each failed attempt cost), sends the
// reveal through them, and prints the paying relayer's answer on stdout. amount is what is
// revealed (nil: the card); maxFee, when set, pays a relayer's fee up to it.
func throughRelayers(ctx context.Context, urls []string, registry string, r choice.Reveal, amount, maxFee *big.Int, stdout, stderr io.Writer) error {
	cands := choice.URLs(urls...)
	if registry != "" {
		listed, err := choice.Directory(ctx, registry, r.Card.ChainID)
		if err != nil {
			return fmt.Errorf("--registry: %w", err)
		}
		cands = append(cands, listed...)
	}
	want := choice.Want{ChainID: r.Card.ChainID, Vault: r.Card.Vault, Pay: choice.Treasury, Token: r.Card.Token, Amount: r.Card.Amount}
	if amount != nil && amount.Cmp(r.Card.Amount) < 0 {
		want.Amount, want.Partial = amount, true
	}
	switch {
	case maxFee != nil:
		want.Pay, want.MaxFee = choice.Fee, maxFee
	case r.Voucher != nil:
		want.Pay = choice.Sponsor
	}
	ch := choice.Choose(ctx, cands, want, choice.Options{})
	for _, d := range ch.Dropped {
		fmt.Fprintf(stderr, "dropped %s\n", d)
	}
	for i, k := range ch.Ranked {
		what := "then"
		if i == 0 {
			what = "chosen"
		}
		fmt.Fprintf(stderr, "%s: %s (%s), fee %s\n", what, k.Name, k.URL, k.Fee)
	}
	out, err := choice.Send(ctx, ch, r, choice.SendOptions{Progress: func(a choice.Attempt) {
		if a.Answer == "mined" {
			return
		}
		sent := ""
		if a.MayHaveSent {
			sent = " (it may have sent: followed until known)"
		}
		fmt.Fprintf(stderr, "%s answered %s%s; that attempt cost %s\n", a.Relayer.Name, a.Answer, sent, a.Took.Round(time.Millisecond))
	}})
	var failed *choice.Failed
	if errors.As(err, &failed) {
		return hint(failed, maxFee)
	}
	if err != nil {
		return err
	}
	if p := out.PaidBy; p != nil {
		fmt.Fprintf(stderr, "paid by %s (%s): tx %s in block %d\n", p.Name, p.URL, out.Result.TxHash, out.Result.BlockNumber)
		if p.Quote != nil {
			fmt.Fprintf(stderr, "the relayer's fee: %s of %s (to %s, quoted until %s)\n", p.Quote.Fee, r.Card.Token.Hex(), p.Quote.FeeReceiver,
				time.Unix(p.Quote.ExpiresAt, 0).UTC().Format(time.RFC3339))
		}
	} else {
		fmt.Fprintf(stderr, "the card was spent by tx %s in block %d, which none of the relayers sent\n", out.Result.TxHash, out.Result.BlockNumber)
	}
	body, _ := json.Marshal(out.Result)
	fmt.Fprintln(stdout, string(body))
	return nil
}

// hint adds to every relayer failing what the caller may do about it: pay a fee or carry a
// voucher where they take only those, or raise --max-fee.
func hint(f *choice.Failed, maxFee *big.Int) error {
	var why []string
	for _, d := range f.Dropped {
		switch {
		case d.Reason == choice.Funding && maxFee == nil:
			why = append(why, "redeem again with --max-fee to pay a relayer's fee, or --voucher, where the relayers take them")
		case d.Reason == choice.FeeCap:
			why = append(why, fmt.Sprintf("fees are above --max-fee %s: nothing was proved or sent", maxFee))
		}
	}
	for _, a := range f.Attempts {
		if strings.HasPrefix(a.Answer, "402 PAYMENT_REQUIRED") {
			why = append(why, "redeem again with --max-fee or --voucher")
		}
	}
	if len(why) == 0 {
		return f
	}
	return fmt.Errorf("%w\n(%s)", f, strings.Join(dedupe(why), "; "))
}

func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}
