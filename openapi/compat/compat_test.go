package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's documents keep the rules against the release openapi/released names, and
// CHANGELOG.md is what they say: CI's check.
func TestRepository(t *testing.T) {
	out, err := git(".", "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	report, err := Check(strings.TrimSpace(string(out)), false)
	t.Log("\n" + report)
	if err != nil {
		t.Fatal(err)
	}
}

// A release's commit this clone has not got (a shallow clone) fails the check with what to do.
func TestMissingReleaseCommit(t *testing.T) {
	err := releasedFiles("..", Release{Tag: "v9.9.9", Commit: strings.Repeat("0", 40)}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not in this clone") || !strings.Contains(err.Error(), "fetch-depth 0") {
		t.Fatalf("err %v: want the commit missing from this clone, and how to fetch it", err)
	}
}

// doc is a small document: its version, and its Health schema's properties after status (each
// of them required).
func doc(version, more string) string {
	required := "status"
	if strings.Contains(more, "uptime:") {
		required += ", uptime"
	}
	return `openapi: 3.0.3
info:
  title: test
  version: ` + version + `
paths:
  /health:
    get:
      operationId: getHealth
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Health"
components:
  schemas:
    Health:
      type: object
      required: [` + required + `]
      properties:
        status:
          type: string
` + more
}

const (
	uptimeField = `        uptime:
          type: integer
`
	versionField = `        version:
          type: string
`
)

// Each rule: unchanged is fine at the same version; a change needs a higher version; a break a
// higher major; a version is MAJOR.MINOR.PATCH and never goes down; a document is never removed.
func TestRules(t *testing.T) {
	released := doc("1.2.0", uptimeField)
	for _, c := range []struct {
		name, now string // now "": the document is removed
		problem   string // "": none
		breaking  bool
	}{
		{"unchanged", released, "", false},
		{"a field added, version raised", doc("1.3.0", uptimeField+versionField), "", false},
		{"a field added, same version", doc("1.2.0", uptimeField+versionField), "same info.version", false},
		{"words alone, patch raised", strings.Replace(doc("1.2.1", uptimeField), "description: ok", "description: fine", 1), "", false},
		{"words alone, same version", strings.Replace(released, "description: ok", "description: fine", 1), "same info.version", false},
		{"a field removed, minor raised", doc("1.3.0", ""), "raise the major", true},
		{"a field removed, major raised", doc("2.0.0", ""), "", true},
		{"not semantic", doc("v1.3.0", uptimeField), "not a semantic version", false},
		{"lowered", doc("1.1.0", uptimeField), "below the release", false},
		{"removed", "", "removed since the release", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			then, now := t.TempDir(), t.TempDir()
			write(t, then, "test.yaml", released)
			write(t, then, "test.cfg.yaml", "package: test\n") // not a document
			if c.now != "" {
				write(t, now, "test.yaml", c.now)
			}
			docs, err := Compare(now, then)
			if err != nil || len(docs) != 1 {
				t.Fatalf("%v, %+v: want one document", err, docs)
			}
			d := docs[0]
			problems := strings.Join(d.Problems, "; ")
			if (c.problem == "") != (problems == "") || !strings.Contains(problems, c.problem) || d.Breaking != c.breaking {
				t.Fatalf("problems %q, breaking %v (changes %+v): want %q, %v", problems, d.Breaking, d.Changes, c.problem, c.breaking)
			}
		})
	}
}

// A new document needs a semantic version alone; the changelog says it is new, and names each
// change of a changed one with its operation, breaking ones marked.
func TestChangelog(t *testing.T) {
	then, now := t.TempDir(), t.TempDir()
	write(t, then, "a.yaml", doc("1.0.0", uptimeField))
	write(t, now, "a.yaml", doc("2.0.0", ""))
	write(t, now, "b.yaml", doc("0.1.0", ""))
	docs, err := Compare(now, then)
	if err != nil || len(docs) != 2 || len(docs[0].Problems)+len(docs[1].Problems) != 0 {
		t.Fatalf("%v %+v: want two documents and no problem", err, docs)
	}
	log := Changelog(Release{Tag: "v1.0.0", Commit: strings.Repeat("ab", 20)}, docs)
	for _, want := range []string{"# API changes since v1.0.0", "## a 1.0.0 → 2.0.0", "- **breaking**: `GET /health`: ", "`uptime`", "## b 0.1.0: new"} {
		if !strings.Contains(log, want) {
			t.Errorf("the changelog lacks %q:\n%s", want, log)
		}
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
