// Command card runs the card flow against a dev chain described by devnet.json, or against any
// chain given a deployment file (cmd/deploy) and an RPC URL:
//
//	card create --devnet devnet.json --token <address> --amount <base units> [--from user0] [--url <app>/redeem] [--qr card.png] [--voucher <file> --sponsor <id> --voucher-key <file> --allowance <wei> [--voucher-ttl 720h]]
//	card create --deployment deployment.json --rpc-url <url> --key-file <file> --token <address> --amount <base units> [--url …] [--qr …]
//	card redeem --devnet devnet.json (--secret <card> | --secret-file <file>) --recipient <address> (--relayer <url>… [--registry <url>] [--max-fee <base units> | --voucher <file>] | --print | --direct) [--amount <base units> [--change-out <file>]] [--from user1] [--indexer <url>] [--keys <dir>]
//	card redeem --deployment deployment.json --rpc-url <url> [--key-file <file> with --direct] --secret <card> ...
//
// create commits tokens into the vault and prints the card: its string, or with --url the link
// that opens the app's redeem page with the card in the URL's fragment (the chain and vault left
// out: the app at --url serves them); --qr also writes that as a QR code (PNG). redeem reads the
// card string or the link, and proves the reveal of the
// card (or, with --amount, of part of it) to the recipient and posts it to a relayer, prints the
// request, or submits it directly. A partial reveal's change is a new card, written to stderr
// (and to --change-out) before anything is sent: the reveal inserts its leaf, and a change not
// kept is lost. Given several relayers (--relayer repeated, or --registry's directory), redeem
// chooses among them, fails over and never pays twice (docs/choosing.md, package
// service/vault/card/choice). With --max-fee, redeem asks the relayers' quotes first and proves
// the reveal paying the chosen one's fee if it is at most that (the recipient gets the amount
// less the fee). With --voucher,
// create also writes a relayer sponsor's voucher for the card (signed with the sponsor's voucher
// key: it pays the card's reveal, up to --allowance wei), which the card string and link carry
// (docs/cards.md); redeem sends the reveal with the voucher the card carries, or --voucher's.
package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/seed018cc74c/vaultd/service/dev/devnet"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/deployment"
	"github.com/seed018cc74c/vaultd/service/kit/weburl"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/card/choice"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func main() {
	buildversion.Answer("card")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if errors.Is(err, errUsage) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "card:", err)
		if errors.Is(err, chain.ErrUnavailable) {
			fmt.Fprintln(os.Stderr, "card: is the chain running? (the dev chain: go run ./cmd/devnet or ./cmd/devstack)")
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run runs one subcommand; the card, the request or the result go to stdout, progress to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) < 1 || (args[0] != "create" && args[0] != "redeem") {
		fmt.Fprintln(stderr, "usage: card create|redeem [flags]  (card create -h, card redeem -h)")
		return errUsage
	}
	if args[0] == "create" {
		return create(ctx, args[1:], stdout, stderr)
	}
	return redeem(ctx, args[1:], stdout, stderr)
}

