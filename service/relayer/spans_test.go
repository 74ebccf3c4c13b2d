package relayer_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/dev/devchain"
	"github.com/seed018cc74c/vaultd/service/dev/devchain/devchaintest"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/edge/otlptest"
	"github.com/seed018cc74c/vaultd/service/relayer"
	"github.com/seed018cc74c/vaultd/service/relayer/relayertest"
)

// A reveal's trace, as a collector receives it over OTLP: the request's server span carrying
// the outcome and the transaction hash, a child span for each stage (the chain checks, the
// off-chain verification, the simulation, the send, the receipt wait), and under them every
// JSON-RPC call (rpc.method, the endpoint's position) and SQL statement made for it.
func TestRevealSpans(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx, tp, client := tracedRelayer(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 8)
	resp, err := client.RevealWithResponse(ctx, req)
	if err != nil || resp.StatusCode() != 200 {
		t.Fatalf("reveal: %v %s", err, resp.Body)
	}
	spans := rx.Spans(t, tp)
	var server otlptest.Span
	for _, s := range spans {
		if s.Name == "POST /reveal" {
			server = s
		}
	}
	tr := otlptest.TraceOf(spans, server.TraceID)
	t.Logf("the reveal's trace:\n%s", tr)
	if server.Attrs["vaultd.outcome"] != "SUCCESS" || server.Attrs["vaultd.tx_hash"] != resp.JSON200.TxHash {
		t.Fatalf("server span attributes %v", server.Attrs)
	}
	for _, stage := range []string{"check.chain", "check.verify", "simulate", "send", "receipt"} {
		s, ok := tr.Named(stage)
		if !ok || s.ParentID != server.SpanID {
			t.Errorf("no %s span under the request's:\n%s", stage, tr)
		}
	}
	rpc, sql := 0, 0
	for _, s := range tr {
		if s.Attrs["rpc.system"] == "jsonrpc" {
			rpc++
			if s.Attrs["rpc.method"] == "" || s.Attrs["vaultd.rpc.endpoint"] != "0" || !tr.Under(s, server) {
				t.Errorf("a JSON-RPC span: %+v", s)
			}
		}
		if s.Attrs["db.system.name"] != "" {
			sql++
		}
	}
	if rpc == 0 || sql == 0 {
		t.Errorf("%d JSON-RPC and %d SQL spans in the reveal's trace:\n%s", rpc, sql, tr)
	}
	// The stage histogram's buckets name the reveal's trace (OpenMetrics exemplars).
	req2, _ := http.NewRequest(http.MethodGet, client.ClientInterface.(*relayerapi.Client).Server+"metrics", nil)
	req2.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	scraped, err := http.DefaultClient.Do(req2)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(scraped.Body)
	scraped.Body.Close()
	for _, stage := range []string{"total", "simulate", "send"} {
		found := false
		for _, line := range strings.Split(string(body), "\n") {
			found = found || (strings.HasPrefix(line, "vaultd_relayer_reveal_stage_duration_seconds_bucket{") && strings.Contains(line, `stage="`+stage+`"`) &&
				strings.Contains(line, `# {trace_id="`+server.TraceID+`"}`))
		}
		if !found {
			t.Errorf("the %s stage's histogram has no exemplar of the reveal's trace", stage)
		}
	}
}

// tracedRelayer is a relayer on loopback exporting its spans to an OTLP receiver.
func tracedRelayer(t *testing.T, c *devchain.Chain, over map[string]string) (*otlptest.Receiver, edge.TracerProvider, *relayerapi.ClientWithResponses) {
	t.Helper()
	rx := otlptest.Start(t)
	tp := rx.Provider(t, "relayer", nil)
	cfg, err := relayer.LoadConfig(relayertest.Env(t, c, over))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := relayer.New(ctx, cfg, relayer.Options{Traces: tp})
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	runCtx, cancel := context.WithCancel(context.Background())
	svc.Start()
	done := make(chan struct{})
	go func() { edge.Serve(runCtx, ln, svc.Handler(), 5*time.Second); close(done) }()
	t.Cleanup(func() { cancel(); <-done; svc.Close() })
	client, _ := relayerapi.NewClientWithResponses("http://" + ln.Addr().String())
	return rx, tp, client
}

// traceOf is the trace whose server span answered resp (its traceresponse).
func traceOf(t *testing.T, rx *otlptest.Receiver, tp edge.TracerProvider, resp *http.Response) (otlptest.Trace, otlptest.Span) {
	t.Helper()
	parts := strings.Split(resp.Header.Get("traceresponse"), "-")
	if len(parts) != 4 {
		t.Fatalf("traceresponse %q", resp.Header.Get("traceresponse"))
	}
	tr := otlptest.TraceOf(rx.Spans(t, tp), parts[1])
	for _, s := range tr {
		if s.SpanID == parts[2] {
			return tr, s
		}
	}
	t.Fatalf("no span %s in the trace:\n%s", parts[2], tr)
	return nil, otlptest.Span{}
}

