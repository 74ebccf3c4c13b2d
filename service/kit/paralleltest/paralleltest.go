// Package paralleltest sets how many of a package's tests run at once, from its TestMain.
package paralleltest

import (
	"flag"
	"strconv"
)

// Default makes the test binary run up to n parallel tests at once (-test.parallel), unless its
// command line says how many. Go's default is one per CPU, which leaves the CPUs idle when the
// tests mostly wait (for blocks and receipts, leases, backoffs, child processes) rather than
// compute. Call it in TestMain before m.Run.
func Default(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err) // not a test binary
		}
	}
}