func create(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("card create", flag.ContinueOnError)
	where := targetFlags(fs)
	token := fs.String("token", "", "token address")
	amount := fs.String("amount", "", "amount in the token's base units")
	from := fs.String("from", "user0", "dev account that commits (and pays the gas), with --devnet")
	base := fs.String("url", "", "print the card as a link to the redeem page at this address (https://app.example/redeem), whose app serves this chain and vault")
	qrFile := fs.String("qr", "", "also write the card (the link with --url) as a QR code to this PNG file (mode 0600: it holds the secrets)")
	vf := voucherFlags(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if err := vf.check(); err != nil {
		return err
	}
	if *base != "" {
		if err := checkBase(*base); err != nil {
			return err
		}
	}
	t, err := where.connect()
	if err != nil {
		return err
	}
	key, err := t.wallet(*from)
	if err != nil {
		return err
	}
	voucherKey, err := vf.key()
	if err != nil {
		return err
	}
	client := t.client
	tok, err := address.Parse(*token)
	if err != nil {
		return fmt.Errorf("--token: %w", err)
	}
	amt, ok := new(big.Int).SetString(*amount, 10)
	if !ok || amt.Sign() <= 0 || amt.Cmp(zk.MaxAmount) > 0 {
		return fmt.Errorf("--amount must be a positive integer in base units")
	}
	c, receipt, err := card.Create(ctx, client, key, t.vault, tok, amt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "committed in block %d (tx %s, gas %d)\n", receipt.BlockNumber, receipt.TxHash, receipt.GasUsed)
	c, verr := vf.sign(voucherKey, c, stderr)
	text := c.String()
	if *base != "" {
		text = c.Link(*base, card.Home{ChainID: t.chainID, Vault: t.vault})
	}
	fmt.Fprintln(stdout, text)
	if verr != nil {
		return verr
	}
	if *qrFile != "" {
		return writeQR(*qrFile, text, stderr)
	}
	return nil
}

// checkBase checks create's --url: a secure address (weburl.Secure: https, plain http only on
// the machine itself) without a fragment. Anywhere else over http, whoever is on the network path
// can answer the page with a script that reads the card in the fragment.
func checkBase(base string) error {
	u, err := url.Parse(base)
	if err == nil {
		err = weburl.Secure(u)
	}
	switch {
	case errors.Is(err, weburl.ErrPlainHTTP):
		return fmt.Errorf("--url must be https (http only for this machine: localhost, 127.0.0.1, [::1]): over plain http, anyone on the network can change the page and read the card")
	case err != nil || u.Fragment != "" || strings.Contains(base, "#"):
		return fmt.Errorf("--url must be an https address without a fragment, such as https://app.example/redeem")
	}
	return nil
}

// qrModule is the size of a QR code module in the PNG, in pixels; qrPrintWidth the width a card
// prints it at, in millimetres, as the example app does (the figures say what a module then measures).
const (
	qrModule     = 8
	qrPrintWidth = 42
)

// writeQR writes text as a QR code (error correction M: a printed card survives a smudge) to a
// PNG at path, and says its version and size.
func writeQR(path, text string, stderr io.Writer) error {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return fmt.Errorf("--qr: %w", err)
	}
	png, err := q.PNG(-qrModule)
	if err != nil {
		return fmt.Errorf("--qr: %w", err)
	}
	if err := writeSecretFile(path, png); err != nil {
		return fmt.Errorf("--qr: %w (the card is above: keep it)", err)
	}
	modules := len(q.Bitmap()) // with the 4-module quiet zone on each side
	fmt.Fprintf(stderr, "QR code in %s: version %d, level M, %d characters; %d×%d modules with its quiet zone, %d px each; %d mm wide a module is %.2f mm\n",
		path, q.VersionNumber, len(text), modules, modules, qrModule, qrPrintWidth, float64(qrPrintWidth)/float64(modules))
	return nil
}

