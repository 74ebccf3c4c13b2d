package buildversion

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A command linked with a version answers `--version` with it and exits 0, before anything else;
// linked without one, it answers the build's own (devel here: the test builds without VCS
// information); without the flag it runs on.
func TestLinkedVersion(t *testing.T) {
	dir := t.TempDir()
	link := func(name, ldflags string) string {
		bin := filepath.Join(dir, name)
		build := exec.Command("go", "build", "-buildvcs=false", "-ldflags=-w "+ldflags, "-o", bin, "./testdata/probe")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		return bin
	}
	set := link("set", "-X github.com/seed018cc74c/vaultd/service/kit/buildversion.version=v1.2.3")
	unset := link("unset", "")
	for _, c := range []struct{ bin, arg, want string }{
		{set, "--version", "probe v1.2.3\n"},
		{set, "-version", "probe v1.2.3\n"},
		{unset, "--version", "probe devel\n"},
		{set, "claim", "no version asked\n"},
	} {
		out, err := exec.Command(c.bin, c.arg).Output()
		if err != nil || string(out) != c.want {
			t.Errorf("%s %s: %q, %v; want %q and exit 0", filepath.Base(c.bin), c.arg, out, err, c.want)
		}
	}
}

// Without a version set at link time: the module's version of a `go install …@v`, else the
// checkout's revision, marked dirty when it had uncommitted changes.
func TestFromBuildInfo(t *testing.T) {
	rev := "6520340a9c1b2d3e4f5a6b7c8d9e0f1a2b3c4d5e"
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}}, "devel+6520340a9c1b"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, "devel+6520340a9c1b-dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	} {
		if got := fromBuildInfo(&c.bi); got != c.want {
			t.Errorf("%+v: %q, want %q", c.bi, got, c.want)
		}
	}
	if v := String(); strings.TrimSpace(v) == "" {
		t.Error("String is empty")
	}
}
