package zk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
)

// A sectioned proving key is the reveal circuit's Groth16 proving key in vaultd's own format
// (docs/prover.md): a small header, then each vector of points the prover multiplies by the
// witness, one section after another, so that a prover can start a section's multi-scalar
// multiplication as soon as its bytes have arrived (Share) instead of waiting for the whole
// file. Any prefix of the stream decodes without the rest.
//
// Two versions: in version 1 every point is in gnark-crypto's raw encoding (x ‖ y); version 2,
// what WriteTo writes, has the G1 sections' points compressed (x and which of the two y's, half
// the bytes: y comes back as a square root, which a prover can spread over several workers,
// Share). The header's points and section B2 are raw in both.

// sectionedMagic opens every sectioned key; its version follows.
const (
	sectionedMagic    = "vaultdPK"
	versionRaw        = 1
	versionCompressed = 2
)

// Section names one vector of points of a sectioned key.
type Section byte

// The sections. Their order in a file is the header's.
const (
	SectionA  Section = 1 // [A_i(τ)]₁ of the wires where A is not infinity
	SectionB1 Section = 2 // [B_i(τ)]₁ of the wires where B is not infinity
	SectionB2 Section = 3 // [B_i(τ)]₂ of the same wires
	SectionK  Section = 4 // [K_i(τ)/δ]₁ of the private wires
	SectionZ  Section = 5 // [τⁱ Z(τ)/δ]₁, bit-reversed, one fewer than the domain's size
)

func (s Section) String() string {
	switch s {
	case SectionA:
		return "A"
	case SectionB1:
		return "B1"
	case SectionB2:
		return "B2"
	case SectionK:
		return "K"
	case SectionZ:
		return "Z"
	}
	return fmt.Sprintf("section(%d)", byte(s))
}

// SectionOrder is the order sectioned keys are written in. The prover multiplies each section
// once it has arrived, and on a phone it multiplies slower than the key downloads: K first
// (half of B2's bytes: it has arrived sooner) sets it to work soonest, B2 next (the costliest,
// G2), and A last, the smallest, leaves the least work after the last byte when the CPU keeps up
// (docs/prover.md has the measurements).
var SectionOrder = [5]Section{SectionK, SectionB2, SectionZ, SectionB1, SectionA}

// ErrBadSectionedKey is a sectioned proving key that cannot be read: not one, another version,
// inconsistent counts, a point not in its version's encoding, or not the reveal circuit's.
var ErrBadSectionedKey = errors.New("bad sectioned proving key")

// SectionedKey is a sectioned proving key's contents: gnark's ProvingKey without the domain's
// precomputed tables (the size alone: the prover rebuilds it) and without commitment keys (the
// reveal circuit has none).
type SectionedKey struct {
	DomainSize uint64 // the FFT domain's cardinality, a power of two
	NbWires    int    // every wire: public (the constant one first), then private
	NbPublic   int    // public wires, the constant one included

	Alpha1, Beta1, Delta1 bn254.G1Affine
	Beta2, Delta2         bn254.G2Affine

	// InfinityA[i] (InfinityB[i]) is true when wire i's A (B) point is infinity: such a wire has
	// no point in section A (B1, B2).
	InfinityA, InfinityB []bool

	A, B1, K, Z []bn254.G1Affine
	B2          []bn254.G2Affine
}

// Sizes of the encoding.
const (
	g1Size           = bn254.SizeOfG1AffineUncompressed // 64
	g1CompressedSize = bn254.SizeOfG1AffineCompressed   // 32
	g2Size           = bn254.SizeOfG2AffineUncompressed // 128
	// fixedHeaderSize: magic, version, domain size, wires, public wires, the four counts
	// (A, B, K, Z), the section order, then [α]₁ [β]₁ [δ]₁ [β]₂ [δ]₂.
	fixedHeaderSize = 8 + 4 + 8 + 4 + 4 + 4*4 + 5 + 3*g1Size + 2*g2Size
	// maxWires bounds what a header may announce before anything is allocated.
	maxWires = 1 << 26
)

// pointSize is the size of one of section s's points in a key of version v.
func pointSize(v uint32, s Section) int {
	switch {
	case s == SectionB2:
		return g2Size
	case v == versionCompressed:
		return g1CompressedSize
	}
	return g1Size
}

