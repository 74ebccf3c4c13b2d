// Command compat keeps the published API from breaking by accident: it compares each OpenAPI
// document in openapi/ with the last release's (openapi/released names its tag and commit) with
// oasdiff, and fails when a document's info.version is not semantic, when a document changed
// without a higher version, or when it broke a client (oasdiff's ERR level) without a higher
// major. It writes what changed, per document, to CHANGELOG.md for partners (-write), and fails
// when that file is not what it would write. docs/releasing.md says how to release.
//
// It is a module of its own so that oasdiff (and the kin-openapi it needs) stays out of the
// services' go.mod; run it from the repository as `go -C openapi/compat run .` (CI runs its
// tests, which run the same check on the repository).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Release is the API's last release, as openapi/released names it.
type Release struct {
	Tag, Commit string
}

// Document is one OpenAPI document's comparison with the release.
type Document struct {
	Name               string // the file's name without .yaml: relayer
	Released, Version  string // info.version at the release ("": new since) and now ("": removed)
	Changed, Breaking  bool   // anything but info.version differs; a client of the release may break
	Changes            []Change
	Problems           []string // what fails the check
	releasedMajor, now semver
}

// Change is one change oasdiff reports, as the changelog lists it.
type Change struct {
	Level     string // breaking, warning or info
	Operation string // "GET /health", or "" for a change to the components alone
	Text      string
}

// readRelease reads openapi/released: one line "TAG COMMIT" (comments start with #).
func readRelease(root string) (Release, error) {
	b, err := os.ReadFile(filepath.Join(root, "openapi", "released"))
	if err != nil {
		return Release{}, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(f[1]) {
			return Release{}, fmt.Errorf("openapi/released: want one line \"TAG COMMIT\" (the commit's full hash), got %q", line)
		}
		return Release{Tag: f[0], Commit: f[1]}, nil
	}
	return Release{}, errors.New("openapi/released names no release")
}

// git runs git in root and returns its output.
func git(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// releasedFiles writes the release's openapi/*.yaml into dir (so that a document's references to
// another, relayer.yaml's to wallet.yaml, resolve to the release's) and returns dir. The release's
// commit must be in the clone, or fetched from its origin.
func releasedFiles(root string, r Release, dir string) error {
	if _, err := git(root, "cat-file", "-e", r.Commit+"^{commit}"); err != nil {
		// A shallow clone (CI's checkouts often are) has not got it: its origin is asked for that
		// one commit, which a server answers for any commit it holds.
		git(root, "fetch", "--quiet", "--depth=1", "origin", r.Commit)
	}
	if _, err := git(root, "cat-file", "-e", r.Commit+"^{commit}"); err != nil {
		return fmt.Errorf("the release %s's commit %s is not in this clone (a shallow one?): fetch the whole history (git fetch --unshallow; in CI, a checkout with fetch-depth 0) and run again", r.Tag, r.Commit)
	}
	// The tag, where this clone has it, must be the commit openapi/released names.
	if out, err := git(root, "rev-parse", "-q", "--verify", "refs/tags/"+r.Tag+"^{commit}"); err == nil {
		if got := strings.TrimSpace(string(out)); got != r.Commit {
			return fmt.Errorf("the tag %s is commit %s, but openapi/released says %s", r.Tag, got, r.Commit)
		}
	}
	names, err := git(root, "ls-tree", "--name-only", r.Commit, "openapi/")
	if err != nil {
		return err
	}
	for _, name := range strings.Fields(string(names)) {
		if !strings.HasSuffix(name, ".yaml") {
			continue
		}
		b, err := git(root, "show", r.Commit+":"+name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// documents lists the OpenAPI documents in dir by name (relayer for relayer.yaml): the YAML files
// with a top-level openapi key (not the generator's and linters' configurations beside them).
func documents(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(b, []byte("openapi:")) || bytes.Contains(b, []byte("\nopenapi:")) {
			names = append(names, strings.TrimSuffix(filepath.Base(p), ".yaml"))
		}
	}
	return names, nil
}

// Compare compares the documents in dir (openapi/) with those in releasedDir, by name.
func Compare(dir, releasedDir string) ([]Document, error) {
	now, err := documents(dir)
	if err != nil {
		return nil, err
	}
	then, err := documents(releasedDir)
	if err != nil {
		return nil, err
	}
	var out []Document
	for _, name := range slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(now), then...)))) {
		d := Document{Name: name}
		var base, revision *load.SpecInfo
		if slices.Contains(then, name) {
			if base, err = loadSpec(filepath.Join(releasedDir, name+".yaml")); err != nil {
				return nil, fmt.Errorf("the release's %s.yaml: %w", name, err)
			}
			d.Released = base.Spec.Info.Version
		}
		if slices.Contains(now, name) {
			if revision, err = loadSpec(filepath.Join(dir, name+".yaml")); err != nil {
				return nil, fmt.Errorf("%s.yaml: %w", name, err)
			}
			d.Version = revision.Spec.Info.Version
		}
		if err := d.judge(base, revision); err != nil {
			return nil, fmt.Errorf("%s.yaml: %w", name, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// loadSpec loads a document and what it refers to (other files beside it).
func loadSpec(path string) (*load.SpecInfo, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = true
	return load.NewSpecInfo(loader, load.NewSource(path))
}

// judge fills in d's changes and its problems: the rules docs/releasing.md states.
func (d *Document) judge(base, revision *load.SpecInfo) error {
	switch {
	case revision == nil:
		d.Changed, d.Breaking = true, true
		d.Problems = append(d.Problems, fmt.Sprintf("removed since the release (%s): its clients break; a document is not removed", d.Released))
		return nil
	case base == nil:
		d.Changed = true
		if _, ok := parseSemver(d.Version); !ok {
			d.Problems = append(d.Problems, fmt.Sprintf("info.version %q is not a semantic version (MAJOR.MINOR.PATCH)", d.Version))
		}
		return nil
	}
	// Compared at the same info.version, so that the version itself is no change: what is left
	// is what the document says.
	revised := *revision.Spec.Info
	revised.Version = base.Spec.Info.Version
	saved := revision.Spec.Info
	revision.Spec.Info = &revised
	report, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), base, revision)
	revision.Spec.Info = saved
	if err != nil {
		return err
	}
	d.Changed = !report.Empty()
	l := checker.NewDefaultLocalizer()
	for _, c := range checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), report, sources, checker.INFO) {
		level := map[checker.Level]string{checker.ERR: "breaking", checker.WARN: "warning"}[c.GetLevel()]
		if level == "" {
			level = "info"
		}
		d.Breaking = d.Breaking || c.GetLevel() == checker.ERR
		op := ""
		if c.GetOperation() != "" {
			op = c.GetOperation() + " " + c.GetPath()
		}
		d.Changes = append(d.Changes, Change{Level: level, Operation: op, Text: c.GetUncolorizedText(l)})
	}
	order := map[string]int{"breaking": 0, "warning": 1, "info": 2}
	slices.SortStableFunc(d.Changes, func(a, b Change) int {
		if a.Level != b.Level {
			return order[a.Level] - order[b.Level]
		}
		if a.Operation != b.Operation {
			return strings.Compare(a.Operation, b.Operation)
		}
		return strings.Compare(a.Text, b.Text)
	})
	d.Changes = slices.Compact(d.Changes)

	then, ok := parseSemver(d.Released)
	if !ok {
		return fmt.Errorf("the release's info.version %q is not a semantic version", d.Released)
	}
	now, ok := parseSemver(d.Version)
	switch {
	case !ok:
		d.Problems = append(d.Problems, fmt.Sprintf("info.version %q is not a semantic version (MAJOR.MINOR.PATCH)", d.Version))
	case now.less(then):
		d.Problems = append(d.Problems, fmt.Sprintf("info.version %s is below the release's %s", d.Version, d.Released))
	case d.Breaking && now.major <= then.major:
		d.Problems = append(d.Problems, fmt.Sprintf("breaks clients of the release (%s) at info.version %s: raise the major version, or keep the change compatible", d.Released, d.Version))
	case d.Changed && now == then:
		d.Problems = append(d.Problems, fmt.Sprintf("changed since the release at the same info.version %s: raise the minor version (a new field or route) or the patch version (words alone)", d.Version))
	}
	return nil
}

