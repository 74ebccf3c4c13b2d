package serial_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/redistest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// tcpCut forwards TCP to the real Redis for one replica, and can cut that replica off (every
// connection closed, new ones refused) while Redis stays up for the others: a network partition,
// the one fault here the real parts cannot produce.
type tcpCut struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  []net.Conn
}

func newTCPCut(t *testing.T, target string) *tcpCut {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpCut{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.set(true) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.cut {
				p.mu.Unlock()
				c.Close()
				continue
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				p.mu.Unlock()
				c.Close()
				continue
			}
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *tcpCut) set(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// A replica cut off from Redis while it holds the one operator key: it stops sending (its
// /ready answers 503 OPERATOR_KEY_UNAVAILABLE) before the standby, which still reaches Redis,
// takes the key; the standby then pays reveals from it at the next nonce; and the cut-off
// replica, back in touch, finds its key taken and stops (Run returns an error) instead of
// sending beside the new holder.
func TestAReplicaCutOffFromRedisStopsBeforeTheStandbyTakesItsKey(t *testing.T) {
	// Not in parallel, and a 5 s lease: it must be renewed on time until the cut, which a
	// neighbour taking the cores prevented, in parallel and then at 2 s under CI's three lanes
	// (503 OPERATOR_KEY_UNAVAILABLE before the cut).
	c := devchaintest.Start(t)
	url, _ := redistest.Server(t)
	k := relayertest.FundedKey(t, c)
	cut := newTCPCut(t, strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0"))
	over := func(redisURL string, port int) map[string]string {
		return relayertest.LeasedKey(k, redisURL, map[string]string{"OPERATOR_LEASE_TTL": "5s", "PORT": fmt.Sprint(port)})
	}

	// Replica a, through the cut, runs as cmd/relayer does (Run).
	portA := edgetest.FreePort(t)
	cfgA, err := relayer.LoadConfig(relayertest.Env(t, c, over("redis://"+cut.ln.Addr().String()+"/0", portA)))
	if err != nil {
		t.Fatal(err)
	}
	a, err := relayer.New(ctx, cfgA, relayer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	runA := make(chan error, 1)
	go func() { runA <- a.Run(context.Background()) }()
	clientA, _ := relayerapi.NewClientWithResponses(fmt.Sprintf("http://127.0.0.1:%d", portA))
	edgetest.WaitFor(t, "replica a ready", func() bool {
		r, err := clientA.GetReadyWithResponse(ctx)
		return err == nil && r.StatusCode() == 200
	})
	_, first := relayertest.Request(t, c, relayertest.User(c, 0), 5)
	if r, err := clientA.RevealWithResponse(ctx, first); err != nil || r.StatusCode() != 200 {
		t.Fatalf("a reveal at a: %v %v", err, r)
	}

	// Replica b waits as a standby.
	cfgB, err := relayer.LoadConfig(relayertest.Env(t, c, over(url, edgetest.FreePort(t))))
	if err != nil {
		t.Fatal(err)
	}
	standby := make(chan *relayer.Service, 1)
	go func() {
		b, err := relayer.New(ctx, cfgB, relayer.Options{})
		if err != nil {
			t.Error(err)
			standby <- nil
			return
		}
		b.Start() // leases in the background
		if err := b.WaitOperator(ctx); err != nil {
			t.Error(err)
		}
		standby <- b
	}()
	time.Sleep(500 * time.Millisecond)
	select {
	case <-standby:
		t.Fatal("the standby started while a holds the only key")
	default:
	}

	cut.set(true)
	var aStopped time.Time
	var b *relayer.Service
	for b == nil {
		if aStopped.IsZero() {
			if r, err := clientA.GetReadyWithResponse(ctx); err == nil && r.JSON503 != nil && r.JSON503.Code == relayer.CodeOperatorKeyUnavailable {
				aStopped = time.Now()
			}
		}
		select {
		case b = <-standby:
		case <-time.After(10 * time.Millisecond):
		}
	}
	bStarted := time.Now()
	if aStopped.IsZero() || !aStopped.Before(bStarted) {
		t.Fatalf("a stopped sending at %v, b took the key at %v: a must stop first", aStopped, bStarted)
	}
	if r, err := clientA.GetHealthWithResponse(ctx); err != nil || r.JSON200.Status != relayerapi.Degraded {
		t.Fatalf("a's health while it holds no lease: %v %+v", err, r)
	}

	urlB, _ := edgetest.Serve(t, b.Handler(), func() {}, b.Close) // started above
	clientB, _ := relayerapi.NewClientWithResponses(urlB)
	_, second := relayertest.Request(t, c, relayertest.User(c, 1), 6)
	r, err := clientB.RevealWithResponse(ctx, second)
	if err != nil || r.StatusCode() != 200 {
		t.Fatalf("a reveal at b: %v %v", err, r)
	}
	mined, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(r.JSON200.TxHash))
	if err != nil || mined.Nonce() != 1 {
		t.Fatalf("b's reveal: nonce %d (%v), want 1: the next after a's", mined.Nonce(), err)
	}

	cut.set(false)
	select {
	case err := <-runA:
		if err == nil || !strings.Contains(err.Error(), "another replica took") {
			t.Fatalf("a stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a, back in touch with Redis, did not stop although b holds its key")
	}
}
