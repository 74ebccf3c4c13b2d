package zk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"

	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
)

var (
	sectionedOnce  sync.Once
	sectionedBytes []byte
	sectionedErr   error
)

// devSectioned is the dev proving key in the sectioned format.
func devSectioned(t testing.TB) (*Keys, []byte) {
	t.Helper()
	keys, err := DevKeys()
	if err != nil {
		t.Fatal(err)
	}
	sectionedOnce.Do(func() {
		var sk *SectionedKey
		if sk, sectionedErr = SectionedKeyOf(keys.pk); sectionedErr != nil {
			return
		}
		var b bytes.Buffer
		if _, sectionedErr = sk.WriteTo(&b); sectionedErr == nil {
			sectionedBytes = b.Bytes()
		}
	})
	if sectionedErr != nil {
		t.Fatal(sectionedErr)
	}
	return keys, sectionedBytes
}

// sampleRequest is a reveal of amount of a note of value, in a tree of a few leaves.
func sampleRequest(t testing.TB, value, amount int64) RevealRequest {
	tree := &Tree{}
	for range 3 {
		tree.Append(randomField(t))
	}
	note := Note{Secret: randomField(t), NullifierSecret: randomField(t), Value: big.NewInt(value), TokenID: randomField(t)}
	index, _ := tree.Append(note.Leaf())
	tree.Append(randomField(t))
	return RevealRequest{Note: note, Tree: tree, LeafIndex: index, Amount: big.NewInt(amount),
		Recipient: [20]byte{1, 2, 3}, ChangeSecret: randomField(t), ChangeNullifierSecret: randomField(t)}
}

// verifyBoth checks a proof with zk.Verify and with gnark's verifier.
func verifyBoth(keys *Keys, p Proof, signals Signals) error {
	if err := Verify(keys.VerificationKey(), p, signals[:]); err != nil {
		return err
	}
	public := make(fr.Vector, len(signals))
	for i, s := range signals {
		public[i].SetBigInt(s)
	}
	return groth16bn254.Verify(&groth16bn254.Proof{Ar: p.A, Bs: p.B, Krs: p.C}, keys.vk, public)
}

