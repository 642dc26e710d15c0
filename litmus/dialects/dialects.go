// Package dialects registers every architecture purr reads with package
// litmus: a program imports it for its side effect. A new dialect is one
// package under litmus/ and one line here.
package dialects

import (
	_ "github.com/purr-mcm/purr/litmus/aarch64"
	_ "github.com/purr-mcm/purr/litmus/arm"
	_ "github.com/purr-mcm/purr/litmus/bpf"
	_ "github.com/purr-mcm/purr/litmus/c"
	_ "github.com/purr-mcm/purr/litmus/mips"
	_ "github.com/purr-mcm/purr/litmus/riscv"
	_ "github.com/purr-mcm/purr/litmus/x86"
)
