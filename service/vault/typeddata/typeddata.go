// Package typeddata is the EIP-712 typed data the relayer signs and checks (its fee quotes,
// sponsors' vouchers): one domain, {name: "vaultd relayer", version: "1", chainId, the vault},
// so that what is signed for one chain's vault is good for it alone; a message's digest in it;
// and signatures as Ethereum wallets write them, r ‖ s ‖ v with v 27 or 28, in hex.
package typeddata

import (
	"crypto/ecdsa"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// The domain's name and version.
const (
	Name    = "vaultd relayer"
	Version = "1"
)

var domainType = crypto.Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))

// Digest is what a message's signature signs: keccak256(0x1901 ‖ domainSeparator ‖ structHash),
// the domain being chainID's vault.
func Digest(chainID uint64, vault common.Address, structHash []byte) []byte {
	domain := crypto.Keccak256(domainType, crypto.Keccak256([]byte(Name)), crypto.Keccak256([]byte(Version)),
		Uint64(chainID), common.LeftPadBytes(vault.Bytes(), 32))
	return crypto.Keccak256([]byte{0x19, 0x01}, domain, structHash)
}

// ErrNotUint256 is an integer no uint256 holds: negative, 2^256 or more, or none (nil).
var ErrNotUint256 = errors.New("not a uint256 (negative, or 2^256 or more)")

// Word is v as a uint256 word: 32 bytes, big-endian. A v that is no uint256 is refused
// (ErrNotUint256) rather than encoded: its magnitude alone (what big.Int.Bytes gives) would sign
// -5 as 5, and its low 256 bits 2^256 as 0.
func Word(v *big.Int) ([]byte, error) {
	if v == nil || v.Sign() < 0 || v.BitLen() > 256 {
		return nil, ErrNotUint256
	}
	return common.LeftPadBytes(v.Bytes(), 32), nil
}

// Uint64 is v as a uint256 word (any uint64 is one).
func Uint64(v uint64) []byte { return common.LeftPadBytes(new(big.Int).SetUint64(v).Bytes(), 32) }

// Sign signs digest with key: r ‖ s ‖ v in hex, v 27 or 28.
func Sign(key *ecdsa.PrivateKey, digest []byte) (string, error) {
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		return "", err
	}
	sig[64] += 27
	return hexutil.Encode(sig), nil
}

// ErrBadSignature is a signature that is not r ‖ s ‖ v in hex with v 27 or 28.
var ErrBadSignature = errors.New("the signature is not r ‖ s ‖ v with v 27 or 28")

// ErrHighS is a signature whose s is above half the curve's order: the mirror (n − s, the other
// v) of a signature over the same digest by the same key, which Ethereum refuses since Homestead
// (EIP-2) so that one signed message has one signature.
var ErrHighS = errors.New("the signature's s is above half the secp256k1 order: sign it again with a library writing low-s signatures (EIP-2), as every Ethereum wallet does")

// Signature reads a signature Sign wrote (ErrBadSignature otherwise; ErrHighS for a valid one's
// malleable mirror).
func Signature(s string) ([]byte, error) {
	sig, err := hexutil.Decode(s)
	if err != nil || len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		return nil, ErrBadSignature
	}
	sig[64] -= 27
	if !crypto.ValidateSignatureValues(sig[64], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64]), true) {
		if new(big.Int).SetBytes(sig[32:64]).Cmp(halfOrder) > 0 {
			return nil, ErrHighS
		}
		return nil, ErrBadSignature
	}
	return sig, nil
}

// halfOrder is half the secp256k1 group's order, n/2 rounded down.
var halfOrder = new(big.Int).Rsh(crypto.S256().Params().N, 1)

// Signer is the address whose key made sig (as Signature read it) over digest.
func Signer(digest, sig []byte) (common.Address, error) {
	pub, err := crypto.SigToPub(digest, sig)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.PubkeyToAddress(*pub), nil
}
