package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/devstack"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/indexer"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/ops/deploy"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/vault/card"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// The README's card flow, as a user types it: a manifest, card create, card redeem --print and
// --direct to a recipient who never held gas, and a second redeem that is refused.
func TestCardCommands(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out, errOut bytes.Buffer
	token := c.Tokens[2].Address.Hex() // vWBTC, 8 decimals
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "150000000"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	if !strings.HasPrefix(secret, "vaultd-card:v1?") {
		t.Fatalf("create printed %q", secret)
	}
	key, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(key.PublicKey).Hex()

	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --print: %v", err)
	}
	var req map[string]any
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || req["amount"] != "150000000" || req["tokenAddress"] != token {
		t.Fatalf("redeem --print wrote %s (%v)", out.String(), err)
	}
	// The card from a file, kept off the command line (and out of other users' ps): the same
	// request's amount and token; with --secret too, refused.
	secretFile := filepath.Join(t.TempDir(), "card.txt")
	if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret-file", secretFile, "--recipient", recipient, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --secret-file --print: %v", err)
	}
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || req["amount"] != "150000000" || req["tokenAddress"] != token {
		t.Fatalf("redeem --secret-file --print wrote %s (%v)", out.String(), err)
	}
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--secret-file", secretFile, "--recipient", recipient, "--print"}, &out, &errOut); err == nil {
		t.Fatal("redeem with --secret and --secret-file: accepted")
	}

	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--direct"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --direct: %v", err)
	}
	w := contracts.NewWrappedToken()
	bal, _ := bind.Call(w.Instance(c.Client(), c.Tokens[2].Address), nil, w.PackBalanceOf(crypto.PubkeyToAddress(key.PublicKey)), w.UnpackBalanceOf)
	if bal.Cmp(big.NewInt(150000000)) != 0 {
		t.Fatalf("recipient holds %s", bal)
	}
	err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient, "--direct"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "already been redeemed") {
		t.Fatalf("second redeem: %v", err)
	}
	for _, args := range [][]string{
		{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient},
		{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", "0x00000000000000000000000000000000000000aA", "--print"},
		{"redeem", "--devnet", manifest, "--secret", "vaultd-card:v1?chain=x", "--recipient", recipient, "--print"},
		{"create", "--devnet", manifest, "--token", token, "--amount", "-5"},
		{"create", "--devnet", filepath.Join(t.TempDir(), "missing.json"), "--token", token, "--amount", "5"},
	} {
		if err := run(ctx, args, &out, &errOut); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// card create --url --qr: the card as a link to the redeem page, without the chain and vault (the
// app's), and as a QR code of that link (a PNG only its owner reads: it holds the secrets), which
// Debian's zbarimg decodes back to the link; card redeem reads the link as it reads the card. A
// link cut short is refused as such, and --url with a fragment is refused.
func TestCardAsALinkAndAQRCode(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out, errOut bytes.Buffer
	png := filepath.Join(dir, "card.png")
	token := c.Tokens[0].Address.Hex()
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "1000", "--url", "https://app.example/redeem", "--qr", png}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	link := strings.TrimSpace(out.String())
	if !strings.HasPrefix(link, "https://app.example/redeem#vaultd-card:v1?token="+token+"&amount=1000&secret=0x") || strings.Contains(link, "chain=") || strings.Contains(link, "vault=") {
		t.Fatalf("create --url printed %q", link)
	}
	if !strings.Contains(errOut.String(), "QR code in "+png+": version ") {
		t.Errorf("create --qr said %q", errOut.String())
	}
	info, err := os.Stat(png)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the QR code's file: %v %v", info, err)
	}
	checkQR(t, png, link)
	// A file there already (another card's code, the only copy) is not overwritten.
	err = run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "7", "--url", "https://app.example/redeem", "--qr", png}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("create --qr onto an existing file: %v", err)
	}
	checkQR(t, png, link)
	recipient := common.HexToAddress("0x4444444444444444444444444444444444444444").Hex()
	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", link, "--recipient", recipient, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem of the link: %v", err)
	}
	err = run(ctx, []string{"redeem", "--devnet", manifest, "--secret", link[:len(link)-9], "--recipient", recipient, "--print"}, &out, &errOut)
	if le := (*note.LinkError)(nil); !errors.As(err, &le) || le.Problem != note.Truncated {
		t.Fatalf("redeem of a link cut short: %v", err)
	}
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "1", "--url", "https://app.example/redeem#x"}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "--url") {
		t.Fatalf("--url with a fragment: %v", err)
	}
}

