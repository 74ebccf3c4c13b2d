package registry

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
)

// IconForTest is a w×h image in format (png, jpg, gif; webp-lossless, webp-lossy, webp-extended),
// seed varying its pixels. PNG, JPEG and GIF are whole images encoded by the standard library.
// Go has no WebP encoder and none is installed here, so the WebP ones are a RIFF container whose
// one chunk holds a true VP8L, VP8 or VP8X header followed by no image data: the header is all
// CheckIcon (and a browser's first look) reads, and what each test with them checks.
func IconForTest(format string, w, h int, seed byte) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = seed + byte(i%7)
	}
	var buf bytes.Buffer
	switch format {
	case "png":
		_ = png.Encode(&buf, img)
	case "jpg":
		_ = jpeg.Encode(&buf, img, nil)
	case "gif":
		_ = gif.Encode(&buf, img, &gif.Options{NumColors: 2})
	case "webp-lossless":
		bits := uint32(w-1) | uint32(h-1)<<14 | 1<<28
		chunk := append([]byte{0x2f}, binary.LittleEndian.AppendUint32(nil, bits)...)
		return riff("VP8L", chunk)
	case "webp-lossy":
		firstPart := uint32(16)
		tag := firstPart<<5 | 1<<4 // a key frame (bit 0 clear), version 0, shown
		chunk := []byte{byte(tag), byte(tag >> 8), byte(tag >> 16), 0x9d, 0x01, 0x2a}
		chunk = binary.LittleEndian.AppendUint16(chunk, uint16(w))
		chunk = binary.LittleEndian.AppendUint16(chunk, uint16(h))
		return riff("VP8 ", append(chunk, make([]byte, 16)...))
	case "webp-extended":
		chunk := []byte{0, 0, 0, 0}
		chunk = append(chunk, byte(w-1), byte((w-1)>>8), byte((w-1)>>16))
		chunk = append(chunk, byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
		return riff("VP8X", chunk)
	}
	return buf.Bytes()
}

// riff wraps one chunk in a WebP RIFF container.
func riff(fourCC string, chunk []byte) []byte {
	if len(chunk)%2 == 1 {
		chunk = append(chunk, 0)
	}
	body := append([]byte("WEBP"+fourCC), binary.LittleEndian.AppendUint32(nil, uint32(len(chunk)))...)
	body = append(body, chunk...)
	return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
}
