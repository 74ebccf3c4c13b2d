package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// net/http answers a few requests itself, before any handler or middleware sees them: a request
// line it cannot parse ("GET /%zz"), a header block over MaxHeaderBytes (431), a transfer
// coding it does not know (501). It writes those answers straight to the connection, in plain
// text and in one shape: the status line, then exactly this header block. Nothing else writes
// it in this order (a response's own headers are sorted, Connection before Content-Type).
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// earlyErrorListener gives those answers the shape of every other: a JSON {error, code} body
// and an X-Request-Id.
type earlyErrorListener struct{ net.Listener }

func (l earlyErrorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return earlyErrorConn{c}, nil
}

type earlyErrorConn struct{ net.Conn }

// Write passes everything through, except one of net/http's own error answers, which it writes
// again in the service's error shape.
func (c earlyErrorConn) Write(p []byte) (int, error) {
	if resp, ok := rewriteEarlyError(p); ok {
		if _, err := c.Conn.Write(resp); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// rewriteEarlyError turns "HTTP/1.1 400 Bad Request: invalid URL escape …" + netHTTPErrorHeaders
// + text into the same status with a JSON error body.
func rewriteEarlyError(p []byte) ([]byte, bool) {
	// Every response's first write starts with its status line: look no further than its end,
	// so what passes through costs a few bytes' comparison, not a scan of the body.
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		return nil, false
	}
	i := bytes.IndexByte(p[:min(len(p), 256)], '\r')
	if i < 0 || !bytes.HasPrefix(p[i:], []byte(netHTTPErrorHeaders)) {
		return nil, false
	}
	line := string(p[len("HTTP/1.1 "):i]) // "400 Bad Request: detail"
	status, err := strconv.Atoi(line[:min(3, len(line))])
	if err != nil || status < 400 {
		return nil, false
	}
	msg := strings.TrimSpace(line[min(3, len(line)):])
	if _, detail, ok := strings.Cut(msg, ": "); ok {
		msg = detail
	}
	if status == http.StatusRequestHeaderFieldsTooLarge {
		msg = "the request's headers are too large"
	}
	body, _ := json.Marshal(errorBody{Error: "malformed request: " + msg, Code: CodeInvalidRequest})
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: %d\r\nContent-Type: application/json\r\nX-Request-Id: %s\r\n\r\n%s",
		status, http.StatusText(status), len(body), newRequestID(), body), true
}
