package chain_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

var ctx = context.Background()

// closedPort is an address nothing listens on: a node that is down.
func closedPort(t *testing.T) string {
	return fmt.Sprintf("127.0.0.1:%d", edgetest.FreePort(t))
}

// hangingNode accepts connections and never answers: a fake, standing in for a node that hangs,
// which the dev chain cannot be made to do.
func hangingNode(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String()
}

// proxy forwards to the dev chain's endpoint, answering 503 instead while down is set (a
// provider's outage), and keeps the Authorization header of every request it gets.
type proxy struct {
	url  string
	down atomic.Bool
	mu   sync.Mutex
	auth []string
}

func newProxy(t *testing.T, rpcURL string) *proxy {
	t.Helper()
	target, _ := url.Parse(rpcURL)
	rp := httputil.NewSingleHostReverseProxy(target)
	p := &proxy{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.auth = append(p.auth, r.Header.Get("Authorization"))
		p.mu.Unlock()
		if p.down.Load() {
			http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	p.url = s.URL
	return p
}

func (p *proxy) authorizations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.auth...)
}

func dial(t *testing.T, rpcURL string, timeout time.Duration) (*chain.Client, *chain.Metrics) {
	t.Helper()
	m := chain.NewMetrics(prometheus.NewRegistry())
	c, err := chain.Dial(rpcURL, timeout, m)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, m
}

// A node that is down is passed over within the same call, and the next endpoint is in use.
func TestFailoverToTheNextEndpoint(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	c, m := dial(t, "http://"+closedPort(t)+"/v3/SECRETKEY,"+dev.RPCURL, 5*time.Second)
	for range 3 {
		if _, err := c.BlockNumber(ctx); err != nil {
			t.Fatalf("with the first endpoint down: %v", err)
		}
	}
	if got, n := testutil.ToFloat64(m.Endpoint), testutil.ToFloat64(m.Switches); got != 1 || n != 1 {
		t.Fatalf("endpoint in use %v after %v switches, want 1 after 1", got, n)
	}
}

// A node answering 503 (or 429) is passed over within the same call.
func TestAnEndpointAnswering503IsPassedOver(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	first, second := newProxy(t, dev.RPCURL), newProxy(t, dev.RPCURL)
	first.down.Store(true)
	c, m := dial(t, first.url+","+second.url, 5*time.Second)
	if _, err := c.ChainID(ctx); err != nil {
		t.Fatal(err)
	}
	if len(first.authorizations()) != 1 || len(second.authorizations()) != 1 || testutil.ToFloat64(m.Endpoint) != 1 {
		t.Fatalf("first asked %d times, second %d, endpoint in use %v", len(first.authorizations()), len(second.authorizations()), testutil.ToFloat64(m.Endpoint))
	}
}

// A node that hangs costs the one call that timed out on it; the next call goes to the next
// endpoint.
func TestAHungEndpointIsLeftForTheNext(t *testing.T) {
	// Not in parallel: its next call has the same 300 ms, which a neighbour's dev chain starting
	// could take.
	dev := devchaintest.Start(t)
	c, _ := dial(t, "http://"+hangingNode(t)+","+dev.RPCURL, 300*time.Millisecond)
	if _, err := c.BlockNumber(ctx); !errors.Is(err, chain.ErrUnavailable) {
		t.Fatalf("the call on the hung node: %v, want ErrUnavailable", err)
	}
	if _, err := c.BlockNumber(ctx); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}

