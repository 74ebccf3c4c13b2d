package edge

import (
	"runtime/debug"
	"strings"
)

// DefaultGOGC sets the garbage collector's target (GOGC) to percent when the environment sets
// none, and returns the target in effect: for a service whose live heap is small and whose hot
// path allocates a little a request, collecting less often is CPU saved for memory it can spare
// (docs/registry.md measures both). An operator's GOGC, "off" included, is kept; GOMEMLIMIT, when
// set, still bounds the heap.
func DefaultGOGC(getenv func(string) string, percent int) int {
	if strings.TrimSpace(getenv("GOGC")) != "" {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(percent)
	return percent
}