// card create --url: plain http is refused but on the machine itself (whoever is on the network
// path of an http page can change it to read the card in its fragment); localhost, 127.0.0.1 and
// [::1] are accepted, as the browser test's loopback server is.
func TestCardLinkIsHTTPS(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := c.Tokens[0].Address.Hex()
	create := func(base string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(ctx, []string{"create", "--devnet", manifest, "--token", token, "--amount", "10", "--url", base}, &out, &errOut)
		return strings.TrimSpace(out.String()), err
	}
	for _, base := range []string{"http://app.example/redeem", "http://192.168.1.20:8080/redeem", "http://localhost.app.example/redeem", "http://127.0.0.1.app.example/redeem", "ftp://app.example/redeem", "app.example/redeem"} {
		if link, err := create(base); err == nil || !strings.Contains(err.Error(), "--url must be") || !strings.Contains(err.Error(), "https") || link != "" {
			t.Errorf("--url %s: %v, printed %q", base, err, link)
		}
	}
	for _, base := range []string{"https://app.example/redeem", "http://127.0.0.1:8080/redeem", "http://localhost/redeem", "http://[::1]:8080/redeem"} {
		link, err := create(base)
		if err != nil || !strings.HasPrefix(link, base+"#vaultd-card:v1?token=") {
			t.Errorf("--url %s: %v, printed %q", base, err, link)
		}
	}
}

// card redeem refuses the vault and the vault's tokens as the recipient (a contract keeps what is
// sent to it: the card would be lost), the card's own token and another alike, with nothing sent;
// the card then redeems to a wallet.
func TestRedeemRefusesAContractRecipient(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := c.Tokens[0].Address
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token.Hex(), "--amount", "1000"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	w := contracts.NewWrappedToken()
	balance := func(a common.Address) *big.Int {
		bal, err := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(a), w.UnpackBalanceOf)
		if err != nil {
			t.Fatal(err)
		}
		return bal
	}
	for _, to := range []common.Address{c.Contracts.Vault, token, c.Tokens[1].Address} {
		before := balance(to)
		for _, how := range []string{"--print", "--direct"} {
			out.Reset()
			err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", to.Hex(), how}, &out, &errOut)
			if !errors.Is(err, card.ErrRecipientNotAllowed) || out.Len() != 0 {
				t.Errorf("redeem %s to %s: %v, printed %q", how, to, err, out.String())
			}
		}
		if got := balance(to); got.Cmp(before) != 0 {
			t.Errorf("%s received %s", to, new(big.Int).Sub(got, before))
		}
	}
	wallet := common.HexToAddress("0x7777777777777777777777777777777777777777")
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", wallet.Hex(), "--direct"}, &out, &errOut); err != nil {
		t.Fatalf("redeem to a wallet: %v", err)
	}
	if got := balance(wallet); got.Cmp(big.NewInt(1000)) != 0 {
		t.Fatalf("the wallet holds %s, want 1000", got)
	}
}

