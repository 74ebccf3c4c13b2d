package card

import (
	"context"
	"fmt"
	"time"

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

// PostToRelayer is PostReveal's status and body.
func PostToRelayer(ctx context.Context, relayerURL string, req Request) (int, []byte, error) {
	resp, err := PostReveal(ctx, relayerURL, req)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode(), resp.Body, nil
}
