package zk

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// FuzzParseProof: any JSON is either refused or gives points on the curve (B in G2's subgroup)
// whose snarkjs form parses back to the same proof; it never panics.
func FuzzParseProof(f *testing.F) {
	if data, err := os.ReadFile("testdata/snarkjs/proof.json"); err == nil {
		f.Add(data)
	}
	if data, err := os.ReadFile("testdata/gnark/proof.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"pi_a":["1","2","1"],"pi_b":[["0","0"],["0","0"],["1","0"]],"pi_c":["1","2","1"]}`))
	f.Add([]byte(`{"pi_a":[],"pi_b":[[]],"pi_c":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var j ProofJSON
		if json.Unmarshal(data, &j) != nil {
			return
		}
		p, err := ParseProof(j)
		if err != nil {
			return
		}
		if !p.A.IsOnCurve() || !p.C.IsOnCurve() || !p.B.IsOnCurve() || !p.B.IsInSubGroup() {
			t.Fatal("accepted a point off the curve or the subgroup")
		}
		back, err := ParseProof(p.JSON())
		if err != nil || back != p {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// FuzzReadSectionedKey: any bytes are either a sectioned key or ErrBadSectionedKey, never a
// panic nor an allocation the bytes do not pay for. Seeded with the dev key's header and its
// first points, and with that cut and changed.
func FuzzReadSectionedKey(f *testing.F) {
	_, data := devSectioned(f)
	var hd keyHeader
	if err := hd.parseFixed(data); err != nil {
		f.Fatal(err)
	}
	f.Add(data[:hd.size()+300])
	f.Add(data[:fixedHeaderSize])
	f.Add(data[:20])
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := readSectionedKey(bytes.NewReader(b)); err != nil && !errors.Is(err, ErrBadSectionedKey) {
			t.Fatalf("an error that does not say what it is: %v", err)
		}
	})
}