// A refusal says where it was decided: the span of the check that decided it carries the code
// and a "refused" event, its status unset (a refusal of the request is no fault of the
// service), and so does the request's span; a check that passed carries none. Checked for a
// spent nullifier (the chain check), a malformed proof (the proof check, after the chain's), the
// token as the recipient (the recipient check), and
// a body the OpenAPI validation refuses (the request's own span: nothing ran but the per-IP
// limit's admission).
func TestRefusalSpans(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx, tp, client := tracedRelayer(t, c, nil)
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 8)
	if resp, err := client.RevealWithResponse(ctx, req); err != nil || resp.StatusCode() != 200 {
		t.Fatalf("reveal: %v %s", err, resp.Body)
	}
	_, bad := relayertest.Request(t, c, relayertest.User(c, 1), 8)
	bad.Proof.PiA[0] = "1" // not on the curve
	// A card proved once, to the token (a recipient refused).
	cd := newCard(t, c, 2, c.Tokens[0].Address, 8)
	toToken := relayertest.PrepareFor(t, c, cd, c.Tokens[0].Address)
	for _, want := range []struct {
		name     string
		req      relayerapi.RevealRequest
		status   int
		code     string
		decision string
	}{
		{"a spent nullifier", req, 409, "NULLIFIER_USED", "check.chain"},
		{"a malformed proof", bad, 422, "INVALID_PROOF", "check.proof"},
		{"the token as the recipient", toToken, 400, "RECIPIENT_NOT_ALLOWED", "check.recipient"},
	} {
		resp, err := client.RevealWithResponse(ctx, want.req)
		if err != nil || resp.StatusCode() != want.status {
			t.Fatalf("%s: %v %d %s", want.name, err, resp.StatusCode(), resp.Body)
		}
		tr, server := traceOf(t, rx, tp, resp.HTTPResponse)
		t.Logf("%s:\n%s", want.name, tr)
		decided, ok := tr.Named(want.decision)
		if !ok {
			t.Fatalf("%s: no %s span:\n%s", want.name, want.decision, tr)
		}
		for _, s := range []otlptest.Span{decided, server} {
			if s.Attrs["vaultd.code"] != want.code || len(s.Events) == 0 || s.Events[0].Name != "refused" || s.Status != 0 {
				t.Errorf("%s: span %s: code %q, events %v, status %v", want.name, s.Name, s.Attrs["vaultd.code"], s.Events, s.Status)
			}
		}
		for _, s := range tr {
			if s.Name != want.decision && s.Name != server.Name && s.Attrs["vaultd.code"] != "" {
				t.Errorf("%s: %s, which passed, carries the code %s", want.name, s.Name, s.Attrs["vaultd.code"])
			}
		}
	}
	body := `{"proof": {}}`
	resp, err := client.RevealWithBodyWithResponse(ctx, "application/json", strings.NewReader(body))
	if err != nil || resp.StatusCode() != 400 {
		t.Fatalf("a malformed body: %v %d", err, resp.StatusCode())
	}
	tr, server := traceOf(t, rx, tp, resp.HTTPResponse)
	if len(tr) != 2 || len(tr.Children(server)) != 1 || tr.Children(server)[0].Name != "admit" || server.Attrs["vaultd.code"] != "INVALID_REQUEST" || len(server.Events) != 1 {
		t.Errorf("a malformed body's trace:\n%s\nserver span %+v", tr, server)
	}
}

// A repeat of a reveal whose transaction is still in flight joins it, and its span links to the
// send of the request that sent it: from the repeat's trace, the one that paid is found. The
// transaction manager's work on the flight (its receipts read, its replacement) and the
// relayer's writing down of its outcome are traces of their own, linked to that send too.
func TestAJoinedRevealLinksToTheOneThatSent(t *testing.T) {
	t.Parallel()
	c := devchaintest.Start(t)
	rx, tp, client := tracedRelayer(t, c, map[string]string{"RECEIPT_TIMEOUT": "600ms", "REPLACE_AFTER": "400ms"})
	_, req := relayertest.Request(t, c, relayertest.User(c, 0), 8)
	c.PauseSealing()
	first, err := client.RevealWithResponse(ctx, req)
	if err != nil || first.StatusCode() != 504 {
		t.Fatalf("the first: %v %d %s", err, first.StatusCode(), first.Body)
	}
	again, err := client.RevealWithResponse(ctx, req)
	if err != nil || again.StatusCode() != 504 {
		t.Fatalf("the repeat: %v %d %s", err, again.StatusCode(), again.Body)
	}
	// The first version, REPLACE_AFTER old, leaves the node's pool for its replacement; mined
	// before that, it would leave no txmgr.replace span to find.
	edgetest.WaitFor(t, "the lingering transaction replaced", func() bool {
		_, _, err := c.Client().TransactionByHash(ctx, common.HexToHash(*first.JSON504.TxHash))
		return errors.Is(err, ethereum.NotFound)
	})
	c.ResumeSealing()
	senders, _ := traceOf(t, rx, tp, first.HTTPResponse)
	send, _ := senders.Named("send")
	tr, _ := traceOf(t, rx, tp, again.HTTPResponse)
	join, ok := tr.Named("join")
	if !ok || len(join.Links) != 1 || join.Links[0].TraceID != send.TraceID || join.Links[0].SpanID != send.SpanID {
		t.Fatalf("the repeat's trace:\n%s\njoin %+v, want a link to the first's send %s/%s", tr, join, send.TraceID, send.SpanID)
	}
	if _, sent := tr.Named("send"); sent {
		t.Fatalf("the repeat sent again:\n%s", tr)
	}
	// The receipt is found by whichever the manager runs first, the new block's receipts or its
	// periodic lookup of what is in flight (under load, the lookup): either records "mined".
	linked := map[string]bool{}
	for deadline := time.Now().Add(10 * time.Second); !(linked["mined"] && linked["relayer.settle"] && linked["txmgr.replace"]); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("spans linked to the send: %v; want one that found it mined (txmgr.receipts or txmgr.lookup), txmgr.replace and relayer.settle", linked)
		}
		for _, s := range rx.Spans(t, tp) {
			for _, l := range s.Links {
				if l.SpanID == send.SpanID && s.ParentID == "" {
					linked[s.Name] = true
					for _, e := range s.Events {
						if e.Name == "mined" && (s.Name == "txmgr.receipts" || s.Name == "txmgr.lookup") {
							linked["mined"] = true
						}
					}
				}
			}
		}
	}
}
