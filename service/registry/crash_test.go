package registry_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// The crash test runs this test binary again as a child that applies admin changes to a
// registry over HTTP and prints one ACK line per acknowledged change; the parent kills it with
// SIGKILL at a random moment, many times, and checks each time that a fresh registry loads the
// data file and holds every acknowledged change.
const crashChildEnv = "VAULTD_REGISTRY_CRASH_CHILD"

func TestCrashSafety(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("crash test runs child processes")
	}
	dir := t.TempDir()
	rounds := 15
	step := 0
	lastSort := map[string]int{}  // address → sortOrder of its last acknowledged upsert
	lastIcon := map[string]bool{} // address → an icon upload was acknowledged
	acks := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"=1", "CRASH_DIR="+dir, "CRASH_RPC_URL="+testChain.RPCURL, "CRASH_START="+strconv.Itoa(step), "CRASH_TOKENS="+devTokenList())
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		killAt := time.Duration(10+rand.IntN(300)) * time.Millisecond
		var killer *time.Timer
		for lines.Scan() {
			f := strings.Fields(lines.Text())
			switch {
			case len(f) == 1 && f[0] == "READY":
				killer = time.AfterFunc(killAt, func() { cmd.Process.Signal(syscall.SIGKILL) })
			case len(f) == 4 && f[0] == "ACK":
				n, _ := strconv.Atoi(f[3])
				step = max(step, n+1)
				acks++
				if f[1] == "U" {
					lastSort[f[2]] = n
				} else {
					lastIcon[f[2]] = true
				}
			}
		}
		if killer == nil {
			cmd.Wait()
			t.Fatalf("round %d: the child never got ready", round)
		}
		killer.Stop()
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		// A restart must load the file (never an error), and every acknowledged change is in it;
		// the temporary files a kill left behind are cleaned away.
		s := startServer(t, dir, nil)
		for _, pattern := range []string{".*.tmp-*", "icons/.*.tmp-*"} {
			if left, _ := filepath.Glob(filepath.Join(dir, pattern)); len(left) > 0 {
				t.Fatalf("round %d: temporary files left after restart: %v", round, left)
			}
		}
		list := listTokens(t, s.admin, &registryapi.ListTokensParams{IncludeDisabled: ptr(true)})
		if list.StatusCode() != 200 {
			t.Fatalf("round %d: list after restart: %d", round, list.StatusCode())
		}
		got := map[string]registryapi.Token{}
		for _, tok := range list.JSON200.Tokens {
			got[tok.Address] = tok
		}
		for addr, sort := range lastSort {
			tok, ok := got[addr]
			if !ok || int(tok.SortOrder) < sort {
				t.Fatalf("round %d: acknowledged sortOrder %d of %s lost (file has %+v)", round, sort, addr, tok)
			}
		}
		for addr := range lastIcon {
			icon := got[addr].Icon
			if icon == "" {
				t.Fatalf("round %d: acknowledged icon of %s lost", round, addr)
			}
			if _, err := os.Stat(filepath.Join(dir, "icons", icon[strings.LastIndex(icon, "/")+1:])); err != nil {
				t.Fatalf("round %d: %s's icon file is missing: %v", round, addr, err)
			}
		}
		s.close()
	}
	t.Logf("%d rounds, %d acknowledged changes, all present after every SIGKILL", rounds, acks)
	if acks < rounds {
		t.Fatalf("only %d changes were acknowledged in %d rounds: the test did not exercise the store", acks, rounds)
	}
}

func devTokenList() string {
	var out []string
	for _, tok := range testChain.Tokens {
		out = append(out, tok.Address.Hex())
	}
	return strings.Join(out, ",")
}

// crashChild is the child's main: serve a registry on dir and change it until killed.
func crashChild() int {
	dir, rpcURL := os.Getenv("CRASH_DIR"), os.Getenv("CRASH_RPC_URL")
	step, _ := strconv.Atoi(os.Getenv("CRASH_START"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	url := "http://" + ln.Addr().String()
	cfg, err := registry.LoadConfig(func(k string) string {
		return map[string]string{"RPC_URL": rpcURL, "ADMIN_API_KEY": testAdminKey, "DATA_FILE": filepath.Join(dir, "tokens.json"),
			"ICONS_DIR": filepath.Join(dir, "icons"), "PUBLIC_BASE_URL": url}[k]
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	svc, err := registry.New(context.Background(), cfg, registry.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: registry.New:", err)
		return 1
	}
	go edge.Serve(context.Background(), ln, svc.Handler(), time.Second)
	client, _ := registryapi.NewClientWithResponses(url, registryapi.WithRequestEditorFn(func(ctx context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+testAdminKey)
		return nil
	}))
	addrs := []string{}
	for _, a := range strings.Split(os.Getenv("CRASH_TOKENS"), ",") {
		if a != "" {
			addrs = append(addrs, a)
		}
	}
	fmt.Println("READY")
	for ; ; step++ {
		addr := addrs[step%len(addrs)]
		if step%3 == 2 {
			ct, body := multipartBody(map[string][]byte{"file": pngBytes(step)})
			resp, err := client.UploadTokenIconWithBodyWithResponse(context.Background(), addr, ct, body)
			if err == nil && resp.StatusCode() == 200 {
				fmt.Printf("ACK I %s %d\n", addr, step)
			}
			continue
		}
		resp, err := client.UpsertTokenWithResponse(context.Background(), registryapi.TokenInput{Address: addr, SortOrder: ptr(int32(step))})
		if err == nil && (resp.StatusCode() == 200 || resp.StatusCode() == 201) {
			fmt.Printf("ACK U %s %d\n", addr, step)
		}
	}
}
