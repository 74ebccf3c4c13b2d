// Command gasbench prints what the vault's operations cost in gas on an in-process dev chain
// (Osaka rules) and where it goes: commits, whole and partial reveals (the latter also paying a
// relayer's fee), at trees of a few leaves and at indices of few and many 1-bits up to the
// tree's last (gasbench.Sizes), beside the targets (gasbench.Targets) and the published figures of Tornado
// Cash.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/seed018cc74c/vaultd/service/dev/gasbench"
)

func main() {
	if _, err := gasbench.Run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gasbench:", err)
		os.Exit(1)
	}
}
