// Package kmssigner signs a wallet's transactions with a secp256k1 key that lives in AWS KMS
// (key spec ECC_SECG_P256K1, usage SIGN_VERIFY): the key never enters the process. It is a
// txmgr.Signer, so the transaction manager above it is the same as for a key held in memory.
//
// KMS signs the transaction's signing hash (MessageType DIGEST, ECDSA_SHA_256) and answers an
// ASN.1 DER (r, s). Ethereum wants s in the lower half of the curve's order (EIP-2) and a
// recovery id: s is normalized (N − s when above N/2), and the recovery id is the one of 0 and 1
// whose recovered key is the one GetPublicKey gave at start. KMS's ECDSA signatures are not
// deterministic: signing the same transaction twice gives two hashes, so nothing relies on
// signing again to get the same bytes (the manager records what it signed).
//
// AWS settings come from the AWS SDK's standard configuration: AWS_REGION, the credentials
// chain (environment, shared files, web identity, the instance's role), and AWS_ENDPOINT_URL_KMS
// (or AWS_ENDPOINT_URL) for another endpoint.
package kmssigner

import (
	"context"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// API is what the signer asks of KMS; *kms.Client is one.
type API interface {
	GetPublicKey(ctx context.Context, in *kms.GetPublicKeyInput, opts ...func(*kms.Options)) (*kms.GetPublicKeyOutput, error)
	Sign(ctx context.Context, in *kms.SignInput, opts ...func(*kms.Options)) (*kms.SignOutput, error)
}

var _ API = (*kms.Client)(nil)

// Signer signs with one KMS key.
type Signer struct {
	api     API
	keyID   string
	pub     []byte // the uncompressed public key, 65 bytes
	from    common.Address
	timeout time.Duration
}

var _ txmgr.Signer = (*Signer)(nil)

// DefaultTimeout bounds one signing (the SDK's retries included), and the public key's read.
const DefaultTimeout = 5 * time.Second

// Client makes a KMS client from the AWS SDK's standard configuration (the environment,
// shared files, the instance's role).
func Client(ctx context.Context) (*kms.Client, error) {
	cfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	return kms.NewFromConfig(cfg), nil
}

// New reads keyID's public key from KMS and returns its signer; a key that is not a secp256k1
// signing key is refused. timeout bounds each call to KMS (0: DefaultTimeout).
func New(ctx context.Context, api API, keyID string, timeout time.Duration) (*Signer, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := api.GetPublicKey(ctx, &kms.GetPublicKeyInput{KeyId: aws.String(keyID)})
	if err != nil {
		return nil, fmt.Errorf("KMS key %s: read its public key: %w", keyID, err)
	}
	if out.KeySpec != kmstypes.KeySpecEccSecgP256k1 {
		return nil, fmt.Errorf("KMS key %s is a %s key; an Ethereum wallet needs ECC_SECG_P256K1 (secp256k1)", keyID, out.KeySpec)
	}
	if out.KeyUsage != kmstypes.KeyUsageTypeSignVerify {
		return nil, fmt.Errorf("KMS key %s has usage %s; it must be SIGN_VERIFY", keyID, out.KeyUsage)
	}
	pub, err := secp256k1Point(out.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("KMS key %s: %w", keyID, err)
	}
	key, err := crypto.UnmarshalPubkey(pub)
	if err != nil {
		return nil, fmt.Errorf("KMS key %s: its public key is not a secp256k1 point: %w", keyID, err)
	}
	return &Signer{api: api, keyID: keyID, pub: pub, from: crypto.PubkeyToAddress(*key), timeout: timeout}, nil
}

// Address is the key's Ethereum address.
func (s *Signer) Address() common.Address { return s.from }

// KeyID is the key's id (or ARN, or alias) as it was given.
func (s *Signer) KeyID() string { return s.keyID }

// SignTx signs tx for chainID with the KMS key.
func (s *Signer) SignTx(ctx context.Context, tx *types.Transaction, chainID *big.Int) (*types.Transaction, error) {
	signer := types.LatestSignerForChainID(chainID)
	sig, err := s.SignHash(ctx, signer.Hash(tx).Bytes())
	if err != nil {
		return nil, err
	}
	return tx.WithSignature(signer, sig)
}

// SignHash signs a 32-byte hash and returns the 65-byte [R || S || V] signature Ethereum uses
// (V 0 or 1), with S in the lower half of the order.
func (s *Signer) SignHash(ctx context.Context, hash []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	out, err := s.api.Sign(ctx, &kms.SignInput{KeyId: aws.String(s.keyID), Message: hash,
		MessageType: kmstypes.MessageTypeDigest, SigningAlgorithm: kmstypes.SigningAlgorithmSpecEcdsaSha256})
	if err != nil {
		return nil, fmt.Errorf("KMS key %s: sign: %w", s.keyID, err)
	}
	sig, err := ethereumSignature(hash, out.Signature, s.pub)
	if err != nil {
		return nil, fmt.Errorf("KMS key %s: %w", s.keyID, err)
	}
	return sig, nil
}

var (
	order     = crypto.S256().Params().N
	halfOrder = new(big.Int).Rsh(order, 1)
)

// ethereumSignature turns KMS's DER (r, s) over hash into [R || S || V]: s made low, V the
// recovery id whose key is pub.
func ethereumSignature(hash, der, pub []byte) ([]byte, error) {
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) > 0 {
		return nil, errors.New("the signature is not an ASN.1 DER (r, s)")
	}
	if rs.R.Sign() <= 0 || rs.S.Sign() <= 0 || rs.R.Cmp(order) >= 0 || rs.S.Cmp(order) >= 0 {
		return nil, errors.New("the signature's r or s is out of range")
	}
	if rs.S.Cmp(halfOrder) > 0 { // (r, N − s) is as valid, and the only form Ethereum accepts
		rs.S = new(big.Int).Sub(order, rs.S)
	}
	sig := make([]byte, crypto.SignatureLength)
	rs.R.FillBytes(sig[:32])
	rs.S.FillBytes(sig[32:64])
	for v := byte(0); v < 2; v++ {
		sig[64] = v
		if got, err := crypto.Ecrecover(hash, sig); err == nil && string(got) == string(pub) {
			return sig, nil
		}
	}
	return nil, errors.New("the signature does not recover to the key's public key (not this key's signature?)")
}

