//go:build pprof

package profiling

import (
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
)

// init serves the profiles on PPROF_ADDR when it is set (doc.go).
func init() {
	addr := os.Getenv("PPROF_ADDR")
	if addr == "" {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		log.Fatalf("PPROF_ADDR %q: a loopback address and port (127.0.0.1:6060)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatalf("PPROF_ADDR: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	go http.Serve(ln, mux)
}