// writeSecretFile writes a card (or its QR code) to a new file only its owner reads. A file
// already there is left as it is, and the write refused: it may hold another card, the only
// copy of it, and an existing file would keep its own permissions.
func writeSecretFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists already: a card there is not overwritten, name a new file", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func redeem(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("card redeem", flag.ContinueOnError)
	where := targetFlags(fs)
	secret := fs.String("secret", "", "the card string or link that card create printed (on the command line, where other users' ps shows it: --secret-file keeps it off)")
	secretFile := fs.String("secret-file", "", "read the card string or link from this file (--change-out's, say) instead of --secret")
	recipient := fs.String("recipient", "", "address that receives the tokens")
	var relayers urlsFlag
	fs.Var(&relayers, "relayer", "post the reveal through this relayer (its base URL); repeat it to give several: the cheapest ready one is chosen and the next taken if it fails (docs/choosing.md)")
	registry := fs.String("registry", "", "choose among the relayers this registry lists (its base URL; GET /relayers.json), with any --relayer")
	printOnly := fs.Bool("print", false, "print the reveal request JSON instead of sending it")
	direct := fs.Bool("direct", false, "submit the reveal directly from --from")
	from := fs.String("from", "user1", "dev account that submits with --direct (and pays the gas), with --devnet")
	indexerURL := fs.String("indexer", "", "rebuild the commitment tree from this indexer's events (its base URL) instead of the chain's logs; waits up to 30 s for the indexer to reach the card's deposit")
	keysDir := fs.String("keys", "", "prove with the keys of this directory (cmd/ceremony finalize) instead of the dev keys")
	amountFlag := fs.String("amount", "", "reveal only this much (base units); what is left becomes a new card, the change")
	changeOut := fs.String("change-out", "", "with --amount: also write the change card to this file (mode 0600) before anything is sent")
	maxFeeFlag := fs.String("max-fee", "", "with --relayer or --registry: pay the relayer's fee out of the amount revealed, as each quotes it (POST /quote), if it is at most this (base units of the card's token)")
	voucherFile := fs.String("voucher", "", "with --relayer: send the reveal with this sponsor's voucher (card create --voucher wrote it): the sponsor pays")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if (*secret == "") == (*secretFile == "") {
		return errors.New("give the card with --secret or --secret-file (one of them)")
	}
	if *secretFile != "" {
		b, err := os.ReadFile(*secretFile)
		if err != nil {
			return fmt.Errorf("--secret-file: %w", err)
		}
		*secret = strings.TrimSpace(string(b))
	}
	viaRelayer := len(relayers) > 0 || *registry != ""
	v, err := readVoucher(*voucherFile, viaRelayer, *maxFeeFlag)
	if err != nil {
		return err
	}
	var maxFee *big.Int
	if *maxFeeFlag != "" {
		m, ok := new(big.Int).SetString(*maxFeeFlag, 10)
		if !ok || m.Sign() < 0 {
			return fmt.Errorf("--max-fee must be a non-negative integer in base units")
		}
		if !viaRelayer {
			return fmt.Errorf("--max-fee goes with --relayer or --registry")
		}
		maxFee = m
	}
	var amount *big.Int
	if *amountFlag != "" {
		a, ok := new(big.Int).SetString(*amountFlag, 10)
		if !ok || a.Sign() <= 0 {
			return fmt.Errorf("--amount must be a positive integer in base units")
		}
		amount = a
	} else if *changeOut != "" {
		return fmt.Errorf("--change-out goes with --amount")
	}
	if n := btoi(viaRelayer) + btoi(*printOnly) + btoi(*direct); n != 1 {
		return errors.New("choose exactly one of --relayer <url> (or --registry <url>), --print, --direct")
	}
	to, err := address.ParseNonZero(*recipient)
	if err != nil {
		return fmt.Errorf("--recipient: not a valid address")
	}
	t, err := where.connect()
	if err != nil {
		return err
	}
	c, err := card.ReadLink(*secret, card.Home{ChainID: t.chainID, Vault: t.vault})
	if err != nil {
		return err
	}
	if v == nil && maxFee == nil && viaRelayer {
		if v = voucher.OfCard(c); v != nil {
			fmt.Fprintf(stderr, "the card carries a voucher of %s: the sponsor pays the reveal (up to %s wei)\n", v.Sponsor, v.Allowance)
		}
	}
	if err := card.CheckRecipient(ctx, t.client, c.Vault, to); err != nil {
		return fmt.Errorf("--recipient: %w", err)
	}
	if amount != nil && amount.Cmp(c.Amount) > 0 {
		return fmt.Errorf("--amount %s is more than the card holds (%s)", amount, c.Amount)
	}
	client := t.client
	keys, err := loadKeys(*keysDir)
	if err != nil {
		return err
	}
	prove := func(ctx context.Context, fee *zk.Fee, change *card.Card) (card.Request, error) {
		if *indexerURL == "" {
			return card.PrepareKeeping(ctx, client, keys, c, to, card.ChainLeaves(client), amount, fee, change)
		}
		return prepareFromIndexer(ctx, client, keys, c, to, *indexerURL, amount, fee, change)
	}
	change, err := card.ChangeOf(c, amount)
	if err != nil {
		return err
	}
	var req card.Request
	if !viaRelayer { // a relayer's reveal is proved once its fee is known
		if req, err = prove(ctx, nil, change); err != nil {
			return err
		}
	}
	if change != nil { // kept before the reveal can insert its leaf: every proof makes this one
		fmt.Fprintf(stderr, "the change, %s of %s, is a new card; keep it, it is the only copy:\n%s\n", change.Amount, change.Token.Hex(), change)
		if *changeOut != "" {
			if err := writeSecretFile(*changeOut, []byte(change.String()+"\n")); err != nil {
				return fmt.Errorf("--change-out: %w (nothing was sent)", err)
			}
		}
	}
	switch {
	case *printOnly:
		out, _ := json.MarshalIndent(req, "", "  ")
		fmt.Fprintln(stdout, string(out))
	case viaRelayer:
		r := choice.Reveal{Client: client, Card: c, Voucher: v, Prove: func(ctx context.Context, fee *zk.Fee) (card.Request, error) { return prove(ctx, fee, change) }}
		return throughRelayers(ctx, relayers, *registry, r, amount, maxFee, stdout, stderr)
	default:
		key, err := t.wallet(*from)
		if err != nil {
			return err
		}
		receipt, err := card.Reveal(ctx, client, key, c.Vault, req)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revealed %s of %s to %s in block %d (tx %s, gas %d)\n", req.Amount, c.Token.Hex(), to.Hex(), receipt.BlockNumber, receipt.TxHash, receipt.GasUsed)
	}
	return nil
}

// targetFlag holds the flags that say which chain and vault a command works on: a dev chain's
// manifest, or a deployment file and an RPC URL (any chain), with the wallet's key in a file.
type targetFlag struct {
	devnet, deployment, rpcURL, keyFile *string
}

