// Package edgetest holds what the services' black-box tests share: reading a service's
// /metrics, waiting for a condition, and checking that every metric the dashboards and alert
// rules name is one the service exports.
package edgetest

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// Scrape returns what the service at baseURL serves at /metrics.
func Scrape(t testing.TB, baseURL string) string {
	t.Helper()
	resp, err := http.Get(baseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// SeriesValue is the value of one series (its name and labels as exposed) in a scrape, and
// whether the scrape has it.
func SeriesValue(metrics, series string) (float64, bool) {
	for line := range strings.Lines(metrics) {
		if v, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			return f, err == nil
		}
	}
	return 0, false
}

// WaitFor polls cond every 10 ms until it holds, failing the test after 10 seconds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, what, 10*time.Second, cond)
}

// ProcessStart is how long a test waits for a process it started to serve: on a machine whose
// cores CI's other lanes fill, a service's test binary run again as a process took over 10 s
// to listen.
const ProcessStart = 30 * time.Second

// WaitWithin is WaitFor failing the test after d.
func WaitWithin(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CheckDashboards fails the test for every metric whose name starts with prefix (a regular
// expression, such as vaultd_relayer_ or vaultd_(registry|http)_) in dashboards/ (the
// dashboards and alert rules, not their tests) that exported, a scrape, does not declare; it
// returns how many references it checked. dir is the dashboards folder relative to the test.
func CheckDashboards(t testing.TB, dir, prefix, exported string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in %s: %v", dir, err)
	}
	name := regexp.MustCompile(prefix + `[a-z_]+`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range name.FindAllString(string(data), -1) {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				n = strings.TrimSuffix(n, suffix)
			}
			found++
			if !strings.Contains(exported, "# TYPE "+n+" ") {
				t.Errorf("%s names %s, which the service does not export", filepath.Base(f), n)
			}
		}
	}
	return found
}

// Serve starts a service (start), serves h on a loopback port, and returns its base URL and a
// stop that ends serving (letting requests finish) and then closes the service (closeService);
// stop runs at the end of the test too, and only once.
func Serve(t testing.TB, h http.Handler, start, closeService func()) (url string, stop func()) {
	t.Helper()
	lns := listen(t, 1)
	stop = serve(t, start, closeService, func(ctx context.Context) { edge.Serve(ctx, lns[0], h, 5*time.Second) })
	return "http://" + lns[0].Addr().String(), stop
}

// ServeSplit is Serve with the operator's routes on a listener of their own, as with ADMIN_ADDR
// (edge.ServeSplit): it returns the public base URL and the operator's.
func ServeSplit(t testing.TB, h http.Handler, start, closeService func()) (url, adminURL string, stop func()) {
	t.Helper()
	lns := listen(t, 2)
	stop = serve(t, start, closeService, func(ctx context.Context) { edge.ServeSplit(ctx, lns[0], lns[1], h, 5*time.Second) })
	return "http://" + lns[0].Addr().String(), "http://" + lns[1].Addr().String(), stop
}

// listen opens n loopback listeners on free ports.
func listen(t testing.TB, n int) []net.Listener {
	t.Helper()
	lns := make([]net.Listener, n)
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i] = ln
	}
	return lns
}

// serve starts the service, runs run until stop, then closes the service; stop runs once, at the
// latest when the test ends.
func serve(t testing.TB, start, closeService func(), run func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	start()
	done := make(chan struct{})
	go func() { run(ctx); close(done) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			closeService()
		})
	}
	t.Cleanup(stop)
	return stop
}

// Logs is a log's destination written by a service's goroutines and read by the test.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Logs) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Logs) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// FreePort is a loopback TCP port nothing listened on a moment ago, for a server a test starts
// in another process (or that must know its port before it listens).
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Grep is the lines of text that contain sub: what a failure shows of a long answer (metrics).
func Grep(text, sub string) string {
	var out []string
	for line := range strings.Lines(text) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
