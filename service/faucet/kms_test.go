package faucet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/localkms"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
)

// kmsFaults stands between the faucet and Local KMS and does to the next Sign calls what its
// faults say: a fake, for faults Local KMS cannot produce (an answer slower than the signer's
// timeout, a 500, an answer lost after KMS signed). Every other call passes. It counts the Sign
// calls that reached KMS, per digest.
type kmsFaults struct {
	proxy *httputil.ReverseProxy
	mu    sync.Mutex
	next  []string       // "slow", "500" or "lost", for the next Sign calls in turn
	signs map[string]int // Sign calls forwarded to KMS, by digest (base64)
}

func newKMSFaults(t testing.TB, target string) (*kmsFaults, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &kmsFaults{proxy: httputil.NewSingleHostReverseProxy(u), signs: map[string]int{}}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

func (p *kmsFaults) fail(faults ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = append(p.next, faults...)
}

func (p *kmsFaults) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.Header.Get("X-Amz-Target") != "TrentService.Sign" {
		p.proxy.ServeHTTP(w, r)
		return
	}
	var in struct{ Message string }
	_ = json.Unmarshal(body, &in)
	p.mu.Lock()
	fault := ""
	if len(p.next) > 0 {
		fault, p.next = p.next[0], p.next[1:]
	}
	if fault != "500" {
		p.signs[in.Message]++
	}
	p.mu.Unlock()
	switch fault {
	case "500":
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"__type":"KMSInternalException","message":"injected"}`))
	case "slow": // KMS signs and answers, after the signer stopped waiting
		time.Sleep(time.Second)
		p.proxy.ServeHTTP(w, r.WithContext(context.WithoutCancel(r.Context())))
	case "lost": // KMS signs, and the connection drops before its answer
		p.proxy.ServeHTTP(httptest.NewRecorder(), r)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	default:
		p.proxy.ServeHTTP(w, r)
	}
}

// signed is how many Sign calls reached KMS, and the most for one digest.
func (p *kmsFaults) signed() (calls, most int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.signs {
		calls += n
		most = max(most, n)
	}
	return calls, most
}

// The faucet's wallet is a key in KMS (Local KMS, a real process): it pays claims on the dev
// chain. Through a KMS that is slow beyond KMS_TIMEOUT, answers 500s, or loses its answer after
// signing, every claim is paid exactly once: a claim whose signing failed is refused (502, nothing
// recorded) and is paid when claimed again; the wallet's nonces stay gap-free (each payment takes
// the next one, no filler), and each paid address holds its amount once.
func TestFaucetPaysFromAKMSKeyThroughKMSFaults(t *testing.T) {
	srv := localkms.Start(t)
	keyID := srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)
	faults, proxyURL := newKMSFaults(t, srv.URL)
	for k, v := range localkms.Env(proxyURL) { // the AWS SDK's standard configuration reads the process's environment
		t.Setenv(k, v)
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
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
	for _, fault := range []string{"500", "lost"} {
		addr := freshAddress(t)
		faults.fail(fault)
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim through a %s: %d %s", fault, r.StatusCode(), r.Body)
		}
		paid("a claim through a "+fault, addr)
	}
	if _, most := faults.signed(); most != 2 {
		t.Fatalf("the digest signed most often was signed %d times; want 2 (the lost answer's retry)", most)
	}

	// Beyond the SDK's retries, or slower than KMS_TIMEOUT: refused, nothing recorded or sent;
	// claimed again once KMS is well, paid at the nonce the failed one would have taken.
	for _, fault := range [][]string{{"slow"}, {"500", "500", "500"}, {"lost", "lost", "lost"}} {
		addr := freshAddress(t)
		faults.fail(fault...)
		r := claim(t, s, addr.Hex())
		wantError(t, "claim through "+strings.Join(fault, ", "), r.StatusCode(), r.Body, 502, "CHAIN_UNAVAILABLE")
		if st := status(t, s, addr.Hex()); st.JSON200 == nil || st.JSON200.Status != faucetapi.ClaimStatusNone {
			t.Fatalf("after a failed signing: %d %s", st.StatusCode(), st.Body)
		}
		if r := claim(t, s, addr.Hex()); r.StatusCode() != 202 {
			t.Fatalf("claim again after %v: %d %s", fault, r.StatusCode(), r.Body)
		}
		paid("a claim again after "+strings.Join(fault, ", "), addr)
	}
	calls, _ := faults.signed()
	t.Logf("%d payments, %d Sign calls reached KMS", want, calls)
}
