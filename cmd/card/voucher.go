package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
)

// voucherFlag holds create's flags of a sponsor's voucher for the card (docs/relayer.md,
// "Sponsors who pay ahead").
type voucherFlag struct {
	out, sponsor, keyFile, allowance *string
	ttl                              *time.Duration
}

func voucherFlags(fs *flag.FlagSet) voucherFlag {
	return voucherFlag{
		out:       fs.String("voucher", "", "also write a relayer sponsor's voucher for the card to this file (JSON, mode 0600): redeem --voucher sends it, and the sponsor pays the reveal"),
		sponsor:   fs.String("sponsor", "", "with --voucher: the sponsor's id (sp_…)"),
		keyFile:   fs.String("voucher-key", "", "with --voucher: a file holding the private key (hex) of the sponsor's voucher signer"),
		allowance: fs.String("allowance", "", "with --voucher: the most the voucher pays, in wei (at least a reveal's gas limit × the relayer's MAX_FEE_PER_GAS)"),
		ttl:       fs.Duration("voucher-ttl", 30*24*time.Hour, "with --voucher: how long the voucher is good for"),
	}
}

// check refuses a voucher's flags without the voucher, or a voucher without its flags.
func (f voucherFlag) check() error {
	if *f.out == "" {
		if *f.sponsor != "" || *f.keyFile != "" || *f.allowance != "" {
			return errors.New("--sponsor, --voucher-key and --allowance go with --voucher")
		}
		return nil
	}
	if *f.sponsor == "" || *f.keyFile == "" || *f.allowance == "" {
		return errors.New("--voucher needs --sponsor, --voucher-key and --allowance")
	}
	if a, ok := new(big.Int).SetString(*f.allowance, 10); !ok || a.Sign() <= 0 {
		return errors.New("--allowance must be a positive integer of wei")
	}
	if *f.ttl <= 0 {
		return errors.New("--voucher-ttl must be positive")
	}
	return nil
}

// write signs the card's voucher for t's chain and vault and writes it to --voucher.
func (f voucherFlag) write(t target, stderr io.Writer) error {
	if *f.out == "" {
		return nil
	}
	key, err := chain.ReadPrivateKeyFile(*f.keyFile)
	if err != nil {
		return fmt.Errorf("--voucher-key: %w", err)
	}
	var id common.Hash
	if _, err := rand.Read(id[:]); err != nil {
		return err
	}
	allowance, _ := new(big.Int).SetString(*f.allowance, 10)
	v, err := voucher.Sign(key, t.chainID, t.vault, voucher.Terms{Sponsor: *f.sponsor, Allowance: allowance, ExpiresAt: time.Now().Add(*f.ttl).Unix(), ID: id})
	if err != nil {
		return err
	}
	data, _ := json.Marshal(v)
	if err := os.WriteFile(*f.out, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("--voucher: %w (the card is above: keep it)", err)
	}
	fmt.Fprintf(stderr, "voucher of %s for up to %s wei, until %s, in %s\n", v.Sponsor, v.Allowance, time.Unix(v.ExpiresAt, 0).UTC().Format(time.RFC3339), *f.out)
	return nil
}

// readVoucher reads redeem's --voucher (nil: none); it goes with --relayer, not with --max-fee.
func readVoucher(path, relayer, maxFee string) (*relayerapi.Voucher, error) {
	if path == "" {
		return nil, nil
	}
	if relayer == "" || maxFee != "" {
		return nil, errors.New("--voucher goes with --relayer, and not with --max-fee")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--voucher: %w", err)
	}
	var v relayerapi.Voucher
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("--voucher: not a voucher: %w", err)
	}
	return &v, nil
}

// postVouched sends req to the relayer with the sponsor's voucher v, and answers its status and
// body.
func postVouched(ctx context.Context, relayerURL string, req card.Request, v relayerapi.Voucher) (int, []byte, error) {
	client, err := relayerapi.NewClientWithResponses(relayerURL)
	if err != nil {
		return 0, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	body := card.ToAPI(req)
	body.Voucher = &v
	resp, err := client.RevealWithResponse(ctx, body)
	if err != nil {
		return 0, nil, fmt.Errorf("relayer: %w", err)
	}
	return resp.StatusCode(), resp.Body, nil
}
