package chain_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/contracts"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/kit/chain"
)

// Revert data is decoded in each shape nodes answer it: geth's string (code 3), Hardhat's object
// {message, data} (code -32603), a provider's one level deeper, and only in the message. The
// dev chain answers the first; the others come from a proxy answering as those nodes do.
func TestRevertDataInEveryShape(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	vault := contracts.NewCommitRevealVault().GetABI()
	for name, reply := range map[string]string{
		"geth":     `"error":{"code":3,"message":"execution reverted","data":"0x09bde339"}`,
		"hardhat":  `"error":{"code":-32603,"message":"Error: VM Exception while processing transaction: reverted with custom error 'InvalidProof()'","data":{"message":"Error: VM Exception while processing transaction: reverted with custom error 'InvalidProof()'","data":"0x09bde339"}}`,
		"provider": `"error":{"code":-32603,"message":"internal error","data":{"originalError":{"code":3,"data":"0x09bde339","message":"execution reverted"}}}`,
		"message":  `"error":{"code":-32000,"message":"VM Exception while processing transaction: revert, return data 0x09bde339"}`,
	} {
		t.Run(name, func(t *testing.T) {
			node := devchaintest.Faults(t, dev.RPCURL)
			node.SetReply("eth_call", reply, 0)
			c, _ := dial(t, node.URL, 5*time.Second)
			_, err := c.Call(ctx, "test", dev.Contracts.Vault, []byte{1, 2, 3, 4})
			rev, ok := chain.RevertOf(&vault, err)
			if !ok || rev.Name != "InvalidProof" {
				t.Fatalf("%v decoded as %v (%v), want InvalidProof", err, rev, ok)
			}
		})
	}
}

// Gas is estimated against the latest block, named: geth takes no tag for "latest", Hardhat for
// "pending", where a transaction of ours waiting in the pool changes the outcome.
func TestEstimatesNameTheLatestBlock(t *testing.T) {
	t.Parallel()
	dev := devchaintest.Start(t)
	var mu sync.Mutex
	var bodies []string
	target, _ := url.Parse(dev.RPCURL)
	rp := httputil.NewSingleHostReverseProxy(target)
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.Close)
	c, _ := dial(t, rec.URL, 5*time.Second)
	to := common.HexToAddress("0x1111111111111111111111111111111111111111")
	if _, err := c.EstimateGas(ctx, ethereum.CallMsg{From: dev.Accounts.Deployer.Address, To: &to}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, b := range bodies {
		if strings.Contains(b, `"eth_estimateGas"`) {
			if !strings.Contains(b, `"latest"`) {
				t.Fatalf("eth_estimateGas without a block tag: %s", b)
			}
			return
		}
	}
	t.Fatalf("no eth_estimateGas sent: %v", bodies)
}