// With every endpoint down the call fails as unavailable, naming each endpoint by position and
// host, and never showing a URL's path, query or password (where API keys live).
func TestAllEndpointsDownAndNoSecretShown(t *testing.T) {
	t.Parallel()
	c, _ := dial(t, "http://user:hunter2@"+closedPort(t)+"/v3/SECRETKEY,http://"+closedPort(t)+"/?apikey=SECRETQUERY", 2*time.Second)
	_, err := c.BlockNumber(ctx)
	if !errors.Is(err, chain.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	msg := err.Error()
	for _, secret := range []string{"SECRETKEY", "SECRETQUERY", "hunter2"} {
		if strings.Contains(msg, secret) {
			t.Errorf("the error shows %s: %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "endpoint 1 (127.0.0.1:") || !strings.Contains(msg, "endpoint 2 (127.0.0.1:") {
		t.Errorf("the error does not name both endpoints: %s", msg)
	}
}

// Credentials in an endpoint's URL go to that endpoint alone.
func TestCredentialsGoToTheirEndpointOnly(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	first, second := newProxy(t, dev.RPCURL), newProxy(t, dev.RPCURL)
	first.down.Store(true)
	withAuth := strings.Replace(first.url, "http://", "http://alice:pw1@", 1)
	c, _ := dial(t, withAuth+","+second.url, 5*time.Second)
	if _, err := c.ChainID(ctx); err != nil {
		t.Fatal(err)
	}
	a1, a2 := first.authorizations(), second.authorizations()
	if len(a1) != 1 || a1[0] != "Basic YWxpY2U6cHcx" { // alice:pw1
		t.Errorf("the first endpoint got Authorization %q", a1)
	}
	if len(a2) != 1 || a2[0] != "" {
		t.Errorf("the second endpoint got Authorization %q, want none", a2)
	}
}

// A fallback on another chain is refused at start; one that is down is let be.
func TestConnectChecksEveryEndpointsChain(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	other, err := devchaintest.StartWith(t, 1338)
	if err != nil {
		t.Fatal(err)
	}
	cfg := chain.Config{RPCURL: dev.RPCURL + "," + other.RPCURL, RPCTimeout: 5 * time.Second}
	if _, _, err := chain.Connect(ctx, cfg, nil); err == nil || !strings.Contains(err.Error(), "endpoint 2 is on chain 1338") {
		t.Fatalf("Connect with a fallback on another chain: %v", err)
	}
	cfg.RPCURL = dev.RPCURL + ",http://" + closedPort(t)
	c, id, err := chain.Connect(ctx, cfg, nil)
	if err != nil || id != dev.ChainID {
		t.Fatalf("Connect with a fallback that is down: %v, %v", id, err)
	}
	c.Close()
}

func TestRPCURLValidation(t *testing.T) {
	t.Parallel()
	if _, err := chain.Dial(" , ", time.Second, nil); err == nil {
		t.Error("Dial of no endpoint: no error")
	}
	for rpcURL, want := range map[string]string{
		"":                                     "RPC_URL is required",
		" , ":                                  "RPC_URL is required",
		"127.0.0.1:8545":                       "endpoint 1 is not a URL",
		"http://a:8545,ws://b:8546":            "endpoint 2 is not http(s)",
		"http://a:8545,not a url/v3/SECRETKEY": "endpoint 2 is not a URL",
		"http://a:8545, https://b/v3/key":      "",
		"ws://a:8546":                          "",
	} {
		err := chain.Config{RPCURL: rpcURL}.Validate()
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) || (err != nil && strings.Contains(err.Error(), "SECRETKEY")) {
			t.Errorf("RPC_URL %q: %v, want %q", rpcURL, err, want)
		}
	}
}

// A transaction's send that the endpoint in use may have passed on (a gateway that forwarded it
// and then answered 502 or 429, or dropped the connection) is never sent to the next endpoint:
// the fallback would answer "nonce too low" once the first copy is mined. The send fails as
// unavailable, and the transaction is in the chain's pool all the same.
func TestASendThatMayHaveLeftIsNotSentElsewhere(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	for _, fault := range []devchain.Fault{devchain.LoseAnswer, devchain.Throttle, devchain.Drop} {
		t.Run(string(fault), func(t *testing.T) {
			first := devchaintest.Faults(t, dev.RPCURL)
			first.SetRule(func(method string) devchain.Fault {
				if method == "eth_sendRawTransaction" {
					return fault
				}
				return devchain.Pass
			})
			second := devchaintest.CountCalls(t, dev.RPCURL)
			c, _ := dial(t, first.URL+","+second.URL, 5*time.Second)
			tx := signedTransfer(t, dev)
			err := c.SendTransaction(ctx, tx)
			if !errors.Is(err, chain.ErrUnavailable) {
				t.Fatalf("send: %v, want ErrUnavailable", err)
			}
			if calls, _ := second.Take(); calls["eth_sendRawTransaction"] != 0 {
				t.Fatalf("the fallback was sent the transaction %d times", calls["eth_sendRawTransaction"])
			}
			if known, err := c.TransactionKnown(ctx, tx.Hash()); err != nil || !known {
				t.Fatalf("the transaction the gateway forwarded is not known to the node: %v %v", known, err)
			}
		})
	}
}

// A send that could not reach the endpoint at all (nothing listens) goes to the next one.
func TestASendThatNeverLeftGoesToTheNextEndpoint(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	c, _ := dial(t, "http://"+closedPort(t)+","+dev.RPCURL, 5*time.Second)
	tx := signedTransfer(t, dev)
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatalf("send with the first endpoint down: %v", err)
	}
}

// signedTransfer signs (and does not send) a transfer of 1 wei from the dev chain's deployer to
// itself at its next pending nonce.
func signedTransfer(t *testing.T, dev *devchain.Chain) *types.Transaction {
	t.Helper()
	from := dev.Accounts.Deployer
	nonce, err := dev.Client().PendingNonceAt(ctx, from.Address)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(new(big.Int).SetUint64(dev.ChainID)), &types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(dev.ChainID), Nonce: nonce, GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei),
		Gas: 21_000, To: &from.Address, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// A node looks for a transaction in its blocks, then in its pool, so one mined between the two
// looks is found in neither (the proxy answers null once, in place of that moment, which a node
// in process cannot be made to hit): the transaction is known all the same. One never sent is
// not.
func TestATransactionMinedBetweenTwoLooksIsKnown(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, dev.RPCURL)
	c, _ := dial(t, proxy.URL, 5*time.Second)
	tx := signedTransfer(t, dev)
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second) // mined: the second look finds it in its block
	defer cancel()
	if _, err := chain.WaitMined(wctx, c, tx.Hash(), 20*time.Millisecond); err != nil {
		t.Fatalf("the transfer was not mined: %v", err)
	}
	proxy.SetReply("eth_getTransactionByHash", `"result":null`, 1)
	if known, err := c.TransactionKnown(ctx, tx.Hash()); err != nil || !known {
		t.Fatalf("a sent transaction, not found once: known %v, %v", known, err)
	}
	if known, err := c.TransactionKnown(ctx, common.HexToHash("0x01")); err != nil || known {
		t.Fatalf("a transaction never sent: known %v, %v", known, err)
	}
}

// A node may reset a kept-alive connection just as the next call is written on it (geth does
// under load: "connection reset by peer", a reveal answered 502 CHAIN_UNAVAILABLE in a burst).
// A read is asked again on a new connection. A send is not: the node may have taken it before
// the reset, and its fate is decided by its hash (txmgr).
func TestAReadOnAResetKeptAliveConnectionIsAskedAgain(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	proxy := devchaintest.Faults(t, dev.RPCURL)
	c, _ := dial(t, proxy.URL, 5*time.Second)
	if _, err := c.ChainID(ctx); err != nil { // a connection, kept alive
		t.Fatal(err)
	}
	proxy.SetRule(devchain.OnMethod("*", devchain.ResetKeptAlive))
	if _, err := c.BlockNumber(ctx); err != nil {
		t.Fatalf("a read whose kept-alive connection was reset: %v", err)
	}
	if n := proxy.Counts()[devchain.ResetKeptAlive]; n != 1 {
		t.Fatalf("%d resets, want 1 (the read's first try)", n)
	}
	err := c.SendTransaction(ctx, signedTransfer(t, dev))
	if !errors.Is(err, chain.ErrUnavailable) {
		t.Fatalf("a send whose kept-alive connection was reset: %v, want ErrUnavailable", err)
	}
	if n := proxy.Requests("eth_sendRawTransaction"); n != 1 {
		t.Fatalf("the send was written %d times, want once", n)
	}
}