// redeem --indexer waits for an indexer that is behind the chain: one that stays a block behind
// the head (CONFIRMATIONS=1) lists a card's deposit only once another block is mined, here by
// a second card committed a moment later. Without the wait, the redeem fails at once.
func TestRedeemWaitsForTheIndexer(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	env := devstack.IndexerEnv(c, filepath.Join(t.TempDir(), "indexer.db"))
	env["CONFIRMATIONS"] = "1"
	env["POLL_INTERVAL"] = "50ms"
	cfg, err := indexer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := indexer.New(ctx, cfg, indexer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)

	create := func() string {
		var out, errOut bytes.Buffer
		if err := run(ctx, []string{"create", "--devnet", manifest, "--token", c.Tokens[0].Address.Hex(), "--amount", "1000"}, &out, &errOut); err != nil {
			t.Errorf("create: %v (%s)", err, errOut.String())
		}
		return strings.TrimSpace(out.String())
	}
	secret := create()
	later := make(chan struct{})
	go func() {
		defer close(later)
		time.Sleep(1500 * time.Millisecond)
		create()
	}()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", "0x4444444444444444444444444444444444444444",
		"--indexer", url, "--print"}, &out, &errOut); err != nil {
		t.Fatalf("redeem --indexer: %v", err)
	}
	<-later
	var req map[string]any
	if err := json.Unmarshal(out.Bytes(), &req); err != nil || req["amount"] != "1000" {
		t.Fatalf("redeem --indexer --print wrote %s (%v)", out.String(), err)
	}
}

// On a chain known only by a deployment file (cmd/deploy's) and an RPC URL, with the wallets'
// keys in files: a card created and redeemed directly.
func TestCardOnADeployment(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	ctx := context.Background()
	dir := t.TempDir()
	sender, err := devchain.FundedKey(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	submitter, err := devchain.FundedKey(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	senderFile, submitterFile := filepath.Join(dir, "sender.key"), filepath.Join(dir, "submitter.key")
	os.WriteFile(senderFile, []byte(hex.EncodeToString(crypto.FromECDSA(sender))+"\n"), 0o600)
	os.WriteFile(submitterFile, []byte("0x"+hex.EncodeToString(crypto.FromECDSA(submitter))), 0o600)

	client, err := chain.Dial(c.RPCURL, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	vk, _ := zk.DevVerificationKey()
	opts := deploy.Options{VerificationKey: vk, DevKeys: true, DevTokens: true, MintTo: []common.Address{crypto.PubkeyToAddress(sender.PublicKey)}}
	journal, _ := deploy.OpenJournal(filepath.Join(dir, "deployment.journal.json"))
	d, _, err := deploy.Run(ctx, client, c.Accounts.Deployer.Key, opts, journal, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "deployment.json")
	if err := deploy.Write(file, d, opts); err != nil {
		t.Fatal(err)
	}
	token := d.Tokens[0].Address
	where := []string{"--deployment", file, "--rpc-url", c.RPCURL}

	var out, errOut bytes.Buffer
	if err := run(ctx, append([]string{"create", "--token", token.Hex(), "--amount", "7000", "--key-file", senderFile}, where...), &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	key, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(key.PublicKey)

	for _, to := range []common.Address{d.Tokens[1].Address, d.Contracts["vault"]} {
		err = run(ctx, append([]string{"redeem", "--secret", secret, "--recipient", to.Hex(), "--print"}, where...), &out, &errOut)
		if !errors.Is(err, card.ErrRecipientNotAllowed) {
			t.Fatalf("redeem to the deployment's %s: %v", to, err)
		}
	}
	err = run(ctx, append([]string{"redeem", "--secret", secret, "--recipient", recipient.Hex(), "--direct"}, where...), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "--key-file") {
		t.Fatalf("redeem --direct without --key-file: %v", err)
	}
	if err := run(ctx, append([]string{"redeem", "--secret", secret, "--recipient", recipient.Hex(), "--direct", "--key-file", submitterFile}, where...), &out, &errOut); err != nil {
		t.Fatalf("redeem: %v", err)
	}
	w := contracts.NewWrappedToken()
	bal, _ := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(recipient), w.UnpackBalanceOf)
	if bal.Cmp(big.NewInt(7000)) != 0 {
		t.Fatalf("recipient holds %s", bal)
	}
	// A card of another vault (the dev chain's own) is refused by name.
	out.Reset()
	manifest := filepath.Join(dir, "devnet.json")
	c.WriteManifest(manifest)
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", c.Tokens[0].Address.Hex(), "--amount", "5"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, append([]string{"redeem", "--secret", strings.TrimSpace(out.String()), "--recipient", recipient.Hex(), "--print"}, where...), &out, &errOut)
	if le := (*note.LinkError)(nil); !errors.As(err, &le) || le.Problem != note.OtherVault {
		t.Fatalf("a card of another vault: %v", err)
	}
}

// card redeem --amount reveals part of a card: the recipient receives that much, the change is a
// new card (on stderr and in --change-out, written before the reveal is sent) that redeems the
// rest; asking for more than the card holds is refused with nothing sent.
func TestRedeemPartOfACard(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	dir := t.TempDir()
	manifest := filepath.Join(dir, "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := c.Tokens[0].Address
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token.Hex(), "--amount", "1000"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	first, second := common.HexToAddress("0x5555555555555555555555555555555555555555"), common.HexToAddress("0x6666666666666666666666666666666666666666")
	balance := func(a common.Address) *big.Int {
		w := contracts.NewWrappedToken()
		bal, err := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(a), w.UnpackBalanceOf)
		if err != nil {
			t.Fatal(err)
		}
		return bal
	}

	err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", first.Hex(), "--direct", "--amount", "1001"}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "more than the card holds") || balance(first).Sign() != 0 {
		t.Fatalf("--amount over the card: %v, recipient holds %s", err, balance(first))
	}

	changeFile := filepath.Join(dir, "change.card")
	out.Reset()
	errOut.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", first.Hex(), "--direct",
		"--amount", "400", "--change-out", changeFile}, &out, &errOut); err != nil {
		t.Fatalf("redeem --amount 400: %v (%s)", err, errOut.String())
	}
	if got := balance(first); got.Cmp(big.NewInt(400)) != 0 {
		t.Fatalf("the first recipient holds %s, want 400", got)
	}
	change, err := os.ReadFile(changeFile)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(changeFile); info.Mode().Perm() != 0o600 || !strings.Contains(errOut.String(), strings.TrimSpace(string(change))) {
		t.Fatalf("the change card: mode %v, stderr %q", info.Mode().Perm(), errOut.String())
	}
	out.Reset()
	if err := run(ctx, []string{"redeem", "--devnet", manifest, "--secret", strings.TrimSpace(string(change)), "--recipient", second.Hex(), "--direct"}, &out, &errOut); err != nil {
		t.Fatalf("redeem the change: %v", err)
	}
	if got := balance(second); got.Cmp(big.NewInt(600)) != 0 {
		t.Fatalf("the change's recipient holds %s, want 600", got)
	}
}

