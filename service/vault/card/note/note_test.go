package note_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/vault/card/note"
	"github.com/seed018cc74c/vaultd/service/vault/typeddata"
	"github.com/seed018cc74c/vaultd/service/vault/voucher"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

func devKeys(t testing.TB) *zk.Keys {
	k, err := zk.DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sample is a card of 1000 whose leaf is the second of a tree of two.
func sample(t testing.TB) (note.Card, *zk.Tree) {
	c := note.Card{ChainID: 1337, Vault: common.HexToAddress("0x29dEEd3d79E960c46d881EDdDd24C5Dd7DF609E2"),
		Token: common.HexToAddress("0x2D66D37637CE3979e9D15B91221e77fbbc827d5a"), Amount: big.NewInt(1000)}
	var err error
	if c.Secret, c.NullifierSecret, err = note.NewSecrets(); err != nil {
		t.Fatal(err)
	}
	n, err := c.Note()
	if err != nil {
		t.Fatal(err)
	}
	var tree zk.Tree
	tree.Append(big.NewInt(1))
	tree.Append(n.Leaf())
	return c, &tree
}

// A partial reveal makes a change card of what is left, with secrets of its own, whose leaf is
// the proof's change commitment; its string reads back as itself; the proof verifies.
func TestPartialRevealMakesTheChangeCard(t *testing.T) {
	keys := devKeys(t)
	c, tree := sample(t)
	recipient := common.HexToAddress("0x1111111111111111111111111111111111111111")
	req, change, err := note.ProveFrom(keys, c, tree, recipient, big.NewInt(400))
	if err != nil {
		t.Fatal(err)
	}
	if change == nil || change.Amount.Int64() != 600 || change.Secret.Cmp(c.Secret) == 0 || change.Token != c.Token {
		t.Fatalf("change card %+v", change)
	}
	again, err := note.Parse(change.String())
	if err != nil || again.String() != change.String() {
		t.Fatalf("the change card does not read back: %v", err)
	}
	cn, _ := change.Note()
	signals, err := zk.ParseSignals(req.PublicSignals)
	if err != nil {
		t.Fatal(err)
	}
	if signals[zk.SignalChangeCommitment].Cmp(cn.Leaf()) != 0 || req.Amount != "400" {
		t.Fatalf("signals %v, amount %s", signals, req.Amount)
	}
	proof, err := zk.ParseProof(req.Proof)
	if err != nil {
		t.Fatal(err)
	}
	if err := zk.Verify(keys.VerificationKey(), proof, signals[:]); err != nil {
		t.Fatal(err)
	}
	if _, _, err := note.ProveFrom(keys, c, &zk.Tree{}, recipient, nil); err != note.ErrUnknownCard {
		t.Fatalf("a card not in the tree: %v", err)
	}
}

// BenchmarkProveFrom is the native prover's time for a full reveal, the figure the browser's
// (web/example, .ci/browser-test) is compared with.
func BenchmarkProveFrom(b *testing.B) {
	keys := devKeys(b)
	c, tree := sample(b)
	recipient := common.HexToAddress("0x1111111111111111111111111111111111111111")
	for b.Loop() {
		if _, _, err := note.ProveFrom(keys, c, tree, recipient, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The shared vectors of testdata/links.json (web/client's tests read them too): each link or
// card string reads as its card, or fails with its problem; a card renders as its link, and the
// link reads back as the card; its public nullifier and its leaf are the ones a page computes
// without the prover (web/client's readCard), to ask the vault whether it is spent and the
// indexer for the tree while the prover downloads.
func TestCardLinks(t *testing.T) {
	data, err := os.ReadFile("testdata/links.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Home struct {
			ChainID uint64 `json:"chainId"`
			Vault   string
		}
		Base          string
		VoucherSigner string
		Cases         []struct {
			Name, Input, Problem string
			Home                 bool
			Want                 *struct {
				ChainID                    uint64 `json:"chainId"`
				Vault, Token, Amount, Card string
				Link, Nullifier, Leaf      string
				Voucher                    *relayerapi.Voucher
			}
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	home := note.Home{ChainID: doc.Home.ChainID, Vault: common.HexToAddress(doc.Home.Vault)}
	for _, c := range doc.Cases {
		h := note.Home{}
		if c.Home {
			h = home
		}
		got, err := note.ReadLink(c.Input, h)
		if c.Want == nil {
			var le *note.LinkError
			if !errors.As(err, &le) || le.Problem != note.Problem(c.Problem) {
				t.Errorf("%s: %v, want the problem %q", c.Name, err, c.Problem)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if got.String() != c.Want.Card || got.ChainID != c.Want.ChainID || got.Vault.Hex() != c.Want.Vault || got.Token.Hex() != c.Want.Token || got.Amount.String() != c.Want.Amount {
			t.Errorf("%s: read %s, want %s", c.Name, got, c.Want.Card)
		}
		if n := fmt.Sprintf("0x%064x", zk.Nullifier(got.NullifierSecret)); n != c.Want.Nullifier {
			t.Errorf("%s: the nullifier is %s, want %s", c.Name, n, c.Want.Nullifier)
		}
		if n, err := got.Note(); err != nil || fmt.Sprintf("0x%064x", n.Leaf()) != c.Want.Leaf {
			t.Errorf("%s: the leaf is %v (%v), want %s", c.Name, n.Leaf(), err, c.Want.Leaf)
		}
		if link := got.Link(doc.Base, home); link != c.Want.Link {
			t.Errorf("%s: the link is %s, want %s", c.Name, link, c.Want.Link)
		}
		if again, err := note.ReadLink(got.Link(doc.Base, home), home); err != nil || again.String() != got.String() {
			t.Errorf("%s: the link does not read back: %v", c.Name, err)
		}
		v := voucher.OfCard(got)
		if (v == nil) != (c.Want.Voucher == nil) || v != nil && *v != *c.Want.Voucher {
			t.Errorf("%s: the voucher is %+v, want %+v", c.Name, v, c.Want.Voucher)
			continue
		}
		if v != nil { // signed by the sponsor's signer over these terms, its id the card's nullifier
			allowance, _ := new(big.Int).SetString(v.Allowance, 10)
			sig, err := typeddata.Signature(v.Signature)
			if err != nil {
				t.Fatal(err)
			}
			digest, err := voucher.Digest(got.ChainID, got.Vault, voucher.Terms{Sponsor: v.Sponsor, Allowance: allowance, ExpiresAt: v.ExpiresAt, ID: common.HexToHash(c.Want.Nullifier)})
			if err != nil {
				t.Fatal(err)
			}
			if signer, err := typeddata.Signer(digest, sig); err != nil || signer.Hex() != doc.VoucherSigner {
				t.Errorf("%s: the voucher's signer is %s (%v), want %s", c.Name, signer.Hex(), err, doc.VoucherSigner)
			}
		}
	}
}

// A voucher the card's field cannot hold is refused when put in the card, and the card is left
// without one: a sponsor that is not sp_ and 32 hex digits, no allowance, an expiry beyond the
// field's 5 bytes, a signature with v not 27 or 28 or with a high s (EIP-2098 keeps v in s's top
// bit, free only for a low s, as go-ethereum signs).
func TestWithVoucherRefusesWhatTheCardCannotHold(t *testing.T) {
	c, _ := sample(t)
	sig := make([]byte, 65)
	sig[0], sig[32], sig[64] = 1, 1, 27
	good := note.Voucher{Sponsor: "sp_0123456789abcdef0123456789abcdef", Allowance: big.NewInt(1), ExpiresAt: 1893456000, Signature: sig}
	if got, err := c.WithVoucher(good); err != nil || got.Voucher() == nil || c.Voucher() != nil {
		t.Fatalf("a good voucher: %v", err)
	}
	highS := append([]byte(nil), sig...)
	highS[32] = 0x80
	v29 := append([]byte(nil), sig...)
	v29[64] = 29
	for name, change := range map[string]func(*note.Voucher){
		"sponsor":  func(v *note.Voucher) { v.Sponsor = "sp_0123456789ABCDEF0123456789abcdef" },
		"no allow": func(v *note.Voucher) { v.Allowance = big.NewInt(0) },
		"expiry":   func(v *note.Voucher) { v.ExpiresAt = 1 << 40 },
		"high s":   func(v *note.Voucher) { v.Signature = highS },
		"v 29":     func(v *note.Voucher) { v.Signature = v29 },
		"short":    func(v *note.Voucher) { v.Signature = sig[:64] },
	} {
		v := good
		change(&v)
		if got, err := c.WithVoucher(v); err == nil || got.Voucher() != nil {
			t.Errorf("%s: %v, carried %v", name, err, got.Voucher())
		}
	}
}