// The sectioned key holds gnark's key's points, and reads back the same; its domain size gives
// the domain gnark's key has.
func TestSectionedKeyRoundTrip(t *testing.T) {
	keys, data := devSectioned(t)
	got, err := readSectionedKey(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	pk := keys.pk
	g1s := func(name string, a, b []bn254.G1Affine) {
		if len(a) != len(b) {
			t.Fatalf("%s: %d points, gnark's key has %d", name, len(a), len(b))
		}
		for i := range a {
			if !a[i].Equal(&b[i]) {
				t.Fatalf("%s[%d] differs", name, i)
			}
		}
	}
	g1s("A", got.A, pk.G1.A)
	g1s("B1", got.B1, pk.G1.B)
	g1s("K", got.K, pk.G1.K)
	g1s("Z", got.Z, pk.G1.Z)
	if len(got.B2) != len(pk.G2.B) {
		t.Fatalf("B2: %d points, gnark's key has %d", len(got.B2), len(pk.G2.B))
	}
	for i := range got.B2 {
		if !got.B2[i].Equal(&pk.G2.B[i]) {
			t.Fatalf("B2[%d] differs", i)
		}
	}
	g1s("α β δ", []bn254.G1Affine{got.Alpha1, got.Beta1, got.Delta1}, []bn254.G1Affine{pk.G1.Alpha, pk.G1.Beta, pk.G1.Delta})
	if !got.Beta2.Equal(&pk.G2.Beta) || !got.Delta2.Equal(&pk.G2.Delta) {
		t.Fatal("[β]₂ or [δ]₂ differs")
	}
	for i := range pk.InfinityA {
		if got.InfinityA[i] != pk.InfinityA[i] || got.InfinityB[i] != pk.InfinityB[i] {
			t.Fatalf("the infinity maps differ at wire %d", i)
		}
	}
	if got.NbWires != len(pk.InfinityA) || got.NbPublic != keys.ccs.GetNbPublicVariables() {
		t.Fatalf("%d wires (%d public), want %d (%d)", got.NbWires, got.NbPublic, len(pk.InfinityA), keys.ccs.GetNbPublicVariables())
	}
	d := fft.NewDomain(got.DomainSize)
	if d.Cardinality != pk.Domain.Cardinality || !d.Generator.Equal(&pk.Domain.Generator) || !d.FrMultiplicativeGen.Equal(&pk.Domain.FrMultiplicativeGen) {
		t.Fatal("the domain rebuilt from the size differs from gnark's key's")
	}
	var again bytes.Buffer
	if _, err := got.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), data) {
		t.Fatalf("written again, the key differs (%v)", err)
	}
	// Version 1, every point raw, reads back the same points.
	var raw, fromRaw bytes.Buffer
	if _, err := got.writeTo(&raw, SectionOrder, versionRaw); err != nil {
		t.Fatal(err)
	}
	back, err := readSectionedKey(bytes.NewReader(raw.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.WriteTo(&fromRaw); err != nil || !bytes.Equal(fromRaw.Bytes(), data) || raw.Len() <= len(data) {
		t.Fatalf("the raw key read back differs (%v)", err)
	}
	// The raw tail is version 1's sections after B2 (Z, B1, A: the end of the raw key), and its
	// points compressed are version 2's.
	var tail bytes.Buffer
	if _, err := got.WriteRawTail(&tail); err != nil {
		t.Fatal(err)
	}
	points := len(got.Z) + len(got.B1) + len(got.A)
	if tail.Len() != points*g1Size || !bytes.HasSuffix(raw.Bytes(), tail.Bytes()) {
		t.Fatalf("the raw tail: %d bytes, not the raw key's last %d", tail.Len(), points*g1Size)
	}
	compressed := make([]byte, 0, points*g1CompressedSize)
	for at := 0; at < tail.Len(); at += g1Size {
		var p bn254.G1Affine
		if _, err := p.SetBytes(tail.Bytes()[at : at+g1Size]); err != nil {
			t.Fatal(err)
		}
		b := p.Bytes()
		compressed = append(compressed, b[:]...)
	}
	if !bytes.HasSuffix(data, compressed) {
		t.Fatal("the raw tail compressed is not the key's end")
	}
	t.Logf("sectioned key: %d bytes (gnark's raw key %d); %d wires, A %d, B %d, K %d, Z %d points",
		len(data), len(devkeys.ProvingKey), got.NbWires, len(got.A), len(got.B1), len(got.K), len(got.Z))
}

// A key with one point changed (negated: still a point of the curve) gives a proof the verifier
// refuses, whichever section the point is in.
func TestAKeyWithOnePointChangedFailsVerification(t *testing.T) {
	keys, data := devSectioned(t)
	rng := mrand.New(mrand.NewPCG(5, 6))
	var hd keyHeader
	if err := hd.parseFixed(data); err != nil {
		t.Fatal(err)
	}
	off := hd.size()
	for _, s := range hd.order {
		n := hd.count(s)
		i := n / 2
		bad := bytes.Clone(data)
		at := bad[off+i*pointSize(hd.version, s):]
		if s == SectionB2 {
			var p bn254.G2Affine
			if err := decodeG2(&p, at); err != nil {
				t.Fatal(err)
			}
			p.Neg(&p)
			b := p.RawBytes()
			copy(at, b[:])
		} else {
			var p bn254.G1Affine
			if err := hd.decodeG1(&p, at); err != nil {
				t.Fatal(err)
			}
			p.Neg(&p)
			b := p.Bytes() // compressed, as the key's
			copy(at, b[:])
		}
		off += n * pointSize(hd.version, s)
		proof, signals, err := proveShared(t, sampleRequest(t, 1000, 1000), bad, 2, rng)
		if err != nil {
			t.Fatalf("section %s: %v", s, err)
		}
		if err := verifyBoth(keys, proof, signals); err == nil {
			t.Errorf("a key with %s[%d] changed gave a proof that verifies", s, i)
		}
	}
	if off != len(data) {
		t.Fatalf("the sections end at %d, the key at %d", off, len(data))
	}
}

// A key cut short anywhere, or changed where it is read (its header, a point's encoding), or with
// bytes after its end, is a clear error (ErrBadSectionedKey), never a panic nor a proof.
func TestBadSectionedKeysAreRefused(t *testing.T) {
	_, data := devSectioned(t)
	var hd keyHeader
	if err := hd.parseFixed(data); err != nil {
		t.Fatal(err)
	}
	header := hd.size()
	set32 := func(at int, v uint32) []byte {
		b := bytes.Clone(data)
		binary.BigEndian.PutUint32(b[at:], v)
		return b
	}
	cases := map[string][]byte{
		"empty":                    nil,
		"magic only":               data[:8],
		"cut in the fixed header":  data[:fixedHeaderSize-1],
		"cut in the infinity maps": data[:header-1],
		"header only":              data[:header],
		"cut in a point":           data[:header+100],
		"cut in the last section":  data[:len(data)-1],
		"a byte after the end":     append(bytes.Clone(data), 0),
		"another magic":            append([]byte("vaultdPX"), data[8:]...),
		"another version":          set32(8, 3),
		"a huge wire count":        set32(20, 1<<31),
		"another wire count":       set32(20, uint32(hd.nbWires+1)),
		"no public wire":           set32(24, 0),
		"another A count":          set32(28, uint32(hd.nA-1)),
		"another Z count":          set32(40, uint32(hd.nZ+1)),
		"a domain not a power of 2": func() []byte {
			b := bytes.Clone(data)
			binary.BigEndian.PutUint64(b[12:], hd.domainSize+1)
			return b
		}(),
		"a section twice":    func() []byte { b := bytes.Clone(data); b[44] = b[45]; return b }(),
		"an unknown section": func() []byte { b := bytes.Clone(data); b[44] = 9; return b }(),
		"[α]₁ compressed":    func() []byte { b := bytes.Clone(data); b[49] |= 0b10000000; return b }(),
		"a coordinate ≥ p": func() []byte {
			b := bytes.Clone(data)
			copy(b[header:header+32], bytes.Repeat([]byte{0xbf}, 32)) // x above p, flagged compressed
			return b
		}(),
		"a raw point where compressed ones are": func() []byte {
			b := bytes.Clone(data)
			b[header] &^= 0b11000000
			return b
		}(),
		"an x of no point on the curve": func() []byte {
			b := bytes.Clone(data)
			for d := byte(1); ; d++ { // half of all x are not on it
				b[header+31] ^= d
				xb := bytes.Clone(b[header : header+32])
				xb[0] &^= 0b11000000 // the flags
				var x, y2, three fp.Element
				x.SetBytes(xb)
				three.SetUint64(3)
				if y2.Square(&x).Mul(&y2, &x).Add(&y2, &three).Legendre() == -1 {
					return b
				}
				b[header+31] ^= d
			}
		}(),
		"infinity with a coordinate": func() []byte {
			b := bytes.Clone(data)
			b[header] = b[header]&^0b11000000 | 0b01000000
			return b
		}(),
	}
	for name, key := range cases {
		if _, err := readSectionedKey(bytes.NewReader(key)); !errors.Is(err, ErrBadSectionedKey) {
			t.Errorf("%s: readSectionedKey: %v, want ErrBadSectionedKey", name, err)
		} else if !strings.Contains(err.Error(), "sectioned proving key") {
			t.Errorf("%s: %q does not say what it is about", name, err)
		}
		if name == "a byte after the end" {
			continue // the dealer's to refuse (share.ts): the shares are given whole points
		}
		if _, _, err := proveDealt(t, sampleRequest(t, 10, 10), key); !errors.Is(err, ErrBadSectionedKey) {
			t.Errorf("%s: proved from the points dealt: %v, want ErrBadSectionedKey", name, err)
		}
	}
	// A compressed point's flags would also make its coordinate ≥ p: the error says which.
	if _, err := readSectionedKey(bytes.NewReader(cases["[α]₁ compressed"])); err == nil || !strings.Contains(err.Error(), "not in the raw encoding") {
		t.Errorf("a compressed point: %v", err)
	}
}

// gnark's prover (from its ProvingKey) against the browser's, one worker's share holding the
// key's points: decoded once and kept (as a page's workers keep them), or decoded for each proof
// too. Run with -cpu 1 for the browser's single thread.
func BenchmarkProvers(b *testing.B) {
	keys, data := devSectioned(b)
	l, _, err := ReadLayout(data)
	if err != nil {
		b.Fatal(err)
	}
	dealt := func() *Share {
		sh, err := NewShare(*l)
		if err != nil {
			b.Fatal(err)
		}
		for _, sl := range l.Sections {
			if err := sh.Feed(sl.Section, 0, data[sl.Offset:sl.Offset+sl.Count*sl.PointSize]); err != nil {
				b.Fatal(err)
			}
		}
		return sh
	}
	prove := func(sh *Share) {
		p, err := NewStreamProver(sampleRequest(b, 1000, 1000))
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := p.Layout(data); err != nil {
			b.Fatal(err)
		}
		scalars, err := p.Scalars()
		if err != nil {
			b.Fatal(err)
		}
		if err := sh.SetScalars(scalars); err != nil {
			b.Fatal(err)
		}
		sums, err := sh.Sums()
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range sums {
			if err := p.AddSum(s); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, err := p.Finish(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("gnark", func(b *testing.B) {
		for range b.N {
			if _, _, err := keys.Prove(sampleRequest(b, 1000, 1000)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("share/kept", func(b *testing.B) {
		sh := dealt()
		b.ResetTimer()
		for range b.N {
			prove(sh)
		}
	})
	b.Run("share/dealt", func(b *testing.B) {
		for range b.N {
			prove(dealt())
		}
	})
}

// readSectionedKey reads a whole sectioned key.
func readSectionedKey(r io.Reader) (*SectionedKey, error) {
	var d keyDecoder
	if _, err := io.Copy(&d, r); err != nil {
		return nil, err
	}
	if err := d.close(); err != nil {
		return nil, err
	}
	return &d.key, nil
}
