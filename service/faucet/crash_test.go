package faucet_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/devchain"
	"github.com/seed018cc74c/vaultd/service/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/platform"
)

// The crash test runs this test binary again as a child that serves a faucet on a store in a
// shared folder and makes concurrent claims against it, printing one ACK line per claim it got
// an answer for (202 or 409: the claim is recorded); the parent kills it with SIGKILL at a random
// moment, many times, on a chain with a block time (so kills land between a send and its
// block). After the last round a faucet is started once more and every claim must end
// confirmed, and the chain must hold exactly one transfer for each claimed address and none
// for the others.
const crashChildEnv = "VAULTD_FAUCET_CRASH_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(crashChildEnv) != "" {
		os.Exit(crashChild())
	}
	os.Exit(m.Run())
}

func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test runs child processes")
	}
	c := devchaintest.Start(t)
	c.SetBlockTime(200 * time.Millisecond)
	dir := t.TempDir()
	const rounds, perRound = 20, 40
	var all []common.Address
	acked := map[common.Address]string{} // address → the answer acknowledged (202 or 409)
	var childLogs bytes.Buffer
	for round := range rounds {
		// Each round claims its own fresh addresses and some of the previous round's.
		batch := all[max(0, len(all)-perRound/2):]
		for range perRound {
			a := freshAddress(t)
			all = append(all, a)
			batch = append(batch, a)
		}
		var list []string
		for _, a := range batch {
			list = append(list, a.Hex())
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"=1", "CRASH_DIR="+dir, "CRASH_RPC_URL="+c.RPCURL, "CRASH_ADDRS="+strings.Join(list, ","), "CRASH_FAUCET_KEY="+keyHex(c.Accounts.Faucet.Key))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		var killer *time.Timer
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch {
			case len(f) == 1 && f[0] == "READY":
				killAt := time.Duration(10+rand.IntN(250)) * time.Millisecond
				killer = time.AfterFunc(killAt, func() { cmd.Process.Signal(syscall.SIGKILL) })
			case len(f) == 3 && f[0] == "ACK":
				acked[common.HexToAddress(f[1])] = f[2]
			}
		}
		if killer == nil {
			cmd.Wait()
			t.Fatalf("round %d: the child never got ready:\n%s", round, stderr.String())
		}
		killer.Stop()
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		childLogs.Write(stderr.Bytes())
	}

	final := captureLogs(t)
	s := startFaucet(t, c, dir, nil)
	deadline := time.Now().Add(30 * time.Second)
	claimed := map[common.Address]faucetapi.Claim{}
	for _, a := range all {
		for {
			st := status(t, s, a.Hex())
			if st.JSON200 == nil {
				t.Fatalf("status of %s: %d %s", a.Hex(), st.StatusCode(), st.Body)
			}
			if st.JSON200.Status != faucetapi.Pending {
				if st.JSON200.Status != faucetapi.None {
					claimed[a] = *st.JSON200
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still pending after the last restart: %s", a.Hex(), st.Body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	transfers := transfersFrom(t, c, c.Accounts.Faucet.Address)
	for _, a := range all {
		cl, ok := claimed[a]
		switch {
		case acked[a] != "" && !ok:
			t.Errorf("%s: a claim was acknowledged (%s), and the store has none", a.Hex(), acked[a])
		case ok && cl.Status != faucetapi.Confirmed:
			t.Errorf("%s: claim ended %s (%v)", a.Hex(), cl.Status, cl.Reason)
		case ok && transfers[a] != 1:
			t.Errorf("%s: confirmed claim, %d transfers on chain", a.Hex(), transfers[a])
		case !ok && transfers[a] != 0:
			t.Errorf("%s: no claim, %d transfers on chain", a.Hex(), transfers[a])
		}
		want := new(big.Int)
		if ok {
			want = amount
		}
		if b := balance(t, c, a); b.Cmp(want) != 0 {
			t.Errorf("%s holds %s, want %s", a.Hex(), b, want)
		}
	}
	paths := map[string]int{}
	for _, m := range regexp.MustCompile(`"(settled|followed|sentAfresh)":(\d+)`).FindAllStringSubmatch(childLogs.String()+final.String(), -1) {
		n, _ := strconv.Atoi(m[2])
		paths[m[1]] += n
	}
	t.Logf("%d rounds killed at random, %d addresses, %d claims recorded (%d acknowledged), each paid exactly once; reconciled at restarts: %v",
		rounds, len(all), len(claimed), len(acked), paths)
	if len(acked) < rounds {
		t.Fatalf("only %d claims acknowledged in %d rounds: the test did not exercise the faucet", len(acked), rounds)
	}
}

// transfersFrom counts, by recipient, the successful transactions from `from` that moved value,
// in every block of the chain.
func transfersFrom(t testing.TB, c *devchain.Chain, from common.Address) map[common.Address]int {
	head, err := c.Client().BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[common.Address]int{}
	for n := uint64(1); n <= head; n++ {
		block, err := c.Client().BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range block.Transactions() {
			sender, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
			if err != nil || sender != from || tx.Value().Sign() == 0 || tx.To() == nil {
				continue
			}
			r, err := c.Client().TransactionReceipt(ctx, tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			if r.Status == types.ReceiptStatusSuccessful {
				out[*tx.To()]++
			}
		}
	}
	return out
}

// crashChild is the child's main: serve a faucet and claim until killed.
func crashChild() int {
	slog.SetDefault(platform.NewLogger(os.Stderr, slog.LevelInfo, "faucet"))
	dir, rpcURL := os.Getenv("CRASH_DIR"), os.Getenv("CRASH_RPC_URL")
	var addrs []string
	for _, a := range strings.Split(os.Getenv("CRASH_ADDRS"), ",") {
		if a != "" {
			addrs = append(addrs, a)
		}
	}
	cfg, err := faucet.LoadConfig(func(k string) string {
		return map[string]string{"RPC_URL": rpcURL, "FAUCET_PRIVATE_KEY": os.Getenv("CRASH_FAUCET_KEY"), "DATABASE_URL": "sqlite:" + dir + "/faucet.db",
			"RECEIPT_POLL_INTERVAL": "20ms", "RATE_LIMIT_PER_IP": "100000/1h", "RATE_LIMIT_TOTAL": "100000/1h"}[k]
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: config:", err)
		return 1
	}
	svc, err := faucet.New(context.Background(), cfg, faucet.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: faucet.New:", err)
		return 1
	}
	svc.Start()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go platform.Serve(context.Background(), ln, svc.Handler(), time.Second)
	client, _ := faucetapi.NewClientWithResponses("http://" + ln.Addr().String())
	var mu sync.Mutex
	fmt.Println("READY")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				a := addrs[rand.IntN(len(addrs))]
				resp, err := client.ClaimWithResponse(context.Background(), faucetapi.ClaimRequest{Address: a})
				if err == nil && (resp.StatusCode() == 202 || resp.StatusCode() == 409) {
					mu.Lock()
					fmt.Printf("ACK %s %d\n", a, resp.StatusCode())
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return 0
}
