package note

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Voucher is a relayer sponsor's voucher as a card carries it (docs/cards.md, "A sponsor's
// voucher"): the sponsor's promise to pay for the card's reveal, up to Allowance wei, until
// ExpiresAt, signed by its voucher signer. Its id is not carried: it is the card's public
// nullifier (Card.VoucherID), which the reveal sends anyway. Card.WithVoucher puts one in a
// card; package service/vault/voucher signs one and turns it into the relayer's form.
type Voucher struct {
	Sponsor   string   // the sponsor's id: sp_ and 32 hex digits
	Allowance *big.Int // wei, positive
	ExpiresAt int64    // unix seconds
	Signature []byte   // r ‖ s ‖ v, 65 bytes, v 27 or 28 (as the relayer takes it)
}

// VoucherID is the id a voucher carried by c is signed with: c's public nullifier, 32 bytes.
func (c Card) VoucherID() [32]byte {
	var id [32]byte
	zk.Nullifier(c.NullifierSecret).FillBytes(id[:])
	return id
}

// The voucher field is base64url (no padding) of
//
//	sponsor (16 bytes: its id's hex digits) ‖ expiresAt (5 bytes, big-endian) ‖
//	r ‖ s with v in s's top bit (64 bytes, EIP-2098's compact signature) ‖ allowance (the rest: 1 to 32 bytes, big-endian)
//
// 85 bytes and the allowance's: 124 characters for an allowance below 2^64 wei (18.4 native
// tokens), where the relayer's JSON takes 290. Binary rather than decimal and hex, and no id:
// each character is a byte of the QR code, and the id's 43 characters are a QR version.
const voucherFixed = 16 + 5 + 64

// isSponsorID reports whether s is a sponsor's id: sp_ and 32 lower-case hex digits.
func isSponsorID(s string) bool {
	if len(s) != 35 || s[:3] != "sp_" {
		return false
	}
	for _, c := range []byte(s[3:]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// WithVoucher is c carrying v (a copy), which its string and link then hold; an error for a
// voucher the field cannot hold (a sponsor that is not sp_ and 32 hex digits, an allowance not
// positive, a signature not r ‖ s ‖ v with a low s, as go-ethereum signs).
func (c Card) WithVoucher(v Voucher) (Card, error) {
	if _, err := v.text(); err != nil {
		return c, err
	}
	v.Allowance = new(big.Int).Set(v.Allowance)
	v.Signature = append([]byte(nil), v.Signature...)
	c.voucher = &v
	return c, nil
}

// Voucher is the sponsor's voucher c carries, or nil.
func (c Card) Voucher() *Voucher {
	if c.voucher == nil {
		return nil
	}
	v := *c.voucher
	return &v
}

// text is v as the card's voucher field.
func (v *Voucher) text() (string, error) {
	if !isSponsorID(v.Sponsor) {
		return "", fmt.Errorf("voucher: the sponsor %q is not sp_ and 32 hex digits", v.Sponsor)
	}
	if v.Allowance == nil || v.Allowance.Sign() <= 0 || v.Allowance.BitLen() > 256 {
		return "", errors.New("voucher: the allowance must be a positive number of wei below 2^256")
	}
	if v.ExpiresAt < 0 || v.ExpiresAt >= 1<<40 {
		return "", errors.New("voucher: its expiry is out of range")
	}
	if len(v.Signature) != 65 || (v.Signature[64] != 27 && v.Signature[64] != 28) || v.Signature[32]&0x80 != 0 {
		return "", errors.New("voucher: the signature is not r ‖ s ‖ v with a low s and v 27 or 28")
	}
	b := make([]byte, 0, voucherFixed+32)
	sp, _ := hex.DecodeString(v.Sponsor[3:])
	b = append(b, sp...)
	var exp [8]byte
	binary.BigEndian.PutUint64(exp[:], uint64(v.ExpiresAt))
	b = append(b, exp[3:]...)
	b = append(b, v.Signature[:64]...)
	b[16+5+32] |= byte(v.Signature[64]-27) << 7
	b = append(b, v.Allowance.Bytes()...)
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// readVoucher reads a card's voucher field, or answers a *LinkError.
func readVoucher(s string) (*Voucher, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) <= voucherFixed || len(b) > voucherFixed+32 || b[voucherFixed] == 0 {
		return nil, problem(Malformed, "its sponsor's voucher does not read")
	}
	var exp [8]byte
	copy(exp[3:], b[16:21])
	sig := make([]byte, 65)
	copy(sig, b[21:85])
	sig[64] = 27 + sig[32]>>7
	sig[32] &= 0x7f
	return &Voucher{
		Sponsor:   "sp_" + hex.EncodeToString(b[:16]),
		ExpiresAt: int64(binary.BigEndian.Uint64(exp[:])),
		Signature: sig,
		Allowance: new(big.Int).SetBytes(b[voucherFixed:]),
	}, nil
}
