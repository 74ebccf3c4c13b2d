package edge

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Two processes with the same host and pid (a container restarted: pid 1 on the same hostname)
// have different instance names; one process keeps its name.
func TestInstanceIsUniquePerProcess(t *testing.T) {
	if Instance() != Instance() {
		t.Fatal("the instance name changes within a process")
	}
	host, _ := os.Hostname()
	prefix := fmt.Sprintf("%s:%d:", host, os.Getpid())
	a, b := newInstance(), newInstance()
	if a == b {
		t.Fatalf("two processes with host and pid %s share the instance name %s", prefix, a)
	}
	if !strings.HasPrefix(a, prefix) || len(a) != len(prefix)+12 {
		t.Fatalf("instance name %q, want %s<12 hex digits>", a, prefix)
	}
}
