package chain

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Attributes of a JSON-RPC call's client span (OpenTelemetry's RPC conventions, and vaultd's).
const (
	attrSystem    = attribute.Key("rpc.system")
	attrMethod    = attribute.Key("rpc.method")
	attrErrorCode = attribute.Key("rpc.jsonrpc.error_code")
	attrEndpoint  = attribute.Key("vaultd.rpc.endpoint") // its position in RPC_URL (0: the first), never its URL
	attrBatch     = attribute.Key("vaultd.rpc.batch_size")
	attrFirst     = attribute.Key("vaultd.rpc.batch_first_method")
)

// rpcRequest is what a span says of a JSON-RPC request body: its method, or for a batch
// "batch", how many calls it holds and the first one's method.
type rpcRequest struct {
	method string
	batch  int    // 0: not a batch
	first  string // a batch's first call's method
}

func readRequest(body []byte) rpcRequest {
	body = bytes.TrimLeft(body, " \t\r\n")
	var one struct{ Method string }
	if len(body) > 0 && body[0] == '[' {
		var many []json.RawMessage
		_ = json.Unmarshal(body, &many)
		if len(many) > 0 {
			_ = json.Unmarshal(many[0], &one)
		}
		return rpcRequest{method: "batch", batch: len(many), first: one.Method}
	}
	_ = json.Unmarshal(body, &one)
	if one.Method == "" {
		one.Method = "unknown"
	}
	return rpcRequest{method: one.Method}
}

// startCall starts the client span of one JSON-RPC request's attempt at endpoint i, inside
// the operation ctx carries (Metrics.Tracer; none without one, nor outside a traced operation,
// and then the body is not even read).
func (f *failover) startCall(ctx context.Context, body []byte, i int) (trace.Span, rpcRequest) {
	if f.metrics == nil || f.metrics.Tracer == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return trace.SpanFromContext(context.Background()), rpcRequest{}
	}
	req := readRequest(body)
	attrs := []attribute.KeyValue{attrSystem.String("jsonrpc"), attrMethod.String(req.method), attrEndpoint.Int(i)}
	if req.batch > 0 {
		attrs = append(attrs, attrBatch.Int(req.batch), attrFirst.String(req.first))
	}
	_, span := f.metrics.Tracer.Start(ctx, req.method, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return span, req
}

// errorAnswerMax bounds the answers looked into for a JSON-RPC error object: one is a few hundred
// bytes, and a longer answer (a block's receipts, say) is a result, never parsed here a second time.
const errorAnswerMax = 4 << 10

// endCall ends an attempt's span: a transport fault or an error status is an error; so is a
// JSON-RPC error object (a revert, an unknown method), whose code it records. A short answer's
// body is peeked at to find it, and handed on unread.
func endCall(span trace.Span, req rpcRequest, resp *http.Response, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	switch {
	case err != nil:
		span.SetStatus(codes.Error, err.Error())
		return
	case resp.StatusCode >= 400:
		span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
		span.SetStatus(codes.Error, resp.Status)
		return
	case req.batch > 0:
		return
	}
	br := bufio.NewReaderSize(resp.Body, errorAnswerMax)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{br, resp.Body}
	body, perr := br.Peek(errorAnswerMax)
	if !errors.Is(perr, io.EOF) { // longer than an error object, or unreadable: go-ethereum will say
		return
	}
	var answer struct {
		Error *struct {
			Code    int
			Message string
		}
	}
	if json.Unmarshal(body, &answer) == nil && answer.Error != nil {
		span.SetAttributes(attrErrorCode.Int(answer.Error.Code))
		span.SetStatus(codes.Error, strconv.Itoa(answer.Error.Code)+": "+answer.Error.Message)
	}
}
