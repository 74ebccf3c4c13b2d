package devchain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Fault is what a FaultProxy does to one JSON-RPC request, in place of forwarding it and
// passing the answer back. Each is something hosted providers and the gateways in front of them
// are seen to do, and that a node run in process never does.
type Fault string

const (
	// Pass forwards the request and passes the answer back: no fault.
	Pass Fault = ""
	// LoseAnswer forwards the request, then answers 502 instead of the node's answer: a gateway
	// whose upstream took the request and whose answer was lost.
	LoseAnswer Fault = "forwarded-then-502"
	// Throttle forwards the request, then answers 429.
	Throttle Fault = "forwarded-then-429"
	// Drop forwards the request, then closes the connection without an answer.
	Drop Fault = "forwarded-then-dropped"
	// Refuse answers 502 without forwarding: the endpoint is down.
	Refuse Fault = "refused-502"
	// MethodMissing answers the JSON-RPC error -32601 without forwarding: a node or provider
	// that does not have the method (txpool_*, eth_getBlockReceipts on many).
	MethodMissing Fault = "method-missing"
	// Slow waits the lost-answer delay (SetLostAnswerDelay), then forwards and answers: a slow
	// node.
	Slow Fault = "slow"
	// NullReceipt answers null to eth_getTransactionReceipt and eth_getBlockReceipts without
	// forwarding: a receipt index that lags the headers the same provider serves.
	NullReceipt Fault = "null-receipt"
	// Hold keeps the request until Release, then forwards it and answers: a node that is slow
	// until the test says otherwise, so that it can act while the request waits.
	Hold Fault = "held"
	// Hang keeps the request until its caller gives up or Release, then closes the connection
	// without forwarding it: a node that never answers.
	Hang Fault = "hung"
	// ResetKeptAlive resets (TCP RST) a connection that already carried a request, the new
	// request neither forwarded nor answered; a request on a new connection is forwarded: a node
	// that resets a kept-alive connection as the next call is written on it (geth under load).
	ResetKeptAlive Fault = "kept-alive-reset"
)

// FaultRule decides the fault of a request by its JSON-RPC method; a request that is a batch is
// decided once, by its first call's method.
type FaultRule func(method string) Fault

// OnMethod is the rule that injects f into calls of method ("*": every call) and passes the
// others.
func OnMethod(method string, f Fault) FaultRule {
	return func(m string) Fault {
		if method == "*" || m == method {
			return f
		}
		return Pass
	}
}

// FaultProxy stands between a service and a JSON-RPC endpoint and injects faults, as its rule
// decides, into the requests it forwards. With HeadLag set it also serves an older head (a
// fallback a few blocks behind): eth_blockNumber answers that many blocks less, and "latest"
// in eth_getBlockByNumber means that block. Tests and cmd/chaosbench use it; it counts what it
// injected.
type FaultProxy struct {
	URL string // give this to the service as (one endpoint of) its RPC_URL

	target *url.URL
	srv    *http.Server
	client *http.Client

	mu      sync.Mutex
	rule    FaultRule
	replies map[string]*reply // method → what is answered instead of the node
	headLag uint64
	slow    time.Duration // how long a forwarded request's lost answer takes
	release chan struct{} // closed by Release: the requests held until then go
	counts  map[Fault]int
	asked   map[string]int // HTTP requests by their (first) call's method
	called  map[string]int // calls by method, each of a batch counted
}

// NewFaultProxy starts a proxy on a loopback port in front of target, forwarding everything
// until SetRule says otherwise.
func NewFaultProxy(target string) (*FaultProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &FaultProxy{URL: "http://" + ln.Addr().String(), target: u, client: &http.Client{}, counts: map[Fault]int{}, release: make(chan struct{})}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ConnContext: func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connRequests{}, new(atomic.Int64))
	}}
	go p.srv.Serve(ln)
	return p, nil
}

// SetRule makes rule decide every request from now on (nil: forward everything).
func (p *FaultProxy) SetRule(rule FaultRule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rule = rule
}

// SetHeadLag makes the proxy serve the head as n blocks older than the node's (0: the node's).
func (p *FaultProxy) SetHeadLag(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.headLag = n
}

// reply is an answer the proxy gives in place of the node's.
type reply struct {
	members string // the JSON-RPC response's members after the id: `"result":…` or `"error":{…}`
	times   int    // how many more times (< 0: every time)
}

