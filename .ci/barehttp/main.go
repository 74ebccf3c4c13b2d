// Command barehttp answers every request with one file (wrk asks for /tokens) with Go's net/http and nothing else: no router,
// middleware, log or metrics. .ci/registry-vs-nginx measures it beside the registry and nginx,
// as the most any server built on net/http could reach on the same machine.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"log"
	"net/http"
	"os"

	_ "github.com/seed018cc74c/vaultd/service/edge/profiling" // empty unless built with -tags pprof
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: barehttp ADDRESS FILE")
	}
	body, err := os.ReadFile(os.Args[2])
	if err != nil {
		log.Fatal(err)
	}
	sum := sha256.Sum256(body)
	etag := []string{`"` + hex.EncodeToString(sum[:16]) + `"`}
	contentType, cacheControl := []string{"application/json"}, []string{"public, max-age=15"}
	// Every path answers the file: wrk asks for /tokens alone.
	log.Fatal(http.ListenAndServe(os.Args[1], http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"], h["Cache-Control"], h["Etag"] = contentType, cacheControl, etag
		w.Write(body)
	})))
}
