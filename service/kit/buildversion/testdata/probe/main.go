// Command probe is a vaultd command reduced to its version: buildversion's test links it with
// and without a version set at link time.
package main

import (
	"fmt"

	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

func main() {
	buildversion.Answer("probe")
	fmt.Println("no version asked")
}
