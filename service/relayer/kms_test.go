package relayer_test

import (
	"fmt"
	"math/big"
	"strings"
	"syscall"
	"testing"
	"time"

	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/dev/localkms"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/kmssigner"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// kmsOperators funds each KMS key's wallet on c (its address read from kmsURL: Local KMS, or
// Faults before it): the operator addresses, in keyIDs' order.
func kmsOperators(t *testing.T, c *devchain.Chain, kmsURL string, keyIDs ...string) []common.Address {
	t.Helper()
	var addrs []common.Address
	for _, id := range keyIDs {
		s, err := kmssigner.New(ctx, localkms.Client(kmsURL), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		operator := s.Address()
		funding, err := devchain.SendTx(ctx, c, c.Accounts.Deployer.Key, &operator, new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether)), nil)
		if err == nil {
			_, err = devchain.WaitReceipt(ctx, c.Client(), funding.Hash())
		}
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, operator)
	}
	return addrs
}

// paidFrom checks that resp is a paid reveal, its transaction sent by operator at nonce.
func paidFrom(t *testing.T, c *devchain.Chain, what string, resp *relayerapi.RevealResponse, operator common.Address, nonce uint64) {
	t.Helper()
	if resp.StatusCode() != 200 || resp.JSON200 == nil || !resp.JSON200.Success {
		t.Fatalf("%s: %d %s", what, resp.StatusCode(), resp.Body)
	}
	mined, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(resp.JSON200.TxHash))
	if err != nil {
		t.Fatal(err)
	}
	if from, err := types.Sender(types.LatestSignerForChainID(mined.ChainId()), mined); err != nil || from != operator {
		t.Fatalf("%s: sent by %s (%v), want the KMS key's %s", what, from.Hex(), err, operator.Hex())
	}
	if mined.Nonce() != nonce {
		t.Fatalf("%s: sent at nonce %d, want %d", what, mined.Nonce(), nonce)
	}
}

// The operator key is a key in KMS (Local KMS, a real process): the relayer pays a reveal from
// its address, signed there.
func TestRevealPaidFromAKMSKey(t *testing.T) {
	srv := localkms.Start(t)
	keyID := srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)
	c := devchaintest.Start(t)
	localkms.Setenv(t, srv.URL)
	operator := kmsOperators(t, c, srv.URL, keyID)[0]
	s := relayertest.Start(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_ID": keyID, "MIN_OPERATOR_BALANCE": "1"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	paidFrom(t, c, "reveal", relayertest.Reveal(t, s, req), operator, 0)
}

// Through a KMS that loses its answer after signing, the SDK signs again and the reveal is paid
// once. Through one slower than KMS_TIMEOUT, or failing every try the SDK makes, the reveal is
// refused (502 CHAIN_UNAVAILABLE), nothing sent and the nullifier free; asked again once KMS is
// well, it is paid once, at the nonce the failed one would have taken. The operator's nonce
// stays the count of its mined transactions, and each recipient holds its amount once.
func TestRevealThroughKMSFaults(t *testing.T) {
	srv := localkms.Start(t)
	keyID := srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)
	faults := localkms.StartFaults(t, srv.URL)
	c := devchaintest.Start(t)
	localkms.Setenv(t, faults.URL)
	operator := kmsOperators(t, c, faults.URL, keyID)[0]
	s := relayertest.Start(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_ID": keyID,
		"KMS_TIMEOUT": "300ms", "MIN_OPERATOR_BALANCE": "1"})
	var want uint64 // the operator's next nonce
	paid := func(what string, req relayerapi.RevealRequest, resp *relayerapi.RevealResponse, amount int64) {
		t.Helper()
		paidFrom(t, c, what, resp, operator, want)
		want++
		if n, err := c.Client().NonceAt(ctx, operator, nil); err != nil || n != want {
			t.Fatalf("%s: the operator's nonce is %d (%v), want %d (a gap, or a second transaction)", what, n, err, want)
		}
		if b := balanceOf(t, c, c.Tokens[0].Address, common.HexToAddress(req.Recipient)); b.Cmp(big.NewInt(amount)) != 0 {
			t.Fatalf("%s: the recipient holds %s, want one payment of %d", what, b, amount)
		}
	}

	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 7)
	faults.Fail(localkms.Lost)
	paid("a reveal through a lost answer", req, relayertest.Reveal(t, s, req), 7)
	if _, most := faults.Signed(); most != 2 {
		t.Fatalf("the digest signed most often was signed %d times; want 2 (the lost answer's retry)", most)
	}

	for i, fault := range [][]localkms.Fault{{localkms.Slow}, {localkms.InternalError, localkms.InternalError, localkms.InternalError},
		{localkms.Lost, localkms.Lost, localkms.Lost}} {
		what := fmt.Sprint("a reveal through ", fault)
		amount := int64(11 + i)
		_, req := relayertest.Request(t, c, relayertest.User(c, i+1), amount)
		faults.Fail(fault...)
		relayertest.WantCode(t, what, relayertest.Reveal(t, s, req), 502, "CHAIN_UNAVAILABLE")
		if st := relayertest.Status(t, s, req); st.State != relayerapi.RevealStatusStateUnknown {
			t.Fatalf("%s: the relayer says the reveal is %s, want unknown (nothing sent)", what, st.State)
		}
		if n, err := c.Client().PendingNonceAt(ctx, operator); err != nil || n != want {
			t.Fatalf("%s: the operator's pending nonce is %d (%v), want %d (nothing sent)", what, n, err, want)
		}
		paid(what+", asked again", req, relayertest.Reveal(t, s, req), amount)
	}
}

