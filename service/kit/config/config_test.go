package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A secret comes from its variable or from the file NAME_FILE names, never both; problems name
// the variable, never the value.
func TestSecretFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "admin")
	if err := os.WriteFile(file, []byte("  s3cret-from-a-file-0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, c := range []struct {
		name    string
		vars    map[string]string
		want    string
		problem string
	}{
		{"variable", map[string]string{"KEY": " s3cret "}, "s3cret", ""},
		{"file", map[string]string{"KEY_FILE": file}, "s3cret-from-a-file-0123", ""},
		{"both", map[string]string{"KEY": "s3cret", "KEY_FILE": file}, "", "set KEY or KEY_FILE, not both"},
		{"missing file", map[string]string{"KEY_FILE": filepath.Join(dir, "nope")}, "", "KEY_FILE: open"},
		{"empty file", map[string]string{"KEY_FILE": empty}, "", "KEY_FILE: " + empty + " is empty"},
		{"neither", nil, "", "KEY (or KEY_FILE) is required"},
	} {
		e := NewEnv(func(k string) string { return c.vars[k] })
		got := e.Secret("KEY")
		err := e.Err()
		switch {
		case got != c.want:
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		case c.problem == "" && err != nil, c.problem != "" && (err == nil || !strings.Contains(err.Error(), c.problem)):
			t.Errorf("%s: problem %v, want %q", c.name, err, c.problem)
		case err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Count(err.Error(), "\n") > 0):
			t.Errorf("%s: one problem, without the value: %v", c.name, err)
		}
	}
}

// LOG_LEVEL is one of the four names the documentation gives, in any case; slog's offsets
// (info+2) and anything else are a problem.
func TestLogLevel(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]string{"": "INFO", "debug": "DEBUG", "INFO": "INFO", "Warn": "WARN", "error": "ERROR"} {
		e := NewEnv(func(string) string { return v })
		if got := e.LogLevel().String(); got != want || e.Err() != nil {
			t.Errorf("LOG_LEVEL=%q: %s %v, want %s", v, got, e.Err(), want)
		}
	}
	for _, v := range []string{"info+3", "warning", "2", "trace"} {
		e := NewEnv(func(string) string { return v })
		if e.LogLevel(); e.Err() == nil || !strings.Contains(e.Err().Error(), "LOG_LEVEL must be debug, info, warn or error") {
			t.Errorf("LOG_LEVEL=%q: %v", v, e.Err())
		}
	}
}
