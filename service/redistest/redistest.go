// Package redistest gives tests (and benchmark commands) a real Redis: Debian's redis-server on
// a free loopback port, without persistence, one per caller, stopped when the test ends. Without redis-server
// installed, Redis tests are skipped, except when VAULTD_REQUIRE_REDIS=1 (.ci/run sets it, after
// installing redis-server), where they fail.
package redistest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Server starts a redis-server for t and returns its URL (redis://127.0.0.1:PORT/0) and a
// function that stops it early (a test of Redis going away); it is stopped at the test's end.
func Server(t testing.TB) (url string, stop func()) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("VAULTD_REQUIRE_REDIS") == "1" {
			t.Fatalf("redis-server not found (apt-get install redis-server): %v", err)
		}
		t.Skipf("redis-server not installed (apt-get install redis-server): %v", err)
	}
	url, stop, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url, stop
}

// Start runs a redis-server without persistence on a free loopback port, its files in dir, for
// a test or a benchmark command; stop ends it (and may be called more than once).
func Start(dir string) (url string, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, fmt.Errorf("redis-server not installed (apt-get install redis-server): %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start redis-server: %w", err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("redis-server did not listen on %d: %w", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port), stop, nil
}
