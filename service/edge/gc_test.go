package edge_test

import (
	"runtime/debug"
	"testing"

	"github.com/seed018cc74c/vaultd/service/edge"
)

// With no GOGC in the environment the service's default applies; an operator's GOGC is kept.
func TestDefaultGOGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	if got := edge.DefaultGOGC(func(string) string { return "" }, 400); got != 400 {
		t.Errorf("DefaultGOGC answered %d, want 400", got)
	}
	if p := debug.SetGCPercent(100); p != 400 {
		t.Errorf("GOGC unset: the collector's target is %d, want 400", p)
	}

	env := map[string]string{"GOGC": "100"} // as the runtime read it: 100 in effect
	if got := edge.DefaultGOGC(func(k string) string { return env[k] }, 400); got != 100 {
		t.Errorf("GOGC=100: DefaultGOGC answered %d, want 100", got)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC=100: the collector's target is %d, want the operator's 100", p)
	}
}