// Relayer processes lease keys in KMS (OPERATOR_KMS_KEY_IDS) as they lease keys held in a file:
// of three replicas sharing two keys, two pay, each from its own key's wallet, signed in KMS,
// and the third waits as a standby; once the first is SIGKILLed, the standby takes its key when
// the lease lapses and pays from that wallet at its next nonce.
func TestReplicasLeaseKMSKeys(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs relayer processes")
	}
	srv := localkms.Start(t)
	ids := []string{srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1), srv.CreateKey(t, kmstypes.KeySpecEccSecgP256k1)}
	c := devchaintest.Start(t)
	keys := localkms.Env(t, srv.URL)
	keys["OPERATOR_KMS_KEY_IDS"] = strings.Join(ids, ",")
	cl := clusterOf(t, c, kmsOperators(t, c, srv.URL, ids...), keys, map[string]string{"MIN_OPERATOR_BALANCE": "1"})
	paying := []*replica{cl.start(), cl.start()}
	operators := []common.Address{paying[0].operator(t, 30*time.Second), paying[1].operator(t, 30*time.Second)}
	if operators[0] == operators[1] {
		t.Fatalf("two replicas pay from one wallet, %s", operators[0])
	}
	standby := cl.start()
	standby.standby(t, edgetest.ProcessStart)
	for i, r := range paying {
		_, req := relayertest.Request(t, c, relayertest.User(c, i), int64(30+i))
		resp, err := r.reveal(req)
		if err != nil {
			t.Fatal(err)
		}
		paidFrom(t, c, fmt.Sprint("a reveal at replica ", i), resp, operators[i], 0)
	}
	paying[0].cmd.Process.Signal(syscall.SIGKILL)
	<-paying[0].exited
	if op := standby.operator(t, 30*time.Second); op != operators[0] {
		t.Fatalf("the standby pays from %s, want the killed replica's %s", op, operators[0])
	}
	_, req := relayertest.Request(t, c, relayertest.User(c, 2), 32)
	resp, err := standby.reveal(req)
	if err != nil {
		t.Fatal(err)
	}
	paidFrom(t, c, "a reveal at the standby, once it took the key", resp, operators[0], 1)
}

// Two ways of giving the operator key at once are refused, every problem listed; KMS keys for
// replicas need REDIS_URL like any; a key in KMS signs no quote, so fees need a quote key.
func TestKMSOperatorSettings(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	_, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_KMS_KEY_ID": "alias/operator", "OPERATOR_KMS_KEY_IDS": "k1,k2,k1"}))
	for _, want := range []string{"set one way of giving the operator key, not all of OPERATOR_PRIVATE_KEY (or OPERATOR_KEYSTORE_FILE), OPERATOR_KMS_KEY_ID, OPERATOR_KMS_KEY_IDS",
		"OPERATOR_KMS_KEY_IDS: key 3 repeats an earlier key"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_KMS_KEY_ID": "k1"}))
	if err == nil || !strings.Contains(err.Error(), "not both OPERATOR_PRIVATE_KEY (or OPERATOR_KEYSTORE_FILE) and OPERATOR_KMS_KEY_ID") {
		t.Errorf("a key in the process and one in KMS: %v", err)
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_IDS": "k1,k2"}))
	if err == nil || !strings.Contains(err.Error(), "OPERATOR_KMS_KEY_IDS needs REDIS_URL") {
		t.Errorf("replicas' KMS keys without Redis: %v", err)
	}
	_, err = relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_ID": "k1",
		"RELAYER_FUNDING": "fee", "RELAYER_TOKEN_PRICES": c.Tokens[0].Address.Hex() + "=1"}))
	if err == nil || !strings.Contains(err.Error(), "set RELAYER_QUOTE_PRIVATE_KEY") {
		t.Errorf("fees with the operator key in KMS and no quote key: %v", err)
	}
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, map[string]string{"OPERATOR_PRIVATE_KEY": "", "OPERATOR_KMS_KEY_IDS": "k1, k2", "REDIS_URL": "redis://127.0.0.1:1/0"}))
	if err != nil || len(cfg.Operator.KMSKeyIDs) != 2 || !cfg.Operator.Replicas() {
		t.Errorf("two KMS keys for replicas: %v %v", err, cfg.Operator.KMSKeyIDs)
	}
}
