// Command prepare writes cat.PreparedFile in the current folder: its Cat
// and Bell files parsed, for the package that embeds them (go generate in
// stdlib/ and models/).
package main

import (
	"fmt"
	"os"

	"github.com/purr-mcm/purr/cat"
)

func main() {
	data, err := cat.WritePrepared(os.DirFS("."))
	if err == nil {
		err = os.WriteFile(cat.PreparedFile, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "prepare:", err)
		os.Exit(1)
	}
}
