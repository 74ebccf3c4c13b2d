package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/image/webp"

	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// DetectImage names the image format of b from its first bytes, as the file extension the
// icon is stored under. Only PNG, JPEG, GIF and WebP are recognised; SVG is not (it can carry
// scripts).
func DetectImage(b []byte) (ext string, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png", true
	case bytes.HasPrefix(b, []byte("\xff\xd8\xff")):
		return "jpg", true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif", true
	case len(b) >= 12 && bytes.Equal(b[:4], []byte("RIFF")) && bytes.Equal(b[8:12], []byte("WEBP")):
		return "webp", true
	}
	return "", false
}

// IconField is the parsed `icon` field of POST /tokens: an external URL, image bytes to store,
// or neither (remove the icon).
type IconField struct {
	URL  string
	Data []byte
}

const maxIconURL = 2048

var errUnsupportedImage = refuse(UnsupportedImage, "icon must be a PNG, JPEG or WebP image")

// What wallets show well: a square icon, 32 to 512 pixels a side (and at most ICON_MAX_BYTES,
// 100 KiB by default), PNG, JPEG or WebP.
const (
	iconMinSide = 32
	iconMaxSide = 512
)

// CheckIcon checks an icon's bytes before anything stores them: a PNG, JPEG or WebP image (GIF
// and SVG are refused: UnsupportedImage), whose header can be read, square, 32 to 512 pixels a
// side (IconDimensions). It returns the extension it is stored under.
func CheckIcon(data []byte) (ext string, err error) {
	ext, ok := DetectImage(data)
	if !ok || ext == "gif" {
		return "", errUnsupportedImage
	}
	decode := map[string]func(io.Reader) (image.Config, error){"png": png.DecodeConfig, "jpg": jpeg.DecodeConfig, "webp": webp.DecodeConfig}[ext]
	c, err := decode(bytes.NewReader(data))
	if err != nil {
		return "", refuse(UnsupportedImage, "icon is not a readable %s image: %v", strings.ToUpper(ext), err)
	}
	if c.Width != c.Height {
		return "", refuse(IconDimensions, "icon is %d×%d pixels: it must be square", c.Width, c.Height)
	}
	if c.Width < iconMinSide || c.Width > iconMaxSide {
		return "", refuse(IconDimensions, "icon is %d×%d pixels: it must be %d to %d pixels a side", c.Width, c.Height, iconMinSide, iconMaxSide)
	}
	return ext, nil
}

func iconTooLarge(max int64) error { return refuse(IconTooLarge, "icon is larger than %d bytes", max) }

// ParseIconField reads the icon field: an http(s) URL, a data:image/...;base64, URI, bare
// base64, or "" (no icon). Decoded images must be at most max bytes and of a known format.
func ParseIconField(s string, max int64) (IconField, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return IconField{}, nil
	}
	lower := strings.ToLower(s)
	if strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || u.User != nil || len(u.String()) > maxIconURL { // as stored: escaped
			return IconField{}, refuse(BadIcon, "field \"icon\": not a valid http(s) URL of at most %d characters", maxIconURL)
		}
		return IconField{URL: u.String()}, nil
	}
	payload := s
	if strings.HasPrefix(lower, "data:") {
		meta, data, ok := strings.Cut(s[len("data:"):], ",")
		if !ok || !strings.HasPrefix(strings.ToLower(meta), "image/") || !strings.HasSuffix(strings.ToLower(meta), ";base64") {
			return IconField{}, refuse(BadIcon, "field \"icon\": a data URI must have the form data:image/<type>;base64,<data>")
		}
		payload = data
	}
	data, ok := decodeBase64(payload)
	if !ok {
		return IconField{}, refuse(BadIcon, "field \"icon\": must be an http(s) URL, a data:image/<type>;base64, URI, or base64 image data")
	}
	if int64(len(data)) > max {
		return IconField{}, iconTooLarge(max)
	}
	if _, err := CheckIcon(data); err != nil {
		return IconField{}, err
	}
	return IconField{Data: data}, nil
}

// decodeBase64 accepts standard or URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, bool) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return nil, false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) > 0 {
			return b, true
		}
	}
	return nil, false
}

// iconFileName is the stored name of an icon: the lowercase token address, the first 8 hex
// digits of the image's SHA-256, and the extension of its detected format. Nothing the client
// sent (a file name, a content type) enters it.
func iconFileName(token common.Address, data []byte, ext string) string {
	sum := sha256.Sum256(data)
	return strings.ToLower(token.Hex()) + "-" + hex.EncodeToString(sum[:4]) + "." + ext
}

var iconFilePattern = regexp.MustCompile(`^0x[0-9a-f]{40}-[0-9a-f]{8}\.(png|jpg|gif|webp)$`)

// IconStore keeps icon files in one directory.
type IconStore struct {
	Dir string
}

// Save stores data for token atomically and returns the file's name.
func (s IconStore) Save(icon *newIcon) error {
	if err := atomicfile.Write(filepath.Join(s.Dir, icon.name), icon.data); err != nil {
		return fmt.Errorf("store icon: %w", err)
	}
	return nil
}

// newIcon is an image to store for a token, under its content-addressed name.
type newIcon struct {
	name string
	data []byte
}

// iconOf is data as token's icon to store, or errUnsupportedImage.
func iconOf(token common.Address, data []byte) (*newIcon, error) {
	ext, ok := DetectImage(data)
	if !ok {
		return nil, errUnsupportedImage
	}
	return &newIcon{name: iconFileName(token, data, ext), data: data}, nil
}

// Remove deletes a stored icon; only names of the stored-icon form are ever removed.
func (s IconStore) Remove(name string) error {
	if !iconFilePattern.MatchString(name) {
		return nil
	}
	err := os.Remove(filepath.Join(s.Dir, name))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}
