// Package note is the part of the card flow that needs no chain: a card's string format and
// secrets, and proving its reveal against the commitment tree's leaves. It depends on nothing
// heavier than the circuit (service/vault/zk), so the browser prover (cmd/proverwasm) is built on it
// alone; service/vault/card adds the chain.
package note

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"net/url"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/address"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Scheme opens every card string.
const Scheme = "vaultd-card"

// Card is what a sender hands over: which deposit, and the secrets that spend it.
type Card struct {
	ChainID         uint64
	Vault           common.Address
	Token           common.Address
	Amount          *big.Int
	Secret          *big.Int
	NullifierSecret *big.Int
}

// String renders the card as
// vaultd-card:v1?chain=1337&vault=0x…&token=0x…&amount=…&secret=0x…&nullifier=0x…
func (c Card) String() string {
	q := url.Values{}
	q.Set("chain", strconv.FormatUint(c.ChainID, 10))
	q.Set("vault", c.Vault.Hex())
	q.Set("token", c.Token.Hex())
	q.Set("amount", c.Amount.String())
	q.Set("secret", fmt.Sprintf("0x%064x", c.Secret))
	q.Set("nullifier", fmt.Sprintf("0x%064x", c.NullifierSecret))
	return Scheme + ":v1?" + q.Encode()
}

// Parse reads a card string.
func Parse(s string) (Card, error) {
	var c Card
	u, err := url.Parse(s)
	if err != nil || u.Scheme != Scheme || u.Opaque != "v1" {
		return c, fmt.Errorf("not a vaultd card (want %s:v1?…)", Scheme)
	}
	q := u.Query()
	if c.ChainID, err = strconv.ParseUint(q.Get("chain"), 10, 64); err != nil {
		return c, fmt.Errorf("card: bad chain id")
	}
	if c.Vault, err = address.Parse(q.Get("vault")); err != nil {
		return c, fmt.Errorf("card: vault: %w", err)
	}
	if c.Token, err = address.Parse(q.Get("token")); err != nil {
		return c, fmt.Errorf("card: token: %w", err)
	}
	var ok bool
	if c.Amount, ok = new(big.Int).SetString(q.Get("amount"), 10); !ok || c.Amount.Sign() <= 0 || c.Amount.Cmp(zk.MaxAmount) > 0 {
		return c, fmt.Errorf("card: bad amount")
	}
	for name, dst := range map[string]**big.Int{"secret": &c.Secret, "nullifier": &c.NullifierSecret} {
		v, ok := new(big.Int).SetString(q.Get(name), 0)
		if !ok || v.Sign() <= 0 || v.Cmp(zk.ScalarField) >= 0 {
			return c, fmt.Errorf("card: bad %s", name)
		}
		*dst = v
	}
	return c, nil
}

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