// The identifiers of an elliptic-curve public key on secp256k1 in a SubjectPublicKeyInfo.
var (
	oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidSecp256k1   = asn1.ObjectIdentifier{1, 3, 132, 0, 10}
)

// secp256k1Point reads the uncompressed point out of a DER SubjectPublicKeyInfo (what
// GetPublicKey answers), which must be an EC key on secp256k1. crypto/x509 knows no secp256k1.
func secp256k1Point(der []byte) ([]byte, error) {
	var spki struct {
		Algorithm struct {
			Algorithm  asn1.ObjectIdentifier
			Parameters asn1.ObjectIdentifier
		}
		PublicKey asn1.BitString
	}
	if rest, err := asn1.Unmarshal(der, &spki); err != nil || len(rest) > 0 {
		return nil, errors.New("its public key is not a DER SubjectPublicKeyInfo of an elliptic-curve key")
	}
	if !spki.Algorithm.Algorithm.Equal(oidECPublicKey) || !spki.Algorithm.Parameters.Equal(oidSecp256k1) {
		return nil, fmt.Errorf("its public key is not on secp256k1 (algorithm %v, curve %v)", spki.Algorithm.Algorithm, spki.Algorithm.Parameters)
	}
	return spki.PublicKey.RightAlign(), nil
}

// EnvKeyID reads PREFIX_KMS_KEY_ID: one KMS key's id, ARN or alias; "" when unset.
func EnvKeyID(e *config.Env, prefix string) string {
	return strings.TrimSpace(e.String(prefix+"_KMS_KEY_ID", ""))
}

// EnvKeyIDs reads PREFIX_KMS_KEY_IDS: several KMS keys (ids, ARNs or aliases) separated by
// commas, for replicas that lease one each; nil when unset. A repeated key is refused.
func EnvKeyIDs(e *config.Env, prefix string) []string {
	var ids []string
	seen := map[string]bool{}
	for i, id := range strings.Split(e.String(prefix+"_KMS_KEY_IDS", ""), ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		if seen[id] {
			e.Fail("%s_KMS_KEY_IDS: key %d repeats an earlier key", prefix, i+1)
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids
}

// EnvTimeout reads KMS_TIMEOUT, how long one call to KMS may take, the SDK's retries included
// (default DefaultTimeout).
func EnvTimeout(e *config.Env) time.Duration {
	d := e.Duration("KMS_TIMEOUT", DefaultTimeout)
	if d <= 0 {
		e.Fail("KMS_TIMEOUT must be more than 0")
	}
	return d
}

// Open makes the signer of each key (the AWS SDK's standard configuration), reading their
// public keys: what a service does at start.
func Open(ctx context.Context, keyIDs []string, timeout time.Duration) ([]*Signer, error) {
	client, err := Client(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Signer, 0, len(keyIDs))
	seen := map[common.Address]string{}
	for _, id := range keyIDs {
		s, err := New(ctx, client, id, timeout)
		if err != nil {
			return nil, err
		}
		if earlier, ok := seen[s.Address()]; ok {
			return nil, fmt.Errorf("KMS keys %s and %s are the same key (address %s)", earlier, id, s.Address().Hex())
		}
		seen[s.Address()] = id
		out = append(out, s)
	}
	return out, nil
}
