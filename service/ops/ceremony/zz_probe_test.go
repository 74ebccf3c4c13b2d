package ceremony_test

import (
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/ops/ceremony"
)

func TestZZProbe(t *testing.T) {
	dir := t.TempDir()
	step := func(what string, f func() error) {
		t0 := time.Now()
		if err := f(); err != nil {
			t.Fatal(what, err)
		}
		t.Logf("%s: %s", what, time.Since(t0).Round(time.Millisecond))
	}
	step("init", func() error { _, err := ceremony.Init(dir); return err })
	for _, n := range []string{"a", "b", "c"} {
		step("p1 "+n, func() error { _, err := ceremony.Contribute(dir, n); return err })
	}
	step("finalize1", func() error { return ceremony.Finalize(dir, []byte("x")) })
	for _, n := range []string{"d", "e", "f"} {
		step("p2 "+n, func() error { _, err := ceremony.Contribute(dir, n); return err })
	}
	step("finalize2", func() error { return ceremony.Finalize(dir, []byte("y")) })
	step("verify", func() error { return ceremony.Verify(dir, func(string, ...any) {}) })
}
