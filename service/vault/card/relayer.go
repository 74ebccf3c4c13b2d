package card

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
)

// ToAPI is the request as the relayer's generated model (gen/relayerapi), field by field: a
// field renamed in openapi/relayer.yaml fails to compile here.
func ToAPI(req Request) relayerapi.RevealRequest {
	return relayerapi.RevealRequest{
		Proof:         relayerapi.Proof{PiA: req.Proof.PiA, PiB: req.Proof.PiB, PiC: req.Proof.PiC},
		PublicSignals: req.PublicSignals,
		Recipient:     req.Recipient,
		TokenAddress:  req.TokenAddress,
		Amount:        req.Amount,
	}
}

// PostReveal posts the request to a relayer's POST /reveal with the relayer's generated client and
// returns its answer: JSON200 when mined, the error body otherwise.
func PostReveal(ctx context.Context, relayerURL string, req Request) (*relayerapi.RevealResponse, error) {
	client, err := relayerapi.NewClientWithResponses(relayerURL)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	resp, err := client.RevealWithResponse(ctx, ToAPI(req))
	if err != nil {
		return nil, fmt.Errorf("relayer: %w", err)
	}
	return resp, nil
}

// Quote asks a relayer's POST /quote what a reveal of amount of token (partial: with change)
// pays it, signed.
func Quote(ctx context.Context, relayerURL string, token common.Address, amount *big.Int, partial bool) (relayerapi.Quote, error) {
	client, err := relayerapi.NewClientWithResponses(relayerURL)
	if err != nil {
		return relayerapi.Quote{}, err
	}
	resp, err := client.QuoteWithResponse(ctx, relayerapi.QuoteRequest{TokenAddress: token.Hex(), Amount: amount.String(), Partial: &partial})
	if err != nil {
		return relayerapi.Quote{}, fmt.Errorf("relayer: %w", err)
	}
	if resp.JSON200 == nil {
		return relayerapi.Quote{}, fmt.Errorf("the relayer's quote: %d %s", resp.StatusCode(), resp.Body)
	}
	return *resp.JSON200, nil
}

// PostPaying posts a request proved with q's fee (PreparePaying) to a relayer's POST /reveal,
// with the fee and its quote; PostToRelayer's status and body.
func PostPaying(ctx context.Context, relayerURL string, req Request, q relayerapi.Quote) (int, []byte, error) {
	client, err := relayerapi.NewClientWithResponses(relayerURL)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	body := ToAPI(req)
	body.Fee = &relayerapi.RevealFee{Amount: q.Fee, Receiver: q.FeeReceiver, Quote: q}
	resp, err := client.RevealWithResponse(ctx, body)
	if err != nil {
		return 0, nil, fmt.Errorf("relayer: %w", err)
	}
	return resp.StatusCode(), resp.Body, nil
}

// PostToRelayer is PostReveal's status and body.
func PostToRelayer(ctx context.Context, relayerURL string, req Request) (int, []byte, error) {
	resp, err := PostReveal(ctx, relayerURL, req)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode(), resp.Body, nil
}
