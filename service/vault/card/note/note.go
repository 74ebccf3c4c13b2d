// Package note is the part of the card flow that needs no chain: a card's string format and
// secrets, and proving its reveal against the commitment tree's leaves. It depends on nothing
// heavier than the circuit (service/vault/zk), so the browser prover (cmd/proverwasm) is built on it
// alone; service/vault/card adds the chain.
package note

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"strings"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Scheme opens every card string.
const Scheme = "vaultd-card"

// Card is what a sender hands over: which deposit, and the secrets that spend it.
type Card struct {
	ChainID         uint64
	Vault           address.Address
	Token           address.Address
	Amount          *big.Int
	Secret          *big.Int
	NullifierSecret *big.Int
	voucher         *Voucher // a sponsor's voucher for its reveal (WithVoucher), or nil
}

// String renders the card as
// vaultd-card:v1?chain=1337&vault=0x…&token=0x…&amount=…&voucher=…&secret=0x…&nullifier=0x…,
// in that order (a reader takes them in any; voucher only for a card that carries one): the
// secrets last, so that a string cut short loses a secret's digits, which ReadLink tells from a
// card that means to leave something out.
func (c Card) String() string { return c.render(Home{}) }

// render is String leaving out the chain and the vault where they are home's.
func (c Card) render(home Home) string {
	var b strings.Builder
	b.WriteString(Scheme + ":v1?")
	if c.ChainID != home.ChainID {
		fmt.Fprintf(&b, "chain=%d&", c.ChainID)
	}
	if c.Vault != home.Vault {
		fmt.Fprintf(&b, "vault=%s&", c.Vault.Hex())
	}
	fmt.Fprintf(&b, "token=%s&amount=%s&", c.Token.Hex(), c.Amount)
	if c.voucher != nil {
		v, _ := c.voucher.text() // WithVoucher checked it
		fmt.Fprintf(&b, "voucher=%s&", v)
	}
	fmt.Fprintf(&b, "secret=0x%064x&nullifier=0x%064x", c.Secret, c.NullifierSecret)
	return b.String()
}

// Parse reads a card string, or a link holding a whole one (ReadLink with no home).
func Parse(s string) (Card, error) { return ReadLink(s, Home{}) }

// Note is the card's note in the circuit's terms.
func (c Card) Note() (zk.Note, error) {
	id, err := tokenid.Compute(c.Token, c.ChainID)
	if err != nil {
		return zk.Note{}, err
	}
	return zk.Note{Secret: c.Secret, NullifierSecret: c.NullifierSecret, Value: c.Amount, TokenID: id}, nil
}

// NewSecrets draws a note's two secrets.
func NewSecrets() (secret, nullifierSecret *big.Int, err error) {
	if secret, err = randomScalar(); err != nil {
		return nil, nil, err
	}
	nullifierSecret, err = randomScalar()
	return secret, nullifierSecret, err
}

func randomScalar() (*big.Int, error) {
	for {
		v, err := rand.Int(rand.Reader, zk.ScalarField)
		if err != nil {
			return nil, err
		}
		if v.Sign() > 0 {
			return v, nil
		}
	}
}
