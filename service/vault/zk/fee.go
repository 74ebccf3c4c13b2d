package zk

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/crypto/keccak"

	"github.com/seed018cc74c/vaultd/service/kit/address"
)

// Fee is the part of a reveal paid to whoever relays it (the vault's revealWithFee): Amount of
// the revealed tokens to Receiver, the rest to the recipient.
type Fee struct {
	Amount   *big.Int
	Receiver address.Address
}

// FeeBinding is the signal [3] of a reveal that pays fee: keccak256 of abi.encode(recipient,
// fee.Amount, fee.Receiver) reduced into the scalar field, as the vault's feeBinding computes it.
// The proof fixes the binding, so it fixes the recipient, the fee and its receiver together.
func FeeBinding(recipient address.Address, fee Fee) *big.Int {
	var word [32]byte
	h := keccak.NewLegacyKeccak256()
	h.Write(addressWord(recipient))
	fee.Amount.FillBytes(word[:])
	h.Write(word[:])
	h.Write(addressWord(fee.Receiver))
	return new(big.Int).Mod(new(big.Int).SetBytes(h.Sum(nil)), ScalarField)
}

// addressWord is a as abi.encode writes it: a 32-byte word, the address in its low 20 bytes.
func addressWord(a address.Address) []byte {
	var word [32]byte
	copy(word[12:], a.Bytes())
	return word[:]
}

// check refuses a fee the vault would refuse for a reveal of amount: none, all of it, or paid to
// the zero address.
func (f Fee) check(amount *big.Int) error {
	if f.Amount == nil || f.Amount.Sign() <= 0 || f.Amount.Cmp(amount) >= 0 {
		return fmt.Errorf("a fee must be more than zero and less than the amount revealed (%s)", amount)
	}
	if f.Receiver == (address.Address{}) {
		return fmt.Errorf("a fee needs a receiver other than the zero address")
	}
	return nil
}
