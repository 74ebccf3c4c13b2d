package main

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"time"

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
		out:       fs.String("voucher", "", "sign a relayer sponsor's voucher for the card's reveal (the sponsor pays it), which the card string and link carry, and also write it to this file (JSON, mode 0600) for redeem --voucher"),
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

// key reads --voucher-key (nil without --voucher), before anything is committed.
func (f voucherFlag) key() (*ecdsa.PrivateKey, error) {
	if *f.out == "" {
		return nil, nil
	}
	key, err := chain.ReadPrivateKeyFile(*f.keyFile)
	if err != nil {
		return nil, fmt.Errorf("--voucher-key: %w", err)
	}
	return key, nil
}

// sign signs c's voucher with key (nil: none asked, c as it is) and answers c carrying it (its
// string and link hold it), and writes it to --voucher for redeem --voucher. The card is printed
// whatever the error: it is committed.
func (f voucherFlag) sign(key *ecdsa.PrivateKey, c card.Card, stderr io.Writer) (card.Card, error) {
	if key == nil {
		return c, nil
	}
	allowance, _ := new(big.Int).SetString(*f.allowance, 10)
	c, v, err := voucher.ForCard(key, c, *f.sponsor, allowance, time.Now().Add(*f.ttl).Unix())
	if err != nil {
		return c, fmt.Errorf("%w (the card above carries no voucher: keep it)", err)
	}
	data, _ := json.Marshal(v)
	if err := os.WriteFile(*f.out, append(data, '\n'), 0o600); err != nil {
		return c, fmt.Errorf("--voucher: %w (the card above carries the voucher: keep it)", err)
	}
	fmt.Fprintf(stderr, "voucher of %s for up to %s wei, until %s, in the card and in %s\n", v.Sponsor, v.Allowance, time.Unix(v.ExpiresAt, 0).UTC().Format(time.RFC3339), *f.out)
	return c, nil
}

// readVoucher reads redeem's --voucher (nil: none); it goes with --relayer, not with --max-fee.
func readVoucher(path string, viaRelayer bool, maxFee string) (*relayerapi.Voucher, error) {
	if path == "" {
		return nil, nil
	}
	if !viaRelayer || maxFee != "" {
		return nil, errors.New("--voucher goes with --relayer (or --registry), and not with --max-fee")
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
