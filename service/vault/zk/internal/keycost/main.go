// Command keycost measures what each section of the dev proving key costs the prover, on one
// thread: its multi-scalar multiplication (what the stream prover does with a section once it
// has arrived) and, beside it, the square roots that reading the section from compressed points
// would add (x and a sign bit: y from x by one square root, in Fp for G1, in Fp2 for G2, with no
// subgroup check). docs/prover.md ("Compressed points") has the figures. Natively, and in the
// browser's wasm under Node:
//
//	go run ./service/vault/zk/internal/keycost [runs]
//	GOOS=js GOARCH=wasm go build -o /tmp/keycost.wasm ./service/vault/zk/internal/keycost
//	node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" /tmp/keycost.wasm [runs]
package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"

	"github.com/seed018cc74c/vaultd/gen/zk/devkeys"
)

func main() {
	runtime.GOMAXPROCS(1) // the browser's wasm has one thread
	runs := 3
	if len(os.Args) > 1 {
		runs, _ = strconv.Atoi(os.Args[1])
	}
	var pk groth16bn254.ProvingKey
	if _, err := pk.UnsafeReadFrom(bytes.NewReader(devkeys.ProvingKey)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	g1 := map[string][]bn254.G1Affine{"A": pk.G1.A, "B1": pk.G1.B, "K": pk.G1.K, "Z": pk.G1.Z}
	var three fp.Element
	three.SetUint64(3)
	var twistB bn254.E2 // 3/(9+u), the twist's b
	twistB.A0.SetUint64(9)
	twistB.A1.SetUint64(1)
	twistB.Inverse(&twistB)
	twistB.MulByElement(&twistB, &three)
	ms := func(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
	for run := 1; run <= runs; run++ {
		for _, name := range []string{"K", "B2", "Z", "B1", "A"} {
			var n int
			var msm, sqrt float64
			if name == "B2" {
				pts := pk.G2.B
				n = len(pts)
				scalars := randomScalars(n)
				t := time.Now()
				var r bn254.G2Jac
				r.MultiExp(pts, scalars, ecc.MultiExpConfig{})
				msm = ms(t)
				comp := make([][bn254.SizeOfG2AffineCompressed]byte, n)
				for i := range pts {
					comp[i] = pts[i].Bytes()
				}
				t = time.Now()
				for i := range comp {
					var x, y2, y bn254.E2
					c := comp[i]
					c[0] &= 0x3f
					x.A1.SetBytesCanonical(c[:32])
					x.A0.SetBytesCanonical(c[32:])
					y2.Square(&x).Mul(&y2, &x).Add(&y2, &twistB)
					y.Sqrt(&y2)
				}
				sqrt = ms(t)
			} else {
				pts := g1[name]
				n = len(pts)
				scalars := randomScalars(n)
				t := time.Now()
				var r bn254.G1Jac
				r.MultiExp(pts, scalars, ecc.MultiExpConfig{})
				msm = ms(t)
				comp := make([][bn254.SizeOfG1AffineCompressed]byte, n)
				for i := range pts {
					comp[i] = pts[i].Bytes()
				}
				t = time.Now()
				for i := range comp {
					var x, y2, y fp.Element
					c := comp[i]
					c[0] &= 0x3f
					x.SetBytesCanonical(c[:])
					y2.Square(&x).Mul(&y2, &x).Add(&y2, &three)
					if y.Sqrt(&y2) == nil {
						panic("not a point")
					}
				}
				sqrt = ms(t)
			}
			fmt.Printf("{\"run\":%d,\"section\":%q,\"points\":%d,\"msmMs\":%.0f,\"sqrtMs\":%.0f,\"sqrtUsPerPoint\":%.1f}\n",
				run, name, n, msm, sqrt, sqrt*1000/float64(n))
		}
	}
}

func randomScalars(n int) fr.Vector {
	v := make(fr.Vector, n)
	for i := range v {
		v[i].SetRandom()
	}
	return v
}
