// Package buildversion is the version a vaultd binary reports: its `--version`, each service's
// GET /health and GET /status, and the traces' service.version.
package buildversion

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// version is set at link time by a release build (the Dockerfile's VERSION):
//
//	go build -ldflags "-X github.com/seed018cc74c/vaultd/service/kit/buildversion.version=v1.2.3" ./cmd/relayer
//
// Empty, the build's own information is read instead (String).
var version string

// String is this build's version: the one set at link time; else the main module's version (a
// `go install …@v1.2.3`); else, for a build from a checkout, "devel+" and its VCS revision (12
// digits, "-dirty" with uncommitted changes); else "devel".
func String() string { return current() }

// current is the version, read once: the build info does not change while the process runs, and
// reading it parses it anew (GET /status answers it on every request).
var current = sync.OnceValue(func() string {
	if v := strings.TrimSpace(version); v != "" {
		return v
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
})

// fromBuildInfo is String's answer from what the Go toolchain recorded in the binary.
func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	return "devel+" + rev[:min(12, len(rev))] + dirty
}

// Answer is the first line of every vaultd command's main: run as `NAME --version` (or
// `-version`), it prints NAME and the version and exits 0, before any configuration is read.
func Answer(name string) {
	if answered(name, os.Args[1:], os.Stdout) {
		os.Exit(0)
	}
}

// answered prints name and the version to w when args ask for the version alone.
func answered(name string, args []string, w io.Writer) bool {
	if len(args) == 0 || (args[0] != "--version" && args[0] != "-version") {
		return false
	}
	fmt.Fprintf(w, "%s %s\n", name, String())
	return true
}