// WriteTo writes the key in the sectioned format, version 2 (its G1 sections compressed), its
// sections in SectionOrder.
func (k *SectionedKey) WriteTo(w io.Writer) (int64, error) {
	return k.writeTo(w, SectionOrder, versionCompressed)
}

func (k *SectionedKey) writeTo(w io.Writer, order [5]Section, version uint32) (int64, error) {
	if len(k.InfinityA) != k.NbWires || len(k.InfinityB) != k.NbWires {
		return 0, errors.New("sectioned key: infinity maps of another length than the wires")
	}
	h := make([]byte, 0, fixedHeaderSize+2*bitmapSize(k.NbWires))
	h = append(h, sectionedMagic...)
	h = binary.BigEndian.AppendUint32(h, version)
	h = binary.BigEndian.AppendUint64(h, k.DomainSize)
	for _, n := range []int{k.NbWires, k.NbPublic, len(k.A), len(k.B1), len(k.K), len(k.Z)} {
		h = binary.BigEndian.AppendUint32(h, uint32(n))
	}
	for _, s := range order {
		h = append(h, byte(s))
	}
	for _, p := range []*bn254.G1Affine{&k.Alpha1, &k.Beta1, &k.Delta1} {
		b := p.RawBytes()
		h = append(h, b[:]...)
	}
	for _, p := range []*bn254.G2Affine{&k.Beta2, &k.Delta2} {
		b := p.RawBytes()
		h = append(h, b[:]...)
	}
	h = append(append(h, bitmap(k.InfinityA)...), bitmap(k.InfinityB)...)
	// What a reader would refuse is not written.
	hd := keyHeader{infinityA: k.InfinityA, infinityB: k.InfinityB}
	if err := hd.parseFixed(h); err != nil {
		return 0, err
	}
	if err := hd.check(); err != nil {
		return 0, err
	}
	n, err := w.Write(h)
	total := int64(n)
	if err != nil {
		return total, err
	}
	for _, s := range order {
		n, err := w.Write(k.section(s, version))
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// section is section s's points in the encoding of version.
func (k *SectionedKey) section(s Section, version uint32) []byte {
	if s == SectionB2 {
		buf := make([]byte, 0, len(k.B2)*g2Size)
		for i := range k.B2 {
			b := k.B2[i].RawBytes()
			buf = append(buf, b[:]...)
		}
		return buf
	}
	pts := k.g1(s)
	buf := make([]byte, 0, len(pts)*pointSize(version, s))
	for i := range pts {
		if version == versionCompressed {
			b := pts[i].Bytes()
			buf = append(buf, b[:]...)
		} else {
			b := pts[i].RawBytes()
			buf = append(buf, b[:]...)
		}
	}
	return buf
}

// WriteRawTail writes the sections that follow B2 in SectionOrder (Z, B1, A), raw as in version
// 1, one after another with no header: the key's raw tail, which a browser whose CPU cannot keep
// up with its download fetches instead of WriteTo's compressed one, to skip their square roots
// (docs/prover.md, "The raw tail"). Compressing its points gives WriteTo's bytes after B2.
func (k *SectionedKey) WriteRawTail(w io.Writer) (int64, error) {
	var total int64
	for _, s := range SectionOrder[slices.Index(SectionOrder[:], SectionB2)+1:] {
		n, err := w.Write(k.section(s, versionRaw))
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

func (k *SectionedKey) g1(s Section) []bn254.G1Affine {
	if v := k.g1ref(s); v != nil {
		return *v
	}
	return nil
}

func (k *SectionedKey) g1ref(s Section) *[]bn254.G1Affine {
	switch s {
	case SectionA:
		return &k.A
	case SectionB1:
		return &k.B1
	case SectionK:
		return &k.K
	case SectionZ:
		return &k.Z
	}
	return nil
}

func bitmapSize(n int) int { return (n + 7) / 8 }

// bitmap packs b, bit i of byte i/8 (least significant first) for b[i].
func bitmap(b []bool) []byte {
	out := make([]byte, bitmapSize(len(b)))
	for i, v := range b {
		if v {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

func unbitmap(m []byte, n int) ([]bool, error) {
	out := make([]bool, n)
	for i := range out {
		out[i] = m[i/8]&(1<<(i%8)) != 0
	}
	if n%8 != 0 && m[len(m)-1]>>(n%8) != 0 {
		return nil, fmt.Errorf("%w: infinity map has bits past the last wire", ErrBadSectionedKey)
	}
	return out, nil
}

func countTrue(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// keyHeader is a sectioned key's header, parsed.
type keyHeader struct {
	version               uint32
	domainSize            uint64
	nbWires, nbPublic     int
	nA, nB, nK, nZ        int
	order                 [5]Section
	alpha1, beta1, delta1 bn254.G1Affine
	beta2, delta2         bn254.G2Affine
	infinityA, infinityB  []bool
}

// size is the whole header's size once its fixed part is known.
func (h *keyHeader) size() int { return fixedHeaderSize + 2*bitmapSize(h.nbWires) }

// count is the number of points of section s.
func (h *keyHeader) count(s Section) int {
	switch s {
	case SectionA:
		return h.nA
	case SectionB1, SectionB2:
		return h.nB
	case SectionK:
		return h.nK
	case SectionZ:
		return h.nZ
	}
	return 0
}

// parseFixed reads the header's fixed part (b holds at least fixedHeaderSize bytes).
func (h *keyHeader) parseFixed(b []byte) error {
	if string(b[:8]) != sectionedMagic {
		return fmt.Errorf("%w: it does not start with %q", ErrBadSectionedKey, sectionedMagic)
	}
	h.version = binary.BigEndian.Uint32(b[8:])
	if h.version != versionRaw && h.version != versionCompressed {
		return fmt.Errorf("%w: version %d, this prover reads versions %d and %d", ErrBadSectionedKey, h.version, versionRaw, versionCompressed)
	}
	h.domainSize = binary.BigEndian.Uint64(b[12:])
	var counts [6]int
	for i := range counts {
		counts[i] = int(binary.BigEndian.Uint32(b[20+4*i:]))
	}
	h.nbWires, h.nbPublic, h.nA, h.nB, h.nK, h.nZ = counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
	if h.nbWires > maxWires || h.domainSize == 0 || h.domainSize > maxWires || h.domainSize&(h.domainSize-1) != 0 {
		return fmt.Errorf("%w: %d wires, a domain of %d", ErrBadSectionedKey, h.nbWires, h.domainSize)
	}
	seen := map[Section]bool{}
	for i := range h.order {
		s := Section(b[44+i])
		if s < SectionA || s > SectionZ || seen[s] {
			return fmt.Errorf("%w: section order %v", ErrBadSectionedKey, b[44:49])
		}
		seen[s] = true
		h.order[i] = s
	}
	off := 49
	for _, p := range []*bn254.G1Affine{&h.alpha1, &h.beta1, &h.delta1} {
		if err := decodeG1(p, b[off:]); err != nil {
			return err
		}
		off += g1Size
	}
	for _, p := range []*bn254.G2Affine{&h.beta2, &h.delta2} {
		if err := decodeG2(p, b[off:]); err != nil {
			return err
		}
		off += g2Size
	}
	return nil
}

// parseMaps reads the infinity maps that follow the fixed part (b is the whole header).
func (h *keyHeader) parseMaps(b []byte) error {
	m := bitmapSize(h.nbWires)
	var err error
	if h.infinityA, err = unbitmap(b[fixedHeaderSize:fixedHeaderSize+m], h.nbWires); err != nil {
		return err
	}
	if h.infinityB, err = unbitmap(b[fixedHeaderSize+m:fixedHeaderSize+2*m], h.nbWires); err != nil {
		return err
	}
	return h.check()
}

// check refuses counts that disagree with each other.
func (h *keyHeader) check() error {
	bad := func(what string, got, want int) error {
		return fmt.Errorf("%w: %d %s points, want %d", ErrBadSectionedKey, got, what, want)
	}
	switch {
	case h.nbPublic < 1 || h.nbPublic > h.nbWires:
		return fmt.Errorf("%w: %d public wires of %d", ErrBadSectionedKey, h.nbPublic, h.nbWires)
	case h.nA != h.nbWires-countTrue(h.infinityA):
		return bad("A", h.nA, h.nbWires-countTrue(h.infinityA))
	case h.nB != h.nbWires-countTrue(h.infinityB):
		return bad("B", h.nB, h.nbWires-countTrue(h.infinityB))
	case h.nK != h.nbWires-h.nbPublic:
		return bad("K", h.nK, h.nbWires-h.nbPublic)
	case uint64(h.nZ) != h.domainSize-1:
		return bad("Z", h.nZ, int(h.domainSize-1))
	}
	return nil
}

// decodeG1 reads a raw G1 point (infinity is all zeros) without checking that it is on the
// curve: the file's sha256 is its integrity check (docs/prover.md).
func decodeG1(p *bn254.G1Affine, b []byte) error {
	if b[0]&0b11000000 != 0 {
		return fmt.Errorf("%w: a point that is not in the raw encoding", ErrBadSectionedKey)
	}
	if err := p.X.SetBytesCanonical(b[:fp.Bytes]); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSectionedKey, err)
	}
	if err := p.Y.SetBytesCanonical(b[fp.Bytes : 2*fp.Bytes]); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSectionedKey, err)
	}
	return nil
}

// The two top bits of a compressed G1 point's first byte (gnark-crypto's encoding): which of
// the two y's, or infinity.
const (
	flagMask       = 0b11 << 6
	flagSmallestY  = 0b10 << 6
	flagLargestY   = 0b11 << 6
	flagInfinityG1 = 0b01 << 6
	curveB         = 3 // BN254's G1: y² = x³ + 3
)

// decodeG1Compressed reads a compressed G1 point: x, then y as the square root of x³ + 3 that
// the flag names. It costs an exponentiation in Fp (p ≡ 3 mod 4), which is the whole price of
// the bytes saved; no subgroup check is needed (G1 has cofactor 1).
func decodeG1Compressed(p *bn254.G1Affine, b []byte) error {
	flag := b[0] & flagMask
	var x [fp.Bytes]byte
	copy(x[:], b[:fp.Bytes])
	x[0] &^= flagMask
	switch flag {
	case flagInfinityG1:
		if x != [fp.Bytes]byte{} {
			return fmt.Errorf("%w: infinity with a coordinate", ErrBadSectionedKey)
		}
		*p = bn254.G1Affine{}
		return nil
	case flagSmallestY, flagLargestY:
	default:
		return fmt.Errorf("%w: a point that is not in the compressed encoding", ErrBadSectionedKey)
	}
	if err := p.X.SetBytesCanonical(x[:]); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSectionedKey, err)
	}
	var y2, b3 fp.Element
	b3.SetUint64(curveB)
	y2.Square(&p.X).Mul(&y2, &p.X).Add(&y2, &b3)
	if p.Y.Sqrt(&y2) == nil {
		return fmt.Errorf("%w: an x of no point on the curve", ErrBadSectionedKey)
	}
	if p.Y.LexicographicallyLargest() != (flag == flagLargestY) {
		p.Y.Neg(&p.Y)
	}
	return nil
}

// decodeG2 reads a raw G2 point: X.A1, X.A0, Y.A1, Y.A0, as gnark-crypto's RawBytes.
func decodeG2(p *bn254.G2Affine, b []byte) error {
	if b[0]&0b11000000 != 0 {
		return fmt.Errorf("%w: a point that is not in the raw encoding", ErrBadSectionedKey)
	}
	for i, e := range []*fp.Element{&p.X.A1, &p.X.A0, &p.Y.A1, &p.Y.A0} {
		if err := e.SetBytesCanonical(b[i*fp.Bytes : (i+1)*fp.Bytes]); err != nil {
			return fmt.Errorf("%w: %v", ErrBadSectionedKey, err)
		}
	}
	return nil
}

// decodeG1 reads a point of a G1 section in the key's encoding.
func (h *keyHeader) decodeG1(p *bn254.G1Affine, b []byte) error {
	if h.version == versionCompressed {
		return decodeG1Compressed(p, b)
	}
	return decodeG1(p, b)
}

// keyDecoder decodes a sectioned key from chunks of any size (Write), filling key as points
// arrive.
type keyDecoder struct {
	head    []byte     // the header's bytes so far, until it is parsed
	fixed   *keyHeader // the header's fixed part, once read
	hdr     *keyHeader // the whole header, once read
	key     SectionedKey
	section int    // index in hdr.order of the section being read
	got     int    // its points decoded
	partial []byte // a point's first bytes, from the end of the last chunk
	err     error
}

// Write decodes b. An error is final: every later Write returns it.
func (d *keyDecoder) Write(b []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	if d.err = d.write(b); d.err != nil {
		return 0, d.err
	}
	return len(b), nil
}

func (d *keyDecoder) write(b []byte) error {
	for d.hdr == nil {
		need := fixedHeaderSize
		if d.fixed != nil {
			need = d.fixed.size()
		}
		k := min(need-len(d.head), len(b))
		d.head, b = append(d.head, b[:k]...), b[k:]
		if len(d.head) < need {
			return nil
		}
		if d.fixed == nil {
			d.fixed = &keyHeader{}
			if err := d.fixed.parseFixed(d.head); err != nil {
				return err
			}
			continue
		}
		if err := d.fixed.parseMaps(d.head); err != nil {
			return err
		}
		d.hdr, d.head = d.fixed, nil
		d.start()
	}
	for len(b) > 0 {
		if d.done() {
			return fmt.Errorf("%w: bytes after the last section", ErrBadSectionedKey)
		}
		s := d.hdr.order[d.section]
		size, count := pointSize(d.hdr.version, s), d.hdr.count(s)
		if len(d.partial) > 0 { // the point split across chunks
			k := min(size-len(d.partial), len(b))
			d.partial, b = append(d.partial, b[:k]...), b[k:]
			if len(d.partial) < size {
				return nil
			}
			if err := d.decode(s, d.partial); err != nil {
				return err
			}
			d.partial = d.partial[:0]
		}
		for len(b) >= size && d.got < count {
			if err := d.decode(s, b[:size]); err != nil {
				return err
			}
			b = b[size:]
		}
		if d.got < count && len(b) > 0 { // less than a point left
			d.partial, b = append(d.partial, b...), nil
		}
		if d.got == count {
			d.section, d.got = d.section+1, 0
			d.skipEmpty()
		}
	}
	return nil
}

// start sets the key's header fields once the header is read. Its vectors grow as their points
// arrive: a header announcing millions of points costs nothing until they come.
func (d *keyDecoder) start() {
	h := d.hdr
	d.key = SectionedKey{DomainSize: h.domainSize, NbWires: h.nbWires, NbPublic: h.nbPublic,
		Alpha1: h.alpha1, Beta1: h.beta1, Delta1: h.delta1, Beta2: h.beta2, Delta2: h.delta2,
		InfinityA: h.infinityA, InfinityB: h.infinityB}
	d.skipEmpty()
}

func (d *keyDecoder) skipEmpty() {
	for !d.done() && d.hdr.count(d.hdr.order[d.section]) == 0 {
		d.section++
	}
}

// done is whether every section has been read.
func (d *keyDecoder) done() bool { return d.hdr != nil && d.section == len(d.hdr.order) }

func (d *keyDecoder) decode(s Section, b []byte) error {
	var err error
	k := &d.key
	switch s {
	case SectionB2:
		k.B2 = append(k.B2, bn254.G2Affine{})
		err = decodeG2(&k.B2[d.got], b)
	default:
		v := k.g1ref(s)
		*v = append(*v, bn254.G1Affine{})
		err = d.hdr.decodeG1(&(*v)[d.got], b)
	}
	if err != nil {
		return fmt.Errorf("%w (section %s, point %d)", err, s, d.got)
	}
	d.got++
	return nil
}

// close is the end of the stream: an error unless every section was read whole.
func (d *keyDecoder) close() error {
	if d.err != nil {
		return d.err
	}
	switch {
	case d.hdr == nil:
		return fmt.Errorf("%w: it ends in its header (%d bytes)", ErrBadSectionedKey, len(d.head))
	case !d.done():
		s := d.hdr.order[d.section]
		return fmt.Errorf("%w: it ends in section %s (%d of %d points)", ErrBadSectionedKey, s, d.got, d.hdr.count(s))
	}
	return nil
}
