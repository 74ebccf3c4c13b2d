// Package config reads a service's settings from environment variables: typed, with defaults,
// secrets also from files (NAME_FILE), and every problem collected so that a bad configuration
// is reported all at once. Each concern's Load function reads its variables through an Env and
// its Validate checks what spans several of them.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Env reads typed settings from environment variables and collects every problem, so a bad
// configuration is reported all at once. Messages name the variable, never its value when the
// variable is a secret.
type Env struct {
	getenv func(string) string
	errs   []error
}

// NewEnv reads from getenv (os.Getenv in production, a map in tests).
func NewEnv(getenv func(string) string) *Env { return &Env{getenv: getenv} }

// Err returns every problem found so far, joined, or nil.
func (e *Env) Err() error { return errors.Join(e.errs...) }

// Fail records a problem.
func (e *Env) Fail(format string, args ...any) { e.errs = append(e.errs, fmt.Errorf(format, args...)) }

// String returns the variable or def when it is unset or empty.
func (e *Env) String(name, def string) string {
	if v := strings.TrimSpace(e.getenv(name)); v != "" {
		return v
	}
	return def
}

// Secret returns a required secret (see OptionalSecret). A missing secret is a problem; its
// value is never part of a message.
func (e *Env) Secret(name string) string {
	problems := len(e.errs)
	v := e.OptionalSecret(name)
	if v == "" && len(e.errs) == problems {
		e.Fail("%s (or %s_FILE) is required", name, name)
	}
	return v
}

// OptionalSecret returns the secret in the variable name, or in the file that name_FILE names
// (how Docker and Kubernetes hand secrets over), trimmed; "" when neither is set. Its value is
// never part of a message.
func (e *Env) OptionalSecret(name string) string {
	v := strings.TrimSpace(e.getenv(name))
	file := strings.TrimSpace(e.getenv(name + "_FILE"))
	switch {
	case file == "":
		return v
	case v != "":
		e.Fail("set %s or %s_FILE, not both", name, name)
		return ""
	}
	data, err := os.ReadFile(file)
	if err != nil {
		e.Fail("%s_FILE: %v", name, err)
		return ""
	}
	if v = strings.TrimSpace(string(data)); v == "" {
		e.Fail("%s_FILE: %s is empty", name, file)
	}
	return v
}

// IsHTTPURL reports whether s is an absolute http(s) URL with a host (an endpoint a service
// POSTs to or reads from).
func IsHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Int returns the variable as an integer in [min, max].
func (e *Env) Int(name string, def, min, max int64) int64 {
	s := e.String(name, "")
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < min || v > max {
		e.Fail("%s must be an integer from %d to %d, got %q", name, min, max, s)
		return def
	}
	return v
}

// Uint returns the variable as an unsigned integer, 0 when unset.
func (e *Env) Uint(name string) uint64 {
	s := e.String(name, "")
	if s == "" {
		return 0
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		e.Fail("%s must be a positive integer, got %q", name, s)
	}
	return v
}

// Bool returns the variable as a boolean (true/false/1/0/yes/no/on/off).
func (e *Env) Bool(name string, def bool) bool {
	switch strings.ToLower(e.String(name, "")) {
	case "":
		return def
	case "1", "true", "yes", "on":
		return true
	case "0", "false", "no", "off":
		return false
	default:
		e.Fail("%s must be true or false, got %q", name, e.getenv(name))
		return def
	}
}

// Duration returns the variable as a Go duration ("5s", "250ms") that is > 0.
func (e *Env) Duration(name string, def time.Duration) time.Duration {
	s := e.String(name, "")
	if s == "" {
		return def
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		e.Fail("%s must be a positive duration such as 5s or 250ms, got %q", name, s)
		return def
	}
	return d
}

// LogLevel returns LOG_LEVEL (debug, info, warn, error; default info).
// slog's own names take offsets too (info+2), which the documentation does not: one of the four.
func (e *Env) LogLevel() slog.Level {
	switch v := strings.ToLower(e.String("LOG_LEVEL", "info")); v {
	case "debug":
		return slog.LevelDebug
	case "info":
		return slog.LevelInfo
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	e.Fail("LOG_LEVEL must be debug, info, warn or error, got %q", e.getenv("LOG_LEVEL"))
	return slog.LevelInfo
}