// SetReply makes the proxy answer calls of method itself, with members (`"result":"0x5208"`, or
// `"error":{"code":-32000,"message":"nonce too high"}`), times times (0: every time; "" clears):
// what another node answers where the dev chain answers otherwise (Hardhat's estimates, which do
// not check the balance; its "nonce too high").
func (p *FaultProxy) SetReply(method, members string, times int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.replies == nil {
		p.replies = map[string]*reply{}
	}
	if members == "" {
		delete(p.replies, method)
		return
	}
	if times == 0 {
		times = -1
	}
	p.replies[method] = &reply{members: members, times: times}
}

// replyFor takes the reply set for method, if any.
func (p *FaultProxy) replyFor(method string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.replies[method]
	if !ok || r.times == 0 {
		return "", false
	}
	if r.times > 0 {
		r.times--
	}
	return r.members, true
}

// SetLostAnswerDelay makes the faults that forward a request (LoseAnswer, Throttle, Drop) wait
// d after the node's answer before they fail: long enough, on the dev chain, for a forwarded
// transaction to be mined before its sender hears anything.
func (p *FaultProxy) SetLostAnswerDelay(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.slow = d
}

// Release lets every request held so far (Hold, Hang) go; the rule still decides the next ones.
func (p *FaultProxy) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	close(p.release)
	p.release = make(chan struct{})
}

// Heal ends every fault: no rule, no reply of the proxy's own, the node's head, and the requests
// held released.
func (p *FaultProxy) Heal() {
	p.mu.Lock()
	p.rule, p.replies, p.headLag = nil, nil, 0
	p.mu.Unlock()
	p.Release()
}

// Requests returns how many HTTP requests came whose (first) call is of method: a batch is one.
func (p *FaultProxy) Requests(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked[method]
}

// Calls returns how many calls of method came, each of a batch counted.
func (p *FaultProxy) Calls(method string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.called[method]
}

// Counts returns how many times each fault was injected.
func (p *FaultProxy) Counts() map[Fault]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[Fault]int, len(p.counts))
	for f, n := range p.counts {
		out[f] = n
	}
	return out
}

// Close releases the requests held and stops the proxy.
func (p *FaultProxy) Close() error {
	p.Release()
	defer p.client.CloseIdleConnections()
	return p.srv.Close()
}

type rpcCall struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// serve answers one HTTP request: the proxy's own reply, or the rule's fault injected before the
// node is asked (in place of asking it) or after (in place of its answer).
func (p *FaultProxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	calls, batch, ok := parseCalls(body)
	if !ok {
		http.Error(w, "not JSON-RPC", http.StatusBadRequest)
		return
	}
	p.record(calls)
	nth := int64(1) // of its connection's requests
	if n, _ := r.Context().Value(connRequests{}).(*atomic.Int64); n != nil {
		nth = n.Add(1)
	}
	if !batch {
		if members, ok := p.replyFor(calls[0].Method); ok {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, orNull(calls[0].ID), members)
			return
		}
	}
	p.mu.Lock()
	rule, lag, slow, release := p.rule, p.headLag, p.slow, p.release
	p.mu.Unlock()
	fault := Pass
	if rule != nil && len(calls) > 0 {
		fault = rule(calls[0].Method)
	}
	if fault == NullReceipt && !batch && !isReceiptMethod(calls[0].Method) {
		fault = Pass
	}
	if fault == ResetKeptAlive && nth == 1 {
		fault = Pass // the connection's first request
	}
	if fault != Pass {
		p.mu.Lock()
		p.counts[fault]++
		p.mu.Unlock()
	}
	if p.answeredBefore(w, r, fault, calls, batch, slow, release) {
		return
	}
	if lag > 0 && !batch && p.serveOldHead(w, calls[0], lag) {
		return
	}
	status, answer, err := p.forward(body)
	if fault == LoseAnswer || fault == Throttle || fault == Drop {
		time.Sleep(slow)
	}
	switch {
	case fault == LoseAnswer || err != nil:
		http.Error(w, "bad gateway", http.StatusBadGateway)
	case fault == Throttle:
		http.Error(w, "too many requests", http.StatusTooManyRequests)
	case fault == Drop:
		closeUnanswered(w)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(answer)
	}
}

// parseCalls reads a JSON-RPC request: one call, or a batch.
func parseCalls(body []byte) (calls []rpcCall, batch, ok bool) {
	if json.Unmarshal(body, &calls) == nil {
		return calls, true, true
	}
	var one rpcCall
	if json.Unmarshal(body, &one) != nil {
		return nil, false, false
	}
	return []rpcCall{one}, false, true
}

