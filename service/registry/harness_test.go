package registry_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// testChain is one dev chain for the whole package: registry tests only read token metadata
// from it (plus tokens they create themselves), so they can share it.
var testChain *devchain.Chain

func TestMain(m *testing.M) {
	if os.Getenv(crashChildEnv) != "" {
		os.Exit(crashChild())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	c, err := devchain.Start(ctx, devchain.Config{})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start dev chain:", err)
		os.Exit(1)
	}
	testChain = c
	code := sqldbtest.Main(m) // stops the Postgres cluster the replica tests start
	c.Close()
	os.Exit(code)
}

const testAdminKey = "test-admin-key-0123456789"

// server is a registry running on a loopback port for one test.
type server struct {
	svc     *registry.Service
	url     string
	dir     string
	cfg     registry.Config
	public  *registryapi.ClientWithResponses // no key
	admin   *registryapi.ClientWithResponses // the admin key
	stopped chan error
	stop    context.CancelFunc
}

// env returns the environment of a registry keeping its files in dir.
func env(dir string, over map[string]string) func(string) string {
	base := map[string]string{
		"RPC_URL":       testChain.RPCURL,
		"ADMIN_API_KEY": testAdminKey,
		"DATA_FILE":     filepath.Join(dir, "tokens.json"),
		"ICONS_DIR":     filepath.Join(dir, "icons"),
		"RPC_TIMEOUT":   "2s",
		// Every test request comes from loopback.
		"RATE_LIMIT_PER_IP": "1000000/1m",
	}
	for k, v := range over {
		base[k] = v
	}
	return func(k string) string { return base[k] }
}

// startServer starts a registry on a free loopback port with its files in dir (a new temp dir
// when ""), and stops it when the test ends.
func startServer(t testing.TB, dir string, over map[string]string) *server {
	t.Helper()
	return startServerWith(t, dir, over, registry.Options{})
}

func startServerWith(t testing.TB, dir string, over map[string]string, opts registry.Options) *server {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	if over == nil {
		over = map[string]string{}
	}
	if _, ok := over["PUBLIC_BASE_URL"]; !ok {
		over["PUBLIC_BASE_URL"] = url
	}
	cfg, err := registry.LoadConfig(env(dir, over))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	svc, err := registry.New(context.Background(), cfg, opts)
	if err != nil {
		ln.Close()
		t.Fatalf("registry.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{svc: svc, url: url, dir: dir, cfg: cfg, stopped: make(chan error, 1), stop: cancel}
	go func() { s.stopped <- edge.Serve(ctx, ln, svc.Handler(), 5*time.Second) }()
	s.public = newClient(t, url, "")
	s.admin = newClient(t, url, testAdminKey)
	t.Cleanup(s.close)
	return s
}

func (s *server) close() {
	if s.stop == nil {
		return
	}
	s.stop()
	<-s.stopped
	s.svc.Close()
	s.stop = nil
}

func newClient(t testing.TB, url, key string) *registryapi.ClientWithResponses {
	t.Helper()
	c, err := registryapi.NewClientWithResponses(url, registryapi.WithRequestEditorFn(func(ctx context.Context, req *http.Request) error {
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ptr[T any](v T) *T { return &v }

// wantError checks an error response's status and code.
func wantError(t testing.TB, what string, status int, body []byte, gotStatus int, code string) {
	t.Helper()
	if gotStatus != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, gotStatus, status, body)
	}
	want := fmt.Sprintf(`"code":%q`, code)
	if !contains(body, want) {
		t.Fatalf("%s: body %s does not hold %s", what, body, want)
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }
