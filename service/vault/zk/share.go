package zk

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

// A proof's multiplications split between workers (a page's Web Workers, one Go runtime each,
// on a phone's other cores): every worker's Share starts from the key's layout (ReadLayout, its
// header), and each point of the key goes to one Share, which decodes it at once (a compressed
// point's square root is most of that: it runs while the prover solves the witness); the prover
// reads the header too (StreamProver.Layout) and gives its scalars (Scalars) to every Share
// (SetScalars), which multiplies a section's points once the section is flushed; the prover adds
// the Shares' sums (AddSum) and finishes. Which worker gets which points is the caller's
// choice: each point once, in any split. A Share keeps its points decoded after a proof (Sums,
// or Reset for a proof abandoned): the next proof multiplies them again with its own scalars,
// so a key dealt once, as it arrives, serves every proof after it.

// Layout is where a sectioned key's sections lie in its bytes, read from its header.
type Layout struct {
	Version    uint32          `json:"version"` // 2: the G1 sections' points compressed
	HeaderSize int             `json:"headerSize"`
	Sections   []SectionLayout `json:"sections"` // in the file's order, one after another
}

// SectionLayout is one section of a key: Count points of PointSize bytes from Offset.
type SectionLayout struct {
	Section   Section `json:"section"`
	Offset    int     `json:"offset"`
	Count     int     `json:"count"`
	PointSize int     `json:"pointSize"`
}

// ReadLayout reads a key's layout from prefix, its first bytes (any number of them): the layout
// once prefix holds the whole header, else how many bytes it needs.
func ReadLayout(prefix []byte) (*Layout, int, error) {
	h, need, err := readHeader(prefix)
	if h == nil {
		return nil, need, err
	}
	return h.layout(), 0, nil
}

// readHeader is ReadLayout's header.
func readHeader(prefix []byte) (*keyHeader, int, error) {
	if len(prefix) < fixedHeaderSize {
		return nil, fixedHeaderSize, nil
	}
	h := &keyHeader{}
	if err := h.parseFixed(prefix); err != nil {
		return nil, 0, err
	}
	if len(prefix) < h.size() {
		return nil, h.size(), nil
	}
	if err := h.parseMaps(prefix[:h.size()]); err != nil {
		return nil, 0, err
	}
	return h, 0, nil
}

func (h *keyHeader) layout() *Layout {
	l := &Layout{Version: h.version, HeaderSize: h.size()}
	off := l.HeaderSize
	for _, s := range h.order {
		n, size := h.count(s), pointSize(h.version, s)
		l.Sections = append(l.Sections, SectionLayout{Section: s, Offset: off, Count: n, PointSize: size})
		off += n * size
	}
	return l
}

// Layout reads the key's header from prefix, its first bytes (any number of them): the layout
// once prefix holds the whole header, else how many bytes it needs. The key's points then go to
// Shares, and their sums to AddSum.
func (p *StreamProver) Layout(prefix []byte) (*Layout, int, error) {
	if p.hdr != nil {
		return nil, 0, errors.New("prove: the key's header was already read")
	}
	h, need, err := readHeader(prefix)
	if h == nil {
		return nil, need, err
	}
	if err := p.header(h); err != nil {
		return nil, 0, err
	}
	return h.layout(), 0, nil
}

// Scalars are every section's scalars in the layout's order, 32 bytes each (big-endian): what
// each Share's SetScalars takes.
func (p *StreamProver) Scalars() ([]byte, error) {
	if p.hdr == nil {
		return nil, errors.New("prove: no layout read")
	}
	var out []byte
	for _, s := range p.hdr.order {
		for i := range p.scalars[s] {
			b := p.scalars[s][i].Bytes()
			out = append(out, b[:]...)
		}
	}
	return out, nil
}

// AddSum adds a Share's sum of count of section s's points (ShareSum).
func (p *StreamProver) AddSum(sum ShareSum) error {
	if p.hdr == nil {
		return errors.New("prove: no layout read")
	}
	s := sum.Section
	if s < SectionA || s > SectionZ || sum.Count <= 0 || sum.Count > p.hdr.count(s)-p.done[s] {
		return fmt.Errorf("prove: a sum of %d points of section %s, which has %d (%d added)", sum.Count, s, p.hdr.count(s), p.done[s])
	}
	if s == SectionB2 {
		var pt bn254.G2Affine
		if len(sum.Point) != g2Size || decodeG2(&pt, sum.Point) != nil {
			return errors.New("prove: a sum that is not a raw G2 point")
		}
		p.sumB2.AddMixed(&pt)
	} else {
		var pt bn254.G1Affine
		if len(sum.Point) != g1Size || decodeG1(&pt, sum.Point) != nil {
			return errors.New("prove: a sum that is not a raw G1 point")
		}
		p.sum(s).AddMixed(&pt)
	}
	p.done[s] += sum.Count
	return nil
}

// ShareSum is a Share's sum of the points of a section it was given (raw encoding).
type ShareSum struct {
	Section Section `json:"section"`
	Count   int     `json:"count"`
	Point   []byte  `json:"point"`
}

// A Share is one worker's part of the proofs' multiplications: the points it is fed, decoded as
// they come and kept, multiplied by a proof's scalars once their section is flushed.
type Share struct {
	sections map[Section]SectionLayout
	order    []Section // the layout's, the scalars' order
	version  uint32

	g1   map[Section][]bn254.G1Affine // every point fed, by section
	b2   []bn254.G2Affine
	from map[Section][]int // their numbers in their section

	// The proof under way: its scalars (once SetScalars), the points of each section multiplied
	// so far (the first done[s] of g1[s] or b2), their sums.
	scalars map[Section][]fr.Element
	done    map[Section]int
	sums    map[Section]*shareSum
}

type shareSum struct {
	count int
	g1    bn254.G1Jac
	g2    bn254.G2Jac
}

// NewShare is a worker's share of a proof, from the key's layout (ReadLayout's).
func NewShare(l Layout) (*Share, error) {
	if l.Version != versionRaw && l.Version != versionCompressed {
		return nil, fmt.Errorf("share: a layout of version %d", l.Version)
	}
	sh := &Share{sections: map[Section]SectionLayout{}, version: l.Version,
		g1: map[Section][]bn254.G1Affine{}, from: map[Section][]int{}}
	sh.Reset()
	for _, sl := range l.Sections {
		if _, twice := sh.sections[sl.Section]; twice || sl.Section < SectionA || sl.Section > SectionZ || sl.Count < 0 || sl.Count > maxWires {
			return nil, fmt.Errorf("share: a layout with section %s of %d points", sl.Section, sl.Count)
		}
		if sl.PointSize != pointSize(sh.version, sl.Section) {
			return nil, fmt.Errorf("share: section %s of %d-byte points in a key of version %d", sl.Section, sl.PointSize, sh.version)
		}
		sh.sections[sl.Section] = sl
		sh.order = append(sh.order, sl.Section)
	}
	return sh, nil
}

// Reset abandons the proof under way (its scalars and sums), keeping the points.
func (sh *Share) Reset() {
	sh.scalars = nil
	sh.done = map[Section]int{}
	sh.sums = map[Section]*shareSum{}
}

// SetScalars gives the share the proof's scalars (the prover's Scalars), before its first Flush.
func (sh *Share) SetScalars(scalars []byte) error {
	if sh.scalars != nil {
		return errors.New("share: its scalars were already given")
	}
	all := map[Section][]fr.Element{}
	for _, s := range sh.order {
		sl := sh.sections[s]
		if len(scalars) < sl.Count*fr.Bytes {
			return errors.New("share: fewer scalars than the layout's points")
		}
		v := make([]fr.Element, sl.Count)
		for i := range v {
			if err := v[i].SetBytesCanonical(scalars[i*fr.Bytes : (i+1)*fr.Bytes]); err != nil {
				return fmt.Errorf("share: scalar %d of section %s: %w", i, sl.Section, err)
			}
		}
		scalars = scalars[sl.Count*fr.Bytes:]
		all[sl.Section] = v
	}
	if len(scalars) != 0 {
		return errors.New("share: more scalars than the layout's points")
	}
	sh.scalars = all
	return nil
}

// Feed decodes points of section s, from its point number from on (b holds whole points).
func (sh *Share) Feed(s Section, from int, b []byte) error {
	sl, ok := sh.sections[s]
	if !ok {
		return fmt.Errorf("share: no section %s in the layout", s)
	}
	n := len(b) / sl.PointSize
	if len(b)%sl.PointSize != 0 || from < 0 || from+n > sl.Count {
		return fmt.Errorf("share: %d bytes from point %d of section %s (%d points of %d bytes)", len(b), from, s, sl.Count, sl.PointSize)
	}
	h := keyHeader{version: sh.version}
	for i := range n {
		at := b[i*sl.PointSize : (i+1)*sl.PointSize]
		var err error
		if s == SectionB2 {
			sh.b2 = append(sh.b2, bn254.G2Affine{})
			err = decodeG2(&sh.b2[len(sh.b2)-1], at)
		} else {
			sh.g1[s] = append(sh.g1[s], bn254.G1Affine{})
			err = h.decodeG1(&sh.g1[s][len(sh.g1[s])-1], at)
		}
		if err != nil {
			return fmt.Errorf("%w (section %s, point %d)", err, s, from+i)
		}
	}
	for i := range n {
		sh.from[s] = append(sh.from[s], from+i)
	}
	return nil
}

// Flush multiplies the points of section s not yet multiplied in this proof and adds them to
// its sum.
func (sh *Share) Flush(s Section) error {
	from := sh.from[s][sh.done[s]:]
	if len(from) == 0 {
		return nil
	}
	if sh.scalars == nil {
		return errors.New("share: no scalars given (SetScalars) to multiply the points by")
	}
	scalars := make([]fr.Element, len(from))
	for i, n := range from {
		scalars[i] = sh.scalars[s][n]
	}
	sum := sh.sums[s]
	if sum == nil {
		sum = &shareSum{}
		sum.g1.X.SetOne()
		sum.g1.Y.SetOne() // infinity
		sum.g2.X.SetOne()
		sum.g2.Y.SetOne()
		sh.sums[s] = sum
	}
	cfg := ecc.MultiExpConfig{}
	if s == SectionB2 {
		var part bn254.G2Jac
		if _, err := part.MultiExp(sh.b2[sh.done[s]:], scalars, cfg); err != nil {
			return err
		}
		sum.g2.AddAssign(&part)
	} else {
		var part bn254.G1Jac
		if _, err := part.MultiExp(sh.g1[s][sh.done[s]:], scalars, cfg); err != nil {
			return err
		}
		sum.g1.AddAssign(&part)
	}
	sum.count += len(scalars)
	sh.done[s] += len(scalars)
	return nil
}

// Sums flushes every section and gives the share's sums, for the prover's AddSum; the share is
// then ready for the next proof (Reset), its points kept.
func (sh *Share) Sums() ([]ShareSum, error) {
	defer sh.Reset()
	var out []ShareSum
	for s := SectionA; s <= SectionZ; s++ {
		if err := sh.Flush(s); err != nil {
			return nil, err
		}
		sum := sh.sums[s]
		if sum == nil {
			continue
		}
		// Raw points (infinity, a sum that cancels out, is all zeros).
		var b []byte
		if s == SectionB2 {
			var a bn254.G2Affine
			a.FromJacobian(&sum.g2)
			r := a.RawBytes()
			b = r[:]
		} else {
			var a bn254.G1Affine
			a.FromJacobian(&sum.g1)
			r := a.RawBytes()
			b = r[:]
		}
		out = append(out, ShareSum{Section: s, Count: sum.count, Point: b})
	}
	return out, nil
}
