// Command famgen prints one member of a family of litmus tests:
// famgen FAMILY N (families: SB, SB+dmb, Writers, IRIW, MP, Swaps).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/purr-mcm/purr/internal/family"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: famgen FAMILY N")
		os.Exit(2)
	}
	f, ok := family.Lookup(os.Args[1])
	n, err := strconv.Atoi(os.Args[2])
	if !ok || err != nil || n < f.Min {
		fmt.Fprintf(os.Stderr, "famgen: no family %q of size %q\n", os.Args[1], os.Args[2])
		os.Exit(2)
	}
	fmt.Print(f.Test(n))
}