// semver is a MAJOR.MINOR.PATCH version.
type semver struct{ major, minor, patch int }

// parseSemver parses MAJOR.MINOR.PATCH (no pre-release or build: a document's version is what
// the relayer's GET /status answers as apiVersion, ^[0-9]+\.[0-9]+\.[0-9]+$).
func parseSemver(v string) (semver, bool) {
	m := regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`).FindStringSubmatch(v)
	if m == nil {
		return semver{}, false
	}
	var n [3]int
	for i := range n {
		var err error
		if n[i], err = strconv.Atoi(m[i+1]); err != nil {
			return semver{}, false
		}
	}
	return semver{n[0], n[1], n[2]}, true
}

func (a semver) less(b semver) bool {
	if a.major != b.major {
		return a.major < b.major
	}
	if a.minor != b.minor {
		return a.minor < b.minor
	}
	return a.patch < b.patch
}

// Changelog is CHANGELOG.md: per document, what changed since the release.
func Changelog(r Release, docs []Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# API changes since %s\n\n", r.Tag)
	fmt.Fprintf(&b, "What changed in each OpenAPI document (`openapi/*.yaml`, what each service serves at\n"+
		"`/admin/openapi.yaml`) since the release %s (commit %s), as [oasdiff](https://github.com/oasdiff/oasdiff)\n"+
		"reports it: a **breaking** change comes with a new major version; a *warning* may break a client\n"+
		"that relies on what it changed. Written by `go -C openapi/compat run . -write`, checked in CI\n"+
		"(docs/releasing.md).\n", r.Tag, r.Commit[:12])
	for _, d := range docs {
		switch {
		case d.Version == "":
			fmt.Fprintf(&b, "\n## %s: removed (was %s)\n", d.Name, d.Released)
			continue
		case d.Released == "":
			fmt.Fprintf(&b, "\n## %s %s: new\n", d.Name, d.Version)
			continue
		case !d.Changed:
			fmt.Fprintf(&b, "\n## %s %s: unchanged\n", d.Name, d.Version)
			continue
		}
		fmt.Fprintf(&b, "\n## %s %s → %s\n\n", d.Name, d.Released, d.Version)
		if len(d.Changes) == 0 {
			b.WriteString("- Descriptions or examples only.\n")
		}
		for _, c := range d.Changes {
			b.WriteString("- ")
			switch c.Level {
			case "breaking":
				b.WriteString("**breaking**: ")
			case "warning":
				b.WriteString("*warning*: ")
			}
			if c.Operation != "" {
				fmt.Fprintf(&b, "`%s`: ", c.Operation)
			}
			b.WriteString(strings.ReplaceAll(c.Text, "\n", " ") + "\n")
		}
	}
	return b.String()
}
