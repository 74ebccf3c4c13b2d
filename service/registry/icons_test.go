package registry

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/platform"
)

func TestDetectImage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		data string
		ext  string
	}{
		{"\x89PNG\r\n\x1a\nrest", "png"},
		{"\xff\xd8\xff\xe0rest", "jpg"},
		{"GIF87a...", "gif"},
		{"GIF89a...", "gif"},
		{"RIFF\x10\x00\x00\x00WEBPVP8 ", "webp"},
		{"RIFF\x10\x00\x00\x00WAVEfmt ", ""},
		{`<svg xmlns="http://www.w3.org/2000/svg"/>`, ""},
		{`<?xml version="1.0"?><svg/>`, ""},
		{"\x89PN", ""},
		{"", ""},
	} {
		ext, ok := DetectImage([]byte(c.data))
		if ext != c.ext || ok != (c.ext != "") {
			t.Errorf("DetectImage(%q) = %q, %v; want %q", c.data, ext, ok, c.ext)
		}
	}
}

// status is the HTTP status err is answered with (through api.go's table).
func status(err error) int {
	var e *platform.Error
	if errors.As(httpError(err), &e) {
		return e.Status
	}
	return 0
}

func TestParseIconField(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\n0123456789")
	b64 := base64.StdEncoding.EncodeToString(png)
	for _, c := range []struct {
		in     string
		url    string
		data   bool
		status int
	}{
		{"", "", false, 0},
		{"  ", "", false, 0},
		{"https://example.com/a.png", "https://example.com/a.png", false, 0},
		{"HTTP://example.com/a.png", "http://example.com/a.png", false, 0},
		{"data:image/png;base64," + b64, "", true, 0},
		{"DATA:IMAGE/PNG;BASE64," + b64, "", true, 0},
		{b64, "", true, 0},
		{strings.TrimRight(b64, "="), "", true, 0},
		{b64[:10] + "\n" + b64[10:], "", true, 0},
		{"javascript:alert(1)", "", false, 400},
		{"JaVaScRiPt:alert(1)", "", false, 400},
		{"ftp://example.com/a.png", "", false, 400},
		{"file:///etc/passwd", "", false, 400},
		{"https://", "", false, 400},
		{"https://user:pw@example.com/a.png", "", false, 400},
		{"https://example.com/" + strings.Repeat("a", 3000), "", false, 400},
		{"data:text/html;base64," + b64, "", false, 400},
		{"data:image/png," + b64, "", false, 400},
		{"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte("<svg/>")), "", false, 415},
		{base64.StdEncoding.EncodeToString([]byte("plain text")), "", false, 415},
		{base64.StdEncoding.EncodeToString(append(png, make([]byte, 100)...)), "", false, 413},
		{"not base64 !!!", "", false, 400},
	} {
		f, err := ParseIconField(c.in, 64)
		if got := status(err); got != c.status || (err != nil) != (c.status != 0) {
			t.Errorf("ParseIconField(%.40q): err %v (status %d), want status %d", c.in, err, got, c.status)
			continue
		}
		if err == nil && (f.URL != c.url || (f.Data != nil) != c.data) {
			t.Errorf("ParseIconField(%.40q) = %+v", c.in, f)
		}
		if c.data && err == nil && !bytes.Equal(f.Data, png) {
			t.Errorf("ParseIconField(%.40q) decoded %q", c.in, f.Data)
		}
	}
}

// FuzzParseIconField: any input is either refused with a client error (400, 413, 415), or
// gives an http(s) URL, or image bytes of a known format within the limit — never a panic,
// never a 500, never another scheme.
func FuzzParseIconField(f *testing.F) {
	png := "\x89PNG\r\n\x1a\n0123"
	for _, s := range []string{"", "https://example.com/i.png", "javascript:alert(1)", "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(png)),
		base64.StdEncoding.EncodeToString([]byte(png)), base64.StdEncoding.EncodeToString([]byte("GIF89a")), "data:image/svg+xml;base64,PHN2Zy8+", "http://[::1", "data:,"} {
		f.Add(s)
	}
	const max = 256
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseIconField(s, max)
		if err != nil {
			if st := status(err); st != http.StatusBadRequest && st != http.StatusRequestEntityTooLarge && st != http.StatusUnsupportedMediaType {
				t.Fatalf("%q: status %d (%v)", s, st, err)
			}
			return
		}
		switch {
		case v.URL != "" && v.Data != nil:
			t.Fatalf("%q: both a URL and data", s)
		case v.URL != "":
			l := strings.ToLower(v.URL)
			if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") {
				t.Fatalf("%q: accepted URL %q", s, v.URL)
			}
		case v.Data != nil:
			if _, ok := DetectImage(v.Data); !ok || len(v.Data) > max {
				t.Fatalf("%q: accepted %d bytes of an unknown format", s, len(v.Data))
			}
			name := iconFileName(common.Address{}, v.Data, "png")
			if !iconFilePattern.MatchString(name) {
				t.Fatalf("stored name %q does not match the stored-icon pattern", name)
			}
		default:
			if strings.TrimSpace(s) != "" {
				t.Fatalf("%q: accepted as 'no icon'", s)
			}
		}
	})
}

// FuzzDetectImage: detection never panics and agrees with the magic numbers.
func FuzzDetectImage(f *testing.F) {
	for _, s := range []string{"\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "GIF89a", "RIFF0000WEBP", "<svg/>", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ext, ok := DetectImage(b)
		if ok != (ext != "") {
			t.Fatalf("ok %v with ext %q", ok, ext)
		}
		if ok && bytes.Contains(b[:min(len(b), 16)], []byte("<svg")) {
			t.Fatalf("svg accepted as %s", ext)
		}
	})
}
