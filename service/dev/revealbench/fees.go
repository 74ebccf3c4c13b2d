package revealbench

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// FeesConfig says how to measure fee-paying reveals (docs/relayer.md, "Measured"): Reveals whole
// reveals, each quoted, proved with its fee and sent through a relayer paid by fees alone, at
// a fixed Price (RELAYER_TOKEN_PRICES, wei per base unit) and the default margin.
type FeesConfig struct {
	Reveals   int
	Price     string
	BlockTime time.Duration
	VKey      string
}

// FeesResult holds what RunFees measured.
type FeesResult struct {
	Spent, Earned  *big.Int      // wei the operator paid for the reveals; fees earned, valued at the price in wei
	Ratio          float64       // Earned / Spent (target ≥ 1.0 with the default margin)
	QuoteToMined   time.Duration // median, from asking the quote to the reveal mined (proving included)
	Proving        time.Duration // median proving time within it
	GasWhole       uint64        // gas of a whole reveal paying a fee (the last one)
	GasPartial     uint64        // gas of a partial reveal paying a fee
	Whole, Partial int64         // the gas the quotes charged for
}

// RunFees measures fee-paying reveals on a fresh dev chain and writes a report to out.
func RunFees(ctx context.Context, cfg FeesConfig, out io.Writer) (FeesResult, error) {
	var res FeesResult
	dev, err := devchain.Start(ctx, devchain.Config{Users: 8})
	if err != nil {
		return res, err
	}
	defer dev.Close()
	keys, err := zk.DevKeys()
	if err != nil {
		return res, err
	}
	token, operator := dev.Tokens[0].Address, dev.Accounts.Operator.Address
	url, stop, err := startRelayerWith(ctx, dev, cfg.VKey, map[string]string{"RELAYER_FUNDING": "fee", "RELAYER_TOKEN_PRICES": token.Hex() + "=" + cfg.Price})
	if err != nil {
		return res, err
	}
	defer stop()
	client, err := relayerapi.NewClientWithResponses(url)
	if err != nil {
		return res, err
	}
	price, ok := new(big.Rat).SetString(cfg.Price)
	if !ok {
		return res, fmt.Errorf("price %q is not a decimal number", cfg.Price)
	}
	const amount = 1_000_000_000
	fmt.Fprintf(out, "making %d cards of %d units (not timed)...\n", cfg.Reveals+1, amount)
	cards := make([]card.Card, cfg.Reveals+1)
	for i := range cards {
		if cards[i], _, err = card.Create(ctx, dev.Client(), dev.Accounts.Users[i%len(dev.Accounts.Users)].Key, dev.Contracts.Vault, token, big.NewInt(amount)); err != nil {
			return res, err
		}
	}
	dev.SetBlockTime(cfg.BlockTime)
	nativeBefore, err := dev.Client().BalanceAt(ctx, operator, nil)
	if err != nil {
		return res, err
	}
	feesBefore, err := tokenBalance(dev, token, operator)
	if err != nil {
		return res, err
	}
	var total, proving []time.Duration
	for i := range cfg.Reveals + 1 {
		var part *big.Int // the last one partial, for its gas
		if i == cfg.Reveals {
			part = big.NewInt(amount / 2)
		}
		start := time.Now()
		gas, charged, proved, err := feeReveal(ctx, dev, client, keys, cards[i], part)
		if err != nil {
			return res, fmt.Errorf("fee reveal %d: %w", i, err)
		}
		if part != nil {
			res.GasPartial, res.Partial = gas, charged
			continue
		}
		total, proving = append(total, time.Since(start)), append(proving, proved)
		res.GasWhole, res.Whole = gas, charged
	}
	nativeAfter, err := dev.Client().BalanceAt(ctx, operator, nil)
	if err != nil {
		return res, err
	}
	feesAfter, err := tokenBalance(dev, token, operator)
	if err != nil {
		return res, err
	}
	res.Spent = new(big.Int).Sub(nativeBefore, nativeAfter)
	earned := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Sub(feesAfter, feesBefore)), price)
	res.Earned = new(big.Int).Quo(earned.Num(), earned.Denom())
	res.Ratio, _ = new(big.Rat).Quo(earned, new(big.Rat).SetInt(res.Spent)).Float64()
	res.QuoteToMined, res.Proving = median(total), median(proving)
	fmt.Fprintf(out, "%d whole fee-paying reveals at %s wei per unit: the operator spent %s wei, earned fees worth %s wei: ratio %.3f (target >= 1.0)\n",
		cfg.Reveals, cfg.Price, res.Spent, res.Earned, res.Ratio)
	fmt.Fprintf(out, "quote to mined, median: %v (proving %v of it)\n", res.QuoteToMined.Round(time.Millisecond), res.Proving.Round(time.Millisecond))
	fmt.Fprintf(out, "gas paying a fee: whole %d (quoted for %d), partial %d (quoted for %d)\n", res.GasWhole, res.Whole, res.GasPartial, res.Partial)
	return res, nil
}

// feeReveal quotes, proves and sends one fee-paying reveal of part of cd (nil: all of it), and
// returns its gas, the gas its quote charged for, and the time proving took.
func feeReveal(ctx context.Context, dev *devchain.Chain, client *relayerapi.ClientWithResponses, keys *zk.Keys, cd card.Card, part *big.Int) (gas uint64, charged int64, proving time.Duration, err error) {
	amount, partial := cd.Amount, part != nil
	if partial {
		amount = part
	}
	qr, err := client.QuoteWithResponse(ctx, relayerapi.QuoteRequest{TokenAddress: cd.Token.Hex(), Amount: amount.String(), Partial: &partial})
	if err != nil {
		return 0, 0, 0, err
	}
	if qr.JSON200 == nil {
		return 0, 0, 0, fmt.Errorf("quote: %d %s", qr.StatusCode(), qr.Body)
	}
	q := *qr.JSON200
	fee, _ := new(big.Int).SetString(q.Fee, 10)
	start := time.Now()
	tree, err := card.Tree(ctx, dev.Client(), dev.Contracts.Vault)
	if err != nil {
		return 0, 0, 0, err
	}
	zr, _, err := note.Reveal(cd, tree, freshRecipient(), part)
	if err != nil {
		return 0, 0, 0, err
	}
	zr.Fee = &zk.Fee{Amount: fee, Receiver: common.HexToAddress(q.FeeReceiver)}
	proof, signals, err := keys.Prove(zr)
	if err != nil {
		return 0, 0, 0, err
	}
	proving = time.Since(start)
	req := card.ToAPI(note.RequestOf(cd, zr, proof, signals))
	req.Fee = &relayerapi.RevealFee{Amount: q.Fee, Receiver: q.FeeReceiver, Quote: q}
	resp, err := client.RevealWithResponse(ctx, req)
	if err != nil {
		return 0, 0, 0, err
	}
	if resp.JSON200 == nil || !resp.JSON200.Success {
		return 0, 0, 0, fmt.Errorf("relayer answered %d: %s", resp.StatusCode(), resp.Body)
	}
	fmt.Sscan(resp.JSON200.GasUsed, &gas)
	return gas, q.Gas, proving, nil
}

func tokenBalance(dev *devchain.Chain, token, who common.Address) (*big.Int, error) {
	w := contracts.NewWrappedToken()
	return bind.Call(w.Instance(dev.Client(), token), nil, w.PackBalanceOf(who), w.UnpackBalanceOf)
}
