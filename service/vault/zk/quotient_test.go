package zk

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/tetratelabs/wazero"

	"github.com/seed018cc74c/vaultd/service/vault/zk/pointwasm"
)

// The browser's point module computes h as quotient does, to the bit (quotientInput lays out
// what it is given), for the reveal circuit's domain and a small one, vectors shorter than the
// domain included (quotient pads them with zeros).
func TestPointModuleQuotientIsQuotients(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	mod, err := rt.Instantiate(ctx, pointwasm.Module())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int) fr.Vector {
		v := make(fr.Vector, n)
		for i := range v {
			v[i].SetUint64(rng.Uint64())
			v[i].Mul(&v[i], &v[i]).Square(&v[i]) // the whole field, not 64-bit values
		}
		return v
	}
	for _, size := range []uint64{64, 6891} {
		domain := fft.NewDomain(size)
		n := int(domain.Cardinality)
		a, b, c := random(int(size)), random(int(size)), random(int(size)-5)
		in := quotientInput(a, b, c, domain)
		want := quotient(append(fr.Vector(nil), a...), append(fr.Vector(nil), b...), append(fr.Vector(nil), c...), domain)

		call := func(name string, args ...uint64) uint64 {
			out, err := mod.ExportedFunction(name).Call(ctx, args...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(out) == 0 {
				return 0
			}
			return out[0]
		}
		scratch := uint32(call("quotientScratch", uint64(n)))
		work := pointwasm.BufferAt + uint32(len(in))
		mem := mod.Memory()
		if need := work + scratch; need > mem.Size() {
			mem.Grow((need - mem.Size() + 65535) / 65536)
		}
		mem.Write(pointwasm.BufferAt, in)
		logn := uint64(0)
		for 1<<logn < n {
			logn++
		}
		call("quotient", pointwasm.BufferAt, uint64(n), logn, uint64(work))
		got, _ := mem.Read(pointwasm.BufferAt, uint32(32*n))
		h := make([]fr.Element, n)
		for i := range h {
			for k := range h[i] {
				h[i][k] = binary.LittleEndian.Uint64(got[32*i+8*k:])
			}
		}
		for i := range want {
			if !h[i].Equal(&want[i]) {
				t.Fatalf("domain %d: h[%d] = %s, want %s", n, i, h[i].String(), want[i].String())
			}
		}
	}
}

// quotientOf uses QuotientBy's answer when it has one of the domain's size, and computes h itself
// when QuotientBy fails or answers another size.
func TestQuotientByFallsBackToQuotient(t *testing.T) {
	domain := fft.NewDomain(64)
	n := int(domain.Cardinality)
	rng := rand.New(rand.NewPCG(5, 6))
	a, b, c := make(fr.Vector, 60), make(fr.Vector, 60), make(fr.Vector, 60)
	for _, v := range []fr.Vector{a, b, c} {
		for i := range v {
			v[i].SetUint64(rng.Uint64())
		}
	}
	want := quotient(append(fr.Vector(nil), a...), append(fr.Vector(nil), b...), append(fr.Vector(nil), c...), domain)
	defer func(f func([]byte, int) ([]byte, error)) { QuotientBy = f }(QuotientBy)
	given := make([]byte, 32*n) // every coefficient 0
	for _, tc := range []struct {
		name   string
		answer func([]byte, int) ([]byte, error)
		used   bool
	}{
		{"an error", func([]byte, int) ([]byte, error) { return nil, errors.New("no module") }, false},
		{"too short", func([]byte, int) ([]byte, error) { return given[:32*n-1], nil }, false},
		{"too long", func([]byte, int) ([]byte, error) { return append(given, 0), nil }, false},
		{"its size", func([]byte, int) ([]byte, error) { return given, nil }, true},
	} {
		QuotientBy = tc.answer
		got := quotientOf(append(fr.Vector(nil), a...), append(fr.Vector(nil), b...), append(fr.Vector(nil), c...), domain)
		for i := range got {
			if zero := got[i].IsZero(); tc.used != zero || !tc.used && !got[i].Equal(&want[i]) {
				t.Fatalf("%s: h[%d] = %s (quotient's %s)", tc.name, i, got[i].String(), want[i].String())
			}
		}
	}
}
