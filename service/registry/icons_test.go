package registry

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
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

// status is the HTTP status err is answered with (through answers.go's answer), 0 for nil.
func status(err error) int {
	if err == nil {
		return 0
	}
	return answer(err).Status
}

func TestParseIconField(t *testing.T) {
	t.Parallel()
	png := IconForTest("png", 32, 32, 1)
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
		{"https://h/" + strings.Repeat("ä", 1015), "", false, 400}, // 2,040 bytes, 6,000 characters escaped as stored
		{"data:text/html;base64," + b64, "", false, 400},
		{"data:image/png," + b64, "", false, 400},
		{"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte("<svg/>")), "", false, 415},
		{base64.StdEncoding.EncodeToString([]byte("plain text")), "", false, 415},
		{base64.StdEncoding.EncodeToString(append(png, make([]byte, 1000)...)), "", false, 413},
		{base64.StdEncoding.EncodeToString(IconForTest("gif", 32, 32, 1)), "", false, 415},
		{base64.StdEncoding.EncodeToString(IconForTest("png", 16, 16, 1)), "", false, 422},
		{"not base64 !!!", "", false, 400},
	} {
		f, err := ParseIconField(c.in, int64(len(png)+100))
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

// FuzzParseIconField: any input is either refused with a client error (400, 413, 415, 422), or
// gives an http(s) URL, or image bytes of a known format within the limit — never a panic,
// never a 500, never another scheme.
func FuzzParseIconField(f *testing.F) {
	png := string(IconForTest("png", 32, 32, 1))
	for _, s := range []string{"", "https://example.com/i.png", "javascript:alert(1)", "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(png)),
		base64.StdEncoding.EncodeToString([]byte(png)), base64.StdEncoding.EncodeToString([]byte("GIF89a")), "data:image/svg+xml;base64,PHN2Zy8+", "http://[::1", "data:,"} {
		f.Add(s)
	}
	const max = 1024
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseIconField(s, max)
		if err != nil {
			if st := status(err); st != http.StatusBadRequest && st != http.StatusRequestEntityTooLarge && st != http.StatusUnsupportedMediaType && st != http.StatusUnprocessableEntity {
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
			if _, err := CheckIcon(v.Data); err != nil || len(v.Data) > max {
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

// CheckIcon takes what wallets show well: PNG, JPEG and WebP (its three headers), square, 32 to
// 512 pixels a side; GIF, unreadable headers, other shapes and sizes get their own reasons.
func TestCheckIcon(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		data   []byte
		ext    string
		reason Reason
	}{
		{"png 32", IconForTest("png", 32, 32, 1), "png", 0},
		{"png 512", IconForTest("png", 512, 512, 1), "png", 0},
		{"jpeg 64", IconForTest("jpg", 64, 64, 1), "jpg", 0},
		{"webp lossless 128", IconForTest("webp-lossless", 128, 128, 1), "webp", 0},
		{"webp lossy 256", IconForTest("webp-lossy", 256, 256, 1), "webp", 0},
		{"webp extended 48", IconForTest("webp-extended", 48, 48, 1), "webp", 0},
		{"gif", IconForTest("gif", 64, 64, 1), "", UnsupportedImage},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`), "", UnsupportedImage},
		{"png signature only", []byte("\x89PNG\r\n\x1a\n0123456789"), "", UnsupportedImage},
		{"webp signature only", []byte("RIFF\x04\x00\x00\x00WEBP"), "", UnsupportedImage},
		{"png 31", IconForTest("png", 31, 31, 1), "", IconDimensions},
		{"png 513", IconForTest("png", 513, 513, 1), "", IconDimensions},
		{"png 64×48", IconForTest("png", 64, 48, 1), "", IconDimensions},
		{"jpeg 16", IconForTest("jpg", 16, 16, 1), "", IconDimensions},
		{"webp lossless 64×65", IconForTest("webp-lossless", 64, 65, 1), "", IconDimensions},
		{"webp lossy 1024", IconForTest("webp-lossy", 1024, 1024, 1), "", IconDimensions},
		{"webp extended 600×600", IconForTest("webp-extended", 600, 600, 1), "", IconDimensions},
	} {
		ext, err := CheckIcon(c.data)
		var te *TokenError
		switch {
		case c.reason == 0 && (err != nil || ext != c.ext):
			t.Errorf("%s: %q, %v; want %q", c.name, ext, err, c.ext)
		case c.reason != 0 && (!errors.As(err, &te) || te.Reason != c.reason):
			t.Errorf("%s: %v, want reason %d", c.name, err, c.reason)
		}
	}
}