// record counts a request by its first call's method, and each of its calls.
func (p *FaultProxy) record(calls []rpcCall) {
	if len(calls) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asked == nil {
		p.asked, p.called = map[string]int{}, map[string]int{}
	}
	p.asked[calls[0].Method]++
	for _, c := range calls {
		p.called[c.Method]++
	}
}

// answeredBefore injects the faults that come before the node is asked: those that answer in its
// place (true), and the waits (Slow, Hold) after which the request goes on.
func (p *FaultProxy) answeredBefore(w http.ResponseWriter, r *http.Request, fault Fault, calls []rpcCall, batch bool, slow time.Duration, release <-chan struct{}) bool {
	switch fault {
	case MethodMissing:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"the method %s does not exist/is not available"}}`, orNull(calls[0].ID), calls[0].Method)
		return true
	case ResetKeptAlive:
		resetUnanswered(w)
		return true
	case Slow:
		time.Sleep(slow)
	case Refuse:
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return true
	case NullReceipt:
		p.answerNullReceipts(w, calls, batch)
		return true
	case Hold, Hang:
		select {
		case <-r.Context().Done():
			return true
		case <-release:
		}
		if fault == Hang {
			closeUnanswered(w)
			return true
		}
	}
	return false
}

// closeUnanswered closes the request's connection with no answer written.
func closeUnanswered(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	http.Error(w, "dropped", http.StatusBadGateway)
}

// resetUnanswered resets the request's connection (an RST, not a close) with no answer written.
func resetUnanswered(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				_ = tcp.SetLinger(0)
			}
			conn.Close()
			return
		}
	}
	http.Error(w, "reset", http.StatusBadGateway)
}

// connRequests keys a connection's count of requests in its context.
type connRequests struct{}

func isReceiptMethod(m string) bool {
	return m == "eth_getTransactionReceipt" || m == "eth_getBlockReceipts"
}

// answerNullReceipts answers null to the receipt calls and forwards the others of a batch.
func (p *FaultProxy) answerNullReceipts(w http.ResponseWriter, calls []rpcCall, batch bool) {
	answers := make([]json.RawMessage, len(calls))
	for i, c := range calls {
		if isReceiptMethod(c.Method) {
			answers[i] = json.RawMessage(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, orNull(c.ID)))
			continue
		}
		one, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.ID, "method": c.Method, "params": c.Params})
		_, a, err := p.forward(one)
		if err != nil {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		answers[i] = a
	}
	w.Header().Set("Content-Type", "application/json")
	if !batch {
		w.Write(answers[0])
		return
	}
	out, _ := json.Marshal(answers)
	w.Write(out)
}

func orNull(id json.RawMessage) string {
	if len(id) == 0 {
		return "null"
	}
	return string(id)
}

// serveOldHead answers eth_blockNumber, and eth_getBlockByNumber("latest"), lag blocks back;
// false when c is neither.
func (p *FaultProxy) serveOldHead(w http.ResponseWriter, c rpcCall, lag uint64) bool {
	if c.Method != "eth_blockNumber" && !(c.Method == "eth_getBlockByNumber" && bytes.Contains(c.Params, []byte(`"latest"`))) {
		return false
	}
	head, err := p.head()
	if err != nil {
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return true
	}
	old := fmt.Sprintf("0x%x", head-min(lag, head))
	if c.Method == "eth_blockNumber" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"%s"}`, orNull(c.ID), old)
		return true
	}
	params := bytes.Replace(c.Params, []byte(`"latest"`), []byte(`"`+old+`"`), 1)
	one, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.ID, "method": c.Method, "params": params})
	status, answer, err := p.forward(one)
	if err != nil {
		http.Error(w, "bad gateway", http.StatusBadGateway)
		return true
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(answer)
	return true
}

func (p *FaultProxy) head() (uint64, error) {
	_, answer, err := p.forward([]byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`))
	if err != nil {
		return 0, err
	}
	var res struct{ Result string }
	if err := json.Unmarshal(answer, &res); err != nil {
		return 0, err
	}
	var n uint64
	if _, err := fmt.Sscanf(strings.TrimPrefix(res.Result, "0x"), "%x", &n); err != nil {
		return 0, err
	}
	return n, nil
}

// forward sends body to the node and returns its answer.
func (p *FaultProxy) forward(body []byte) (int, []byte, error) {
	resp, err := p.client.Post(p.target.String(), "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	return resp.StatusCode, answer, err
}