func targetFlags(fs *flag.FlagSet) targetFlag {
	return targetFlag{
		devnet:     fs.String("devnet", "devnet.json", "the dev chain's manifest (its RPC URL, vault and dev accounts)"),
		deployment: fs.String("deployment", "", "a deployment file (cmd/deploy) in place of --devnet: the vault on any chain; needs --rpc-url"),
		rpcURL:     fs.String("rpc-url", os.Getenv("RPC_URL"), "with --deployment: the chain's JSON-RPC endpoint (default $RPC_URL)"),
		keyFile:    fs.String("key-file", "", "with --deployment: a file holding the private key (hex) of the wallet that commits, or submits with --direct"),
	}
}

// target is the chain and vault a command works on.
type target struct {
	client  *ethclient.Client
	chainID uint64
	vault   common.Address
	// wallet is the key that pays: a dev account by name (--devnet), or --key-file's.
	wallet func(name string) (*ecdsa.PrivateKey, error)
}

func (f targetFlag) connect() (target, error) {
	if *f.deployment == "" {
		m, err := devnet.Read(*f.devnet)
		if err != nil {
			return target{}, fmt.Errorf("read %s: %w (run: go run ./cmd/devnet --out %s, or give --deployment)", *f.devnet, err, *f.devnet)
		}
		vault, err := m.Address("vault")
		if err != nil {
			return target{}, err
		}
		client, err := dial(m.RPCURL)
		return target{client: client, chainID: m.ChainID, vault: vault, wallet: m.Account}, err
	}
	d, err := deployment.Read(*f.deployment)
	if err != nil {
		return target{}, fmt.Errorf("--deployment: %w", err)
	}
	if *f.rpcURL == "" {
		return target{}, errors.New("--deployment needs --rpc-url (or RPC_URL)")
	}
	client, err := dial(*f.rpcURL)
	if err != nil {
		return target{}, err
	}
	id, err := client.ChainID(context.Background())
	if err != nil {
		return target{}, fmt.Errorf("%w: %w", chain.ErrUnavailable, err)
	}
	if id.Uint64() != d.ChainID {
		return target{}, fmt.Errorf("the deployment is on chain %d, and --rpc-url is chain %s", d.ChainID, id)
	}
	wallet := func(string) (*ecdsa.PrivateKey, error) {
		if *f.keyFile == "" {
			return nil, errors.New("--deployment needs --key-file for the wallet that pays")
		}
		key, err := chain.ReadPrivateKeyFile(*f.keyFile)
		if err != nil {
			return nil, fmt.Errorf("--key-file: %w", err)
		}
		return key, nil
	}
	return target{client: client, chainID: d.ChainID, vault: common.HexToAddress(d.Contracts["vault"]), wallet: wallet}, nil
}

func dial(rpcURL string) (*ethclient.Client, error) {
	client, err := ethclient.Dial(rpcURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", chain.ErrUnavailable, err)
	}
	return client, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// loadKeys reads the proving keys of dir, or the dev keys when dir is "".
func loadKeys(dir string) (*zk.Keys, error) {
	if dir == "" {
		return zk.DevKeys()
	}
	k, err := zk.LoadKeysDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--keys: %w", err)
	}
	return k, nil
}

// indexerWait is how long redeem --indexer waits for the indexer to reach the card's deposit: an
// indexer follows the chain a block or so behind, so a card committed a moment ago may not be
// among its leaves yet.
const indexerWait = 30 * time.Second

// prepareFromIndexer proves the reveal from the indexer's leaves, reading them again until the
// card's deposit is among them or indexerWait has passed.
func prepareFromIndexer(ctx context.Context, client *ethclient.Client, keys *zk.Keys, c card.Card, to common.Address, url string, amount *big.Int, fee *zk.Fee, change *card.Card) (card.Request, error) {
	deadline := time.Now().Add(indexerWait)
	for {
		leaves, err := card.IndexerLeaves(url)
		if err != nil {
			return card.Request{}, fmt.Errorf("--indexer: %w", err)
		}
		req, err := card.PrepareKeeping(ctx, client, keys, c, to, leaves, amount, fee, change)
		if !errors.Is(err, card.ErrUnknownCard) || time.Now().After(deadline) {
			if errors.Is(err, card.ErrUnknownCard) {
				err = fmt.Errorf("%w (the indexer at %s did not list it within %s)", err, url, indexerWait)
			}
			return req, err
		}
		select {
		case <-ctx.Done():
			return card.Request{}, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
