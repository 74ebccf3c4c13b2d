package kmssigner_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/seed018cc74c/vaultd/service/dev/localkms"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
)

// Signatures from a KMS key (Local KMS, whose ECDSA is Go's, randomized like AWS's) verify, have
// a low s, and recover to the address GetPublicKey gave, over enough signings that both
// recovery ids occur, and KMS answers a high s about half the time (normalized here).
func TestSignsLikeAnEthereumKey(t *testing.T) {
	srv := localkms.Start(t)
	ctx := context.Background()
	api := localkms.Client(srv.URL)
	s, err := kmssigner.New(ctx, api, srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1), 0)
	if err != nil {
		t.Fatal(err)
	}
	chainID := big.NewInt(1337)
	signer := types.LatestSignerForChainID(chainID)
	halfN := new(big.Int).Rsh(crypto.S256().Params().N, 1)
	v := map[uint64]int{}
	const n = 40 // both ids come up in 40 with a chance of 1 − 2^-39
	for i := range n {
		to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		tx, err := s.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: uint64(i), GasTipCap: big.NewInt(1),
			GasFeeCap: big.NewInt(2), Gas: 21000, To: &to, Value: big.NewInt(int64(i))}), chainID)
		if err != nil {
			t.Fatal(err)
		}
		from, err := types.Sender(signer, tx) // rejects a high s as go-ethereum's pool does
		if err != nil || from != s.Address() {
			t.Fatalf("signing %d: sender %s, %v; want %s", i, from.Hex(), err, s.Address().Hex())
		}
		rv, _, ss := tx.RawSignatureValues()
		if ss.Cmp(halfN) > 0 {
			t.Fatalf("signing %d: s above N/2", i)
		}
		v[rv.Uint64()]++
	}
	if v[0] == 0 || v[1] == 0 || v[0]+v[1] != n {
		t.Fatalf("recovery ids %v over %d signings; want both 0 and 1", v, n)
	}
}

// A KMS key of another spec, or a name KMS does not know, is refused at start with a clear error.
func TestRefusesKeysThatAreNotSecp256k1(t *testing.T) {
	srv := localkms.Start(t)
	api := localkms.Client(srv.URL)
	_, err := kmssigner.New(context.Background(), api, srv.CreateKey(t, kmstypes.KeySpecEccNistP256), 0)
	if err == nil || !strings.Contains(err.Error(), "ECC_NIST_P256 key; an Ethereum wallet needs ECC_SECG_P256K1") {
		t.Fatalf("a P-256 key: %v", err)
	}
	if _, err := kmssigner.New(context.Background(), api, "alias/none", 0); err == nil || !strings.Contains(err.Error(), "read its public key") {
		t.Fatalf("an unknown key: %v", err)
	}
}
