// Package redistest gives tests (and benchmark commands) a real Redis: Debian's redis-server on
// a free loopback port, without persistence, one per caller, stopped when the test ends. Without redis-server
// installed, Redis tests are skipped, except when VAULTD_REQUIRE_REDIS=1 (.ci/run sets it, after
// installing redis-server), where they fail.
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
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
	// The port is free when picked, not when redis-server binds it: another process may take it
	// in between (tests start servers in parallel), and then this one exits. Pick another.
	for range 5 {
		var ln net.Listener
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return "", nil, err
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if url, stop, err = startOn(bin, dir, port); !errors.Is(err, errNotOurs) {
			return url, stop, err
		}
	}
	return "", nil, err
}

// Restartable is Server whose restart stops the redis-server and starts an empty one on the
// same port: a Redis without persistence that restarted and lost everything.
func Restartable(t testing.TB) (url string, restart func()) {
	t.Helper()
	url, stop := Server(t)
	var port int
	if _, err := fmt.Sscanf(url, "redis://127.0.0.1:%d/0", &port); err != nil {
		t.Fatal(err)
	}
	bin, _ := exec.LookPath("redis-server")
	dir := t.TempDir()
	return url, func() {
		stop()
		_, again, err := startOn(bin, dir, port)
		if err != nil {
			t.Fatal(err)
		}
		stop = again
		t.Cleanup(again)
	}
}

// errNotOurs is a redis-server that exited, or a port answered by another server than ours.
var errNotOurs = errors.New("the port was taken by another process")

// startOn runs a redis-server without persistence on port, its files in dir. It is ready when
// the server answering on port says it is the process started here.
func startOn(bin, dir string, port int) (url string, stop func(), err error) {
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start redis-server: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			<-exited
		}
	}
	url = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	want := fmt.Sprintf("process_id:%d\r\n", cmd.Process.Pid)
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-exited:
			return "", nil, fmt.Errorf("redis-server on %d exited: %w", port, errNotOurs)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		info, err := rdb.Info(ctx, "server").Result()
		cancel()
		if err == nil {
			if strings.Contains(info, want) {
				return url, stop, nil
			}
			stop()
			return "", nil, fmt.Errorf("another redis-server answers on %d: %w", port, errNotOurs)
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("redis-server did not listen on %d: %w", port, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Partition is one process's link to a Redis, which a test can cut while Redis stays up for
// the others: a network partition, the one fault the real server cannot produce. Cut fails
// every new connection and every write on the open ones.
type Partition struct{ cut atomic.Bool }

// Cut cuts the link (true) or heals it (false).
func (p *Partition) Cut(cut bool) { p.cut.Store(cut) }

// Client is a client of the Redis at url through p: no retries, 100 ms timeouts; closed when
// the test ends.
func (p *Partition) Client(t testing.TB, url string) *redis.Client {
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opts.MaxRetries = -1
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 100*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond
	opts.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if p.cut.Load() {
			return nil, errPartitioned
		}
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cuttable{Conn: c, p: p}, nil
	}
	c := redis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	return c
}

var errPartitioned = errors.New("partitioned from Redis (test)")

type cuttable struct {
	net.Conn
	p *Partition
}

func (c *cuttable) Write(b []byte) (int, error) {
	if c.p.cut.Load() {
		return 0, errPartitioned
	}
	return c.Conn.Write(b)
}

// DropFirstAnswer is the URL of a TCP proxy to the Redis at url that closes the connection
// carrying the first command containing word (upper case; commands go in any case), in place of
// passing on Redis's answer to it: the command ran, and its sender never hears so. It stands in
// for a fault a real Redis does not make on demand.
func DropFirstAnswer(t testing.TB, url, word string) string {
	t.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var dropped atomic.Bool
	go func() {
		for {
			front, err := ln.Accept()
			if err != nil {
				return
			}
			back, err := net.Dial("tcp", opts.Addr)
			if err != nil {
				front.Close()
				continue
			}
			var drop atomic.Bool
			go func() { // commands
				buf := make([]byte, 64<<10)
				for {
					n, err := front.Read(buf)
					if err != nil {
						back.Close()
						return
					}
					if bytes.Contains(bytes.ToUpper(buf[:n]), []byte(word)) && dropped.CompareAndSwap(false, true) {
						drop.Store(true)
					}
					if _, err := back.Write(buf[:n]); err != nil {
						return
					}
				}
			}()
			go func() { // answers
				buf := make([]byte, 64<<10)
				for {
					n, err := back.Read(buf)
					if err != nil || drop.Load() {
						front.Close()
						back.Close()
						return
					}
					if _, err := front.Write(buf[:n]); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "redis://" + ln.Addr().String()
}
