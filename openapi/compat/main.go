package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	write := flag.Bool("write", false, "write CHANGELOG.md rather than check that it is up to date")
	flag.Parse()
	if err := run(*write); err != nil {
		fmt.Fprintln(os.Stderr, "openapi/compat:", err)
		os.Exit(1)
	}
}

// run checks the repository this runs in (or writes its CHANGELOG.md) and says what it found.
func run(write bool) error {
	out, err := git(".", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	root := strings.TrimSpace(string(out))
	report, err := Check(root, write)
	fmt.Print(report)
	return err
}

// Check compares the documents of the repository at root with the release's and checks
// CHANGELOG.md (or writes it); its report is a line a document.
func Check(root string, write bool) (string, error) {
	r, err := readRelease(root)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "openapi-released-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := releasedFiles(root, r, dir); err != nil {
		return "", err
	}
	docs, err := Compare(filepath.Join(root, "openapi"), dir)
	if err != nil {
		return "", err
	}
	var report strings.Builder
	var problems []string
	for _, d := range docs {
		breaking := ""
		if d.Breaking {
			breaking = ", breaking"
		}
		fmt.Fprintf(&report, "%s: %s at the release %s, %s now (%d changes%s)\n", d.Name, orNone(d.Released), r.Tag, orNone(d.Version), len(d.Changes), breaking)
		for _, p := range d.Problems {
			problems = append(problems, d.Name+".yaml: "+p)
		}
	}
	changelog := filepath.Join(root, "CHANGELOG.md")
	want := []byte(Changelog(r, docs))
	if write {
		if err := os.WriteFile(changelog, want, 0o644); err != nil {
			return report.String(), err
		}
		fmt.Fprintln(&report, "wrote CHANGELOG.md")
	} else if got, err := os.ReadFile(changelog); err != nil || !bytes.Equal(got, want) {
		problems = append(problems, "CHANGELOG.md is not what the documents say: run `go -C openapi/compat run . -write` and commit it")
	}
	if len(problems) > 0 {
		return report.String(), fmt.Errorf("the API since %s:\n  %s", r.Tag, strings.Join(problems, "\n  "))
	}
	return report.String(), nil
}

func orNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}
