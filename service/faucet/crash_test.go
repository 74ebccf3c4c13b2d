package faucet_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"github.com/seed018cc74c/vaultd/gen/faucetapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/faucet"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
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
	os.Exit(sqldbtest.Main(m))
}

// TestCrashSafety: one faucet on an SQLite file, killed 12 times.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("crash test runs child processes")
	}
	c := devchaintest.Start(t)
	crashRounds(t, c, 12, 40, []replicaSpec{{db: "sqlite:" + filepath.Join(t.TempDir(), "faucet.db"), key: c.Accounts.Faucet.Key}})
}

// TestTwoReplicasOnPostgresCrashSafety: two faucet processes, each paying from its own wallet,
// share one Postgres and claim the same addresses at once; both are killed at random moments,
// 8 times. Every address is paid once in all, by one wallet or the other: the database's
// uniqueness decides, and each replica reconciles its own wallet's claims when it is back.
func TestTwoReplicasOnPostgresCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("crash test runs child processes")
	}
	c := devchaintest.Start(t)
	db := sqldbtest.Postgres(t)
	second := freshKey(t)
	fund(t, c, c.Accounts.Faucet.Key, keyAddress(second), new(big.Int).Mul(big.NewInt(100_000), big.NewInt(params.Ether)))
	crashRounds(t, c, 8, 40, []replicaSpec{{db: db, key: c.Accounts.Faucet.Key}, {db: db, key: second}})

	// A third process configured with a wallet a live replica uses (crashRounds' last faucets are
	// still serving) refuses to start.
	cfg, err := faucet.LoadConfig(env(c, t.TempDir(), map[string]string{"DATABASE_URL": db, "FAUCET_PRIVATE_KEY": keyHex(second)}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := faucet.New(ctx, cfg, faucet.Options{}); err == nil || !strings.Contains(err.Error(), "give each replica its own FAUCET_PRIVATE_KEY") {
		t.Fatalf("a second replica with a wallet in use: %v", err)
	}
}

// replicaSpec is one faucet process of a crash test: its store and its wallet.
type replicaSpec struct {
	db  string
	key *ecdsa.PrivateKey
}

// crashRounds runs the crash test: each round starts every replica as a child process on a
// chain with a block time, each making concurrent claims (fresh addresses and half of the
// previous round's, the same list for every replica), and kills each at its own random moment.
// After the last round each replica's store and wallet is served once more, in process, and
// every claim must end confirmed, with exactly one transfer on chain for each claimed address
// (from any replica's wallet) and none for the others.
func crashRounds(t *testing.T, c *devchain.Chain, rounds, perRound int, replicas []replicaSpec) {
	c.SetBlockTime(200 * time.Millisecond)
	defer c.SetBlockTime(0)
	var all []common.Address
	acked := map[common.Address]string{} // address → the answer acknowledged (202 or 409)
	var mu sync.Mutex
	var childLogs bytes.Buffer
	for round := range rounds {
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
		var wg sync.WaitGroup
		for _, r := range replicas {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), crashChildEnv+"=1", "CRASH_DATABASE_URL="+r.db, "CRASH_RPC_URL="+c.RPCURL,
				"CRASH_ADDRS="+strings.Join(list, ","), "CRASH_FAUCET_KEY="+keyHex(r.key))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				lines := bufio.NewScanner(out)
				var killer *time.Timer
				for lines.Scan() {
					f := strings.Fields(lines.Text())
					switch {
					case len(f) == 1 && f[0] == "READY":
						killAt := time.Duration(10+rand.IntN(250)) * time.Millisecond
						killer = time.AfterFunc(killAt, func() { cmd.Process.Signal(syscall.SIGKILL) })
					case len(f) == 3 && f[0] == "ACK":
						mu.Lock()
						acked[common.HexToAddress(f[1])] = f[2]
						mu.Unlock()
					}
				}
				if killer != nil {
					killer.Stop()
				}
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()
				mu.Lock()
				defer mu.Unlock()
				if killer == nil {
					t.Errorf("round %d: a child never got ready:\n%s", round, stderr.String())
				}
				childLogs.Write(stderr.Bytes())
			})
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
	}

	final := captureLogs(t)
	var servers []*server
	for _, r := range replicas {
		servers = append(servers, startFaucet(t, c, t.TempDir(), map[string]string{"DATABASE_URL": r.db, "FAUCET_PRIVATE_KEY": keyHex(r.key)}))
	}
	deadline := time.Now().Add(30 * time.Second)
	claimed := map[common.Address]faucetapi.Claim{}
	for _, a := range all {
		for {
			st := status(t, servers[0], a.Hex())
			if st.JSON200 == nil {
				t.Fatalf("status of %s: %d %s", a.Hex(), st.StatusCode(), st.Body)
			}
			if st.JSON200.Status != faucetapi.ClaimStatusPending {
				if st.JSON200.Status != faucetapi.ClaimStatusNone {
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
	transfers := map[common.Address]int{}
	byWallet := map[common.Address]int{}
	for _, r := range replicas {
		from := transfersFrom(t, c, keyAddress(r.key))
		for _, a := range all {
			transfers[a] += from[a]
			byWallet[keyAddress(r.key)] += from[a]
		}
	}
	for _, a := range all {
		cl, ok := claimed[a]
		switch {
		case acked[a] != "" && !ok:
			t.Errorf("%s: a claim was acknowledged (%s), and the store has none", a.Hex(), acked[a])
		case ok && cl.Status != faucetapi.ClaimStatusConfirmed:
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
	t.Logf("%d rounds of %d replicas killed at random, %d addresses, %d claims recorded (%d acknowledged), each paid exactly once (by wallet: %v); reconciled at restarts: %v",
		rounds, len(replicas), len(all), len(claimed), len(acked), byWallet, paths)
	// One acknowledged claim every other round at least: on a loaded 2-core machine many children
	// are killed before their first answer (11 acknowledged in 12 rounds, seen in CI's lanes),
	// while the claims recorded, each paid once, are what the test is about.
	if len(acked) < rounds/2 {
		t.Fatalf("only %d claims acknowledged in %d rounds: the test did not exercise the faucet", len(acked), rounds)
	}
	for _, r := range replicas {
		if byWallet[keyAddress(r.key)] == 0 {
			t.Fatalf("wallet %s paid no claim: the replicas did not both work", keyAddress(r.key).Hex())
		}
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
	slog.SetDefault(edge.NewLogger(os.Stderr, slog.LevelInfo, "faucet"))
	dbURL, rpcURL := os.Getenv("CRASH_DATABASE_URL"), os.Getenv("CRASH_RPC_URL")
	var addrs []string
	for _, a := range strings.Split(os.Getenv("CRASH_ADDRS"), ",") {
		if a != "" {
			addrs = append(addrs, a)
		}
	}
	cfg, err := faucet.LoadConfig(func(k string) string {
		return map[string]string{"RPC_URL": rpcURL, "FAUCET_PRIVATE_KEY": os.Getenv("CRASH_FAUCET_KEY"), "DATABASE_URL": dbURL,
			"RECEIPT_POLL_INTERVAL": "20ms", "RATE_LIMIT_PER_IP": "100000/1h", "RATE_LIMIT_TOTAL": "100000/1h", "FAUCET_POW_WORK": "0"}[k]
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
	go edge.Serve(context.Background(), ln, svc.Handler(), time.Second)
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
