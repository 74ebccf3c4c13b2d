package zk

import (
	"bytes"
	"errors"
	mrand "math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// proveShared proves req with the key's points dealt between workers Shares, in pieces of a
// random number of points each sent to a random Share, as a page deals them to its Workers.
func proveShared(t *testing.T, req RevealRequest, key []byte, workers int, rng *mrand.Rand) (Proof, Signals, error) {
	t.Helper()
	p, err := NewStreamProver(req)
	if err != nil {
		t.Fatal(err)
	}
	// The header in two steps: a prefix too short is told how many bytes it needs.
	l, need, err := p.Layout(key[:100])
	if err != nil || l != nil || need != fixedHeaderSize {
		t.Fatalf("a 100-byte prefix: %v, %d, %v", l, need, err)
	}
	if l, need, err = p.Layout(key[:need]); err != nil || l != nil || need <= fixedHeaderSize {
		t.Fatalf("the fixed header: %v, %d, %v", l, need, err)
	}
	if l, _, err = p.Layout(key[:need+7]); err != nil || l == nil {
		t.Fatalf("the whole header: %v", err)
	}
	if _, _, err := p.Layout(key); err == nil {
		t.Fatal("the header read twice")
	}
	scalars, err := p.Scalars()
	if err != nil {
		t.Fatal(err)
	}
	// The shares start from the layout alone, as a page's do while the witness is solved, and
	// get the scalars after the first section has been fed.
	shares := make([]*Share, workers)
	for i := range shares {
		ll, _, err := ReadLayout(key)
		if err != nil || !reflect.DeepEqual(ll, l) {
			t.Fatalf("ReadLayout: %v, %v; the prover's: %v", ll, err, l)
		}
		if shares[i], err = NewShare(*ll); err != nil {
			t.Fatal(err)
		}
	}
	for k, sl := range l.Sections {
		if err := dealSection(shares, sl, key, rng); err != nil {
			return Proof{}, Signals{}, err
		}
		if k == 0 {
			for _, sh := range shares {
				if err := sh.SetScalars(scalars); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, sh := range shares {
			if err := sh.Flush(sl.Section); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, sh := range shares {
		addSums(t, p, sh)
	}
	return p.Finish()
}

// proveDealt proves req from key as the wasm's callers do (share.ts's Dealer): the layout read
// from the key's first bytes, a share started from it and given the whole points the key holds,
// section by section, then its sums added. A key cut short leaves points out, which Finish
// refuses (one that ends in its header gives no layout: the prover never reads one); bytes past
// the last section are the dealer's to refuse.
func proveDealt(t *testing.T, req RevealRequest, key []byte) (Proof, Signals, error) {
	t.Helper()
	p, err := NewStreamProver(req)
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := ReadLayout(key)
	if err != nil {
		return Proof{}, Signals{}, err
	}
	if l == nil {
		return p.Finish()
	}
	if _, _, err := p.Layout(key); err != nil {
		return Proof{}, Signals{}, err
	}
	sh, err := NewShare(*l)
	if err != nil {
		return Proof{}, Signals{}, err
	}
	scalars, err := p.Scalars()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.SetScalars(scalars); err != nil {
		t.Fatal(err)
	}
	for _, sl := range l.Sections {
		n := min(sl.Count, max(0, len(key)-sl.Offset)/sl.PointSize)
		if n == 0 {
			continue
		}
		if err := sh.Feed(sl.Section, 0, key[sl.Offset:sl.Offset+n*sl.PointSize]); err != nil {
			return Proof{}, Signals{}, err
		}
	}
	sums, err := sh.Sums()
	if err != nil {
		return Proof{}, Signals{}, err
	}
	for _, s := range sums {
		if err := p.AddSum(s); err != nil {
			return Proof{}, Signals{}, err
		}
	}
	return p.Finish()
}

// dealSection feeds the points of a section of key to shares, in pieces of a random number of
// points each sent to a random share.
func dealSection(shares []*Share, sl SectionLayout, key []byte, rng *mrand.Rand) error {
	for from := 0; from < sl.Count; {
		n := min(1+rng.IntN(700), sl.Count-from)
		at := sl.Offset + from*sl.PointSize
		if err := shares[rng.IntN(len(shares))].Feed(sl.Section, from, key[at:at+n*sl.PointSize]); err != nil {
			return err
		}
		from += n
	}
	return nil
}

// addSums adds a share's sums to the prover's, and answers them.
func addSums(t *testing.T, p *StreamProver, sh *Share) []ShareSum {
	t.Helper()
	sums, err := sh.Sums()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sums {
		if err := p.AddSum(s); err != nil {
			t.Fatal(err)
		}
	}
	return sums
}

// A proof whose multiplications are dealt between workers verifies, with zk.Verify and gnark's
// verifier, whatever the split, for whole and partial reveals, from the compressed key and from
// a raw one, and whatever the order of the key's sections (the header's).
func TestSharedProofsVerify(t *testing.T) {
	keys, data := devSectioned(t)
	sk, err := SectionedKeyOf(keys.pk)
	if err != nil {
		t.Fatal(err)
	}
	var raw, reversed bytes.Buffer
	if _, err := sk.writeTo(&raw, SectionOrder, versionRaw); err != nil {
		t.Fatal(err)
	}
	if _, err := sk.writeTo(&reversed, [5]Section{SectionA, SectionB1, SectionZ, SectionB2, SectionK}, versionCompressed); err != nil {
		t.Fatal(err)
	}
	rng := mrand.New(mrand.NewPCG(1, 2))
	for _, c := range []struct {
		name    string
		key     []byte
		workers int
		amount  int64
	}{
		{"compressed, 1 worker", data, 1, 1000},
		{"compressed, 3 workers", data, 3, 400},
		{"raw, 2 workers", raw.Bytes(), 2, 1000},
		{"sections in another order, 2 workers", reversed.Bytes(), 2, 1},
	} {
		proof, signals, err := proveShared(t, sampleRequest(t, 1000, c.amount), c.key, c.workers, rng)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := verifyBoth(keys, proof, signals); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.amount < 1000 && signals[SignalChangeCommitment].Sign() == 0 {
			t.Fatalf("%s: a partial reveal without a change commitment", c.name)
		}
	}
	if _, _, err := proveDealt(t, sampleRequest(t, 1000, 1000), data); err != nil {
		t.Fatalf("the whole key dealt to one share: %v", err)
	}
	t.Logf("the key: %d bytes compressed, %d raw", len(data), raw.Len())
}

// Shares keep their points: dealt once, they serve proof after proof, each with its own
// scalars, and a proof abandoned halfway (Reset) leaves nothing of itself in the next.
func TestSharesServeProofAfterProof(t *testing.T) {
	keys, data := devSectioned(t)
	l, _, err := ReadLayout(data)
	if err != nil {
		t.Fatal(err)
	}
	rng := mrand.New(mrand.NewPCG(3, 4))
	shares := make([]*Share, 2)
	for i := range shares {
		if shares[i], err = NewShare(*l); err != nil {
			t.Fatal(err)
		}
	}
	for _, sl := range l.Sections {
		if err := dealSection(shares, sl, data, rng); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		amount  int64
		abandon bool
	}{{1000, false}, {300, true}, {400, false}, {1000, false}} {
		p, err := NewStreamProver(sampleRequest(t, 1000, c.amount))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Layout(data); err != nil {
			t.Fatal(err)
		}
		scalars, err := p.Scalars()
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shares {
			if err := sh.SetScalars(scalars); err != nil {
				t.Fatal(err)
			}
			if err := sh.Flush(l.Sections[0].Section); err != nil {
				t.Fatal(err)
			}
			if c.abandon {
				sh.Reset()
			}
		}
		if c.abandon {
			continue
		}
		for _, sh := range shares {
			addSums(t, p, sh)
		}
		proof, signals, err := p.Finish()
		if err != nil {
			t.Fatalf("amount %d: %v", c.amount, err)
		}
		if err := verifyBoth(keys, proof, signals); err != nil {
			t.Fatalf("amount %d: %v", c.amount, err)
		}
		if signals[SignalAmount].Int64() != c.amount {
			t.Fatalf("a proof of %d revealed %v", c.amount, signals[SignalAmount])
		}
	}
}

// A split that leaves a point out, or adds a section's sum twice, is refused rather than proved
// wrong; so is a share given what is not a point of its key. (Which point goes where is the
// caller's: a point fed twice and another never would give a proof that does not verify.)
func TestSharesMissingOrExtraPointsAreRefused(t *testing.T) {
	_, data := devSectioned(t)
	p, err := NewStreamProver(sampleRequest(t, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := p.Layout(data)
	if err != nil {
		t.Fatal(err)
	}
	scalars, _ := p.Scalars()
	sh, err := NewShare(*l)
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Feed(l.Sections[0].Section, 0, data[l.Sections[0].Offset:l.Sections[0].Offset+l.Sections[0].PointSize]); err != nil {
		t.Fatal(err)
	}
	if err := sh.Flush(l.Sections[0].Section); err == nil || !strings.Contains(err.Error(), "no scalars") {
		t.Fatalf("a flush without scalars: %v", err)
	}
	for _, bad := range [][]byte{scalars[:len(scalars)-32], append(bytes.Clone(scalars), make([]byte, 32)...)} {
		if err := sh.SetScalars(bad); err == nil {
			t.Fatalf("%d bytes of scalars for %d taken", len(bad), len(scalars))
		}
	}
	if err := sh.SetScalars(scalars); err != nil {
		t.Fatal(err)
	}
	if err := sh.SetScalars(scalars); err == nil {
		t.Fatal("scalars given twice")
	}
	sh, _ = NewShare(*l) // again, without the point fed above
	if err := sh.SetScalars(scalars); err != nil {
		t.Fatal(err)
	}
	for _, sl := range l.Sections {
		end := sl.Offset + sl.Count*sl.PointSize
		if sl.Section == SectionZ {
			end -= sl.PointSize // Z's last point never dealt
		}
		if err := sh.Feed(sl.Section, 0, data[sl.Offset:end]); err != nil {
			t.Fatal(err)
		}
	}
	sums := addSums(t, p, sh)
	if _, _, err := p.Finish(); !errors.Is(err, ErrBadSectionedKey) || !strings.Contains(err.Error(), "section Z") {
		t.Fatalf("a point left out: %v", err)
	}
	if err := p.AddSum(sums[0]); err == nil {
		t.Fatal("a section's points counted twice were added")
	}
	for _, count := range []int{0, -1, 1 << 62} {
		if err := p.AddSum(ShareSum{Section: SectionZ, Count: count, Point: sums[0].Point}); err == nil {
			t.Fatalf("a sum of %d points was added", count)
		}
	}
	raw := *l
	raw.Version = versionRaw // a compressed key's sections in a layout that says raw
	if _, err := NewShare(raw); err == nil {
		t.Fatal("a layout whose point sizes are not its version's")
	}
	z := l.Sections[2]
	if z.Section != SectionZ {
		t.Fatalf("the key's third section is %s", z.Section)
	}
	if err := sh.Feed(SectionZ, z.Count-1, data[z.Offset:z.Offset+2*z.PointSize]); err == nil {
		t.Fatal("points past a section's end were taken")
	}
	if err := sh.Feed(SectionZ, 0, data[z.Offset:z.Offset+z.PointSize+1]); err == nil {
		t.Fatal("a piece that is not whole points was taken")
	}
	bad := bytes.Clone(data[z.Offset : z.Offset+z.PointSize])
	bad[0] &^= 0b11000000
	if err := sh.Feed(SectionZ, 0, bad); !errors.Is(err, ErrBadSectionedKey) {
		t.Fatalf("a raw point in a compressed section: %v", err)
	}
}