// card redeem --max-fee against a relayer paid by fees alone: a fee above the maximum is refused
// before anything is proved or sent, a redeem without --max-fee is told to set one, and one
// within it pays the relayer's fee out of the card: the recipient gets the rest.
func TestRedeemPayingTheRelayersFee(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	token, operator := c.Tokens[0].Address, c.Accounts.Operator.Address
	env := devstack.RelayerEnv(c, "../../gen/zk/devkeys/verification_key.json", filepath.Join(t.TempDir(), "relayer.db"))
	env["RELAYER_FUNDING"], env["RELAYER_TOKEN_PRICES"] = "fee", token.Hex()+"=1000000"
	cfg, err := relayer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)

	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"create", "--devnet", manifest, "--token", token.Hex(), "--amount", "1000000000"}, &out, &errOut); err != nil {
		t.Fatalf("create: %v (%s)", err, errOut.String())
	}
	secret := strings.TrimSpace(out.String())
	key, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(key.PublicKey)
	redeem := func(extra ...string) error {
		out.Reset()
		errOut.Reset()
		return run(ctx, append([]string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient.Hex(), "--relayer", url}, extra...), &out, &errOut)
	}
	if err := redeem("--max-fee", "1"); err == nil || !strings.Contains(err.Error(), "above --max-fee 1") {
		t.Fatalf("a fee above --max-fee: %v", err)
	}
	if err := redeem(); err == nil || !strings.Contains(err.Error(), "--max-fee") {
		t.Fatalf("no --max-fee where the relayer charges: %v (%s)", err, out.String())
	}
	before := tokenBalanceOf(t, c, token, operator)
	if err := redeem("--max-fee", "1000000000"); err != nil {
		t.Fatalf("redeem --max-fee: %v (%s %s)", err, out.String(), errOut.String())
	}
	got, fee := tokenBalanceOf(t, c, token, recipient), new(big.Int).Sub(tokenBalanceOf(t, c, token, operator), before)
	if fee.Sign() <= 0 || new(big.Int).Add(got, fee).Cmp(big.NewInt(1_000_000_000)) != 0 || !strings.Contains(errOut.String(), "the relayer's fee: "+fee.String()) {
		t.Fatalf("the recipient got %s and the relayer %s of 1000000000; told %q", got, fee, errOut.String())
	}
}

