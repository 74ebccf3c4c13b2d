package faucet_test

import (
	"fmt"
	"math/big"
	"testing"

	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/localkms"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
)

// The faucet's wallet is a key in KMS (Local KMS, a real process): it pays claims on the dev
// chain. Through a KMS that is slow beyond KMS_TIMEOUT, answers 500s, or loses its answer after
// signing, every claim is paid exactly once: a claim whose signing failed is refused (502, nothing
// recorded) and is paid when claimed again; the wallet's nonces stay gap-free (each payment takes
// the next one, no filler), and each paid address holds its amount once.
func TestFaucetPaysFromAKMSKeyThroughKMSFaults(t *testing.T) {
	srv := localkms.Start(t)
	keyID := srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)
	faults := localkms.StartFaults(t, srv.URL)
	localkms.Setenv(t, faults.URL)
	c := devchaintest.Start(t)
	signers, err := kmssigner.Open(ctx, []string{keyID}, 0)
	if err != nil {
		t.Fatal(err)
	}
	wallet := signers[0].Address()
	fund(t, c, c.Accounts.Deployer.Key, wallet, new(big.Int).Mul(big.NewInt(100), big.NewInt(params.Ether)))
	s := startFaucet(t, c, t.TempDir(), map[string]string{"FAUCET_PRIVATE_KEY": "", "FAUCET_KMS_KEY_ID": keyID,
		"KMS_TIMEOUT": "300ms", "FAUCET_AMOUNT": "1", "MIN_FAUCET_BALANCE": "1"})
	if got := health(t, s).Faucet; got != wallet.Hex() {
		t.Fatalf("the faucet's wallet is %s, want the KMS key's %s", got, wallet.Hex())
	}
	one := big.NewInt(params.Ether)
	var want uint64 // the wallet's next nonce
	paid := func(what string, addr common.Address) {
		t.Helper()
		got := waitStatus(t, s, addr, faucetapi.ClaimStatusConfirmed)
		tx, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*got.TxHash))
		if err != nil || tx.Nonce() != want {
			t.Fatalf("%s: the claim's transaction %v (%v) is not at nonce %d", what, tx, err, want)
		}
		want++
		if b := balance(t, c, addr); b.Cmp(one) != 0 {
			t.Fatalf("%s: balance %s, want one payment of %s", what, b, one)
		}
		if n := nonce(t, c, wallet); n != want {
			t.Fatalf("%s: the wallet's nonce is %d, want %d (a gap, or a second transaction)", what, n, want)
		}
	}

	addr := freshAddress(t)
	if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
		t.Fatalf("claim: %d %s", r.StatusCode(), r.Body)
	}
	paid("a claim", addr)

	// The SDK retries a 500 and a lost answer: the claim is paid at once. A lost answer means KMS
	// signed the same transaction twice; only one of the two is ever used.
	for _, fault := range []localkms.Fault{localkms.InternalError, localkms.Lost} {
		addr := freshAddress(t)
		faults.Fail(fault)
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim through a %s: %d %s", fault, r.StatusCode(), r.Body)
		}
		paid("a claim through a "+string(fault), addr)
	}
	if _, most := faults.Signed(); most != 2 {
		t.Fatalf("the digest signed most often was signed %d times; want 2 (the lost answer's retry)", most)
	}

	// Beyond the SDK's retries, or slower than KMS_TIMEOUT: refused, nothing recorded or sent;
	// claimed again once KMS is well, paid at the nonce the failed one would have taken.
	for _, fault := range [][]localkms.Fault{{localkms.Slow}, {localkms.InternalError, localkms.InternalError, localkms.InternalError}, {localkms.Lost, localkms.Lost, localkms.Lost}} {
		addr := freshAddress(t)
		faults.Fail(fault...)
		r := claim(t, s, addr.Hex())
		wantError(t, "claim through "+fmt.Sprint(fault), r.StatusCode(), r.Body, 502, "CHAIN_UNAVAILABLE")
		if st := status(t, s, addr.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusNone {
			t.Fatalf("after a failed signing: %d %s", st.StatusCode(), st.Body)
		}
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim again after %v: %d %s", fault, r.StatusCode(), r.Body)
		}
		paid("a claim again after "+fmt.Sprint(fault), addr)
	}
	calls, _ := faults.Signed()
	t.Logf("%d payments, %d Sign calls reached KMS", want, calls)
}