func tokenBalanceOf(t *testing.T, c *devchain.Chain, token, who common.Address) *big.Int {
	t.Helper()
	w := contracts.NewWrappedToken()
	b, err := bind.Call(w.Instance(c.Client(), token), nil, w.PackBalanceOf(who), w.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// card create --voucher: a sponsor's voucher signer (its key in a file) signs a voucher for the
// card's reveal, which the card's link (and its QR code) carries, and which is written beside it;
// card redeem of that link sends the reveal with it to a relayer paid by sponsors alone, without
// --voucher. The recipient gets the whole card and the sponsor is debited exactly what the
// transaction cost. A card without a voucher is answered 402, and redeem says to carry one; the
// used voucher (its file, with --voucher) is refused VOUCHER_USED with its reason, nothing sent.
func TestRedeemWithASponsorsVoucher(t *testing.T) {
	c := devchaintest.Start(t)
	manifest := filepath.Join(t.TempDir(), "devnet.json")
	if err := c.WriteManifest(manifest); err != nil {
		t.Fatal(err)
	}
	const admin = "an admin key for the tests"
	env := devstack.RelayerEnv(c, "../../gen/zk/devkeys/verification_key.json", filepath.Join(t.TempDir(), "relayer.db"))
	env["RELAYER_FUNDING"], env["ADMIN_API_KEY"] = "sponsor", admin
	cfg, err := relayer.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc, err := relayer.New(ctx, cfg, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := edgetest.Serve(t, svc.Handler(), svc.Start, svc.Close)
	api, err := relayerapi.NewClientWithResponses(url)
	if err != nil {
		t.Fatal(err)
	}
	asAdmin := func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+admin)
		return nil
	}
	signer, _ := crypto.GenerateKey()
	signerFile := filepath.Join(t.TempDir(), "voucher.key")
	if err := os.WriteFile(signerFile, []byte(hex.EncodeToString(crypto.FromECDSA(signer))), 0o600); err != nil {
		t.Fatal(err)
	}
	signerAddr := crypto.PubkeyToAddress(signer.PublicKey).Hex()
	created, err := api.CreateSponsorWithResponse(ctx, relayerapi.SponsorRequest{Name: "Card Issuer Ltd", VoucherSigner: &signerAddr}, asAdmin)
	if err != nil || created.JSON201 == nil {
		t.Fatalf("create a sponsor: %v", err)
	}
	sp := created.JSON201.Sponsor
	if r, err := api.CreditSponsorWithResponse(ctx, sp.Id, nil, relayerapi.SponsorCredit{Amount: "1000000000000000000"}, asAdmin); err != nil || r.JSON200 == nil {
		t.Fatalf("credit: %v", err)
	}

	token := c.Tokens[0].Address
	dir := t.TempDir()
	voucherFile, png := filepath.Join(dir, "card.voucher.json"), filepath.Join(dir, "card.png")
	var out, errOut bytes.Buffer
	create := func(extra ...string) string {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if err := run(ctx, append([]string{"create", "--devnet", manifest, "--token", token.Hex(), "--amount", "1000", "--url", "https://app.example/redeem"}, extra...), &out, &errOut); err != nil {
			t.Fatalf("create %v: %v (%s)", extra, err, errOut.String())
		}
		return strings.TrimSpace(out.String())
	}
	link := create("--qr", png, "--voucher", voucherFile, "--sponsor", sp.Id, "--voucher-key", signerFile, "--allowance", "500000000000000000")
	t.Logf("card create --voucher --qr: %s", errOut.String())
	var written relayerapi.Voucher
	if data, err := os.ReadFile(voucherFile); err != nil || json.Unmarshal(data, &written) != nil {
		t.Fatalf("the voucher's file: %v", err)
	}
	c0, err := card.ReadLink(link, card.Home{ChainID: c.ChainID, Vault: c.Contracts.Vault})
	if err != nil {
		t.Fatal(err)
	}
	if carried := voucher.OfCard(c0); carried == nil || *carried != written || !strings.Contains(link, "&amount=1000&voucher=") {
		t.Fatalf("the link %s carries %+v, the file %+v", link, carried, written)
	}
	checkQR(t, png, link)
	plain := create() // no voucher: none in the link
	if strings.Contains(plain, "voucher") {
		t.Fatalf("a card without a voucher: %s", plain)
	}

	key, _ := crypto.GenerateKey()
	recipient := crypto.PubkeyToAddress(key.PublicKey)
	redeem := func(secret string, extra ...string) error {
		out.Reset()
		errOut.Reset()
		return run(ctx, append([]string{"redeem", "--devnet", manifest, "--secret", secret, "--recipient", recipient.Hex(), "--relayer", url}, extra...), &out, &errOut)
	}
	if err := redeem(plain); err == nil || !strings.Contains(err.Error(), "--voucher") {
		t.Fatalf("no voucher where sponsors pay: %v (%s)", err, out.String())
	}
	if err := redeem(link); err != nil { // the link's voucher, without --voucher
		t.Fatalf("redeem of the link carrying a voucher: %v (%s %s)", err, out.String(), errOut.String())
	}
	var res relayerapi.RevealResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("the relayer's answer %s: %v", out.String(), err)
	}
	if got := tokenBalanceOf(t, c, token, recipient); got.Cmp(big.NewInt(1000)) != 0 {
		t.Fatalf("the recipient holds %s, want the whole card", got)
	}
	receipt, err := c.Client().TransactionReceipt(ctx, common.HexToHash(res.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	cost := new(big.Int).Mul(new(big.Int).SetUint64(receipt.GasUsed), receipt.EffectiveGasPrice)
	list, err := api.ListSponsorsWithResponse(ctx, asAdmin)
	if err != nil || list.JSON200 == nil || list.JSON200.Sponsors[0].RevealsPaid != 1 || list.JSON200.Sponsors[0].Debited != cost.String() {
		t.Fatalf("the sponsor after the voucher's reveal: %v %s, want debited %s", err, list.Body, cost)
	}
	if err := redeem(plain, "--voucher", voucherFile); err == nil || !strings.Contains(err.Error(), "VOUCHER_INVALID") {
		t.Fatalf("the card's voucher with another card's reveal: %v (%s)", err, out.String())
	}
	if got := tokenBalanceOf(t, c, token, recipient); got.Cmp(big.NewInt(1000)) != 0 {
		t.Fatalf("the recipient holds %s after the refusal", got)
	}
}

// checkQR checks that Debian's zbarimg decodes the QR code in png to link (logged and skipped
// where zbar-tools is not installed; .ci/run installs it).
func checkQR(t *testing.T, png, link string) {
	t.Helper()
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		t.Log("zbarimg not installed (Debian's zbar-tools; .ci/run installs it): the QR code was not decoded")
		return
	}
	// QR codes only: zbar's other symbologies can read a false barcode in a dense QR code's modules.
	decoded, err := exec.Command(zbar, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png).Output()
	if err != nil || strings.TrimSpace(string(decoded)) != link {
		t.Fatalf("zbarimg read %q (%v), want the link", decoded, err)
	}
}
