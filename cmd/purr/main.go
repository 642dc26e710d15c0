// Command purr checks litmus tests against memory models written in Cat.
//
//	purr [flags] TEST.litmus... | @INDEX   run tests, print herd7-format results
//	purr check [-I DIR]... [--variant a,b] [-macros F.def] FILE...
//	                                       parse and resolve .cat models, .def files and .litmus tests
//	purr xcfa [-macros F.def] [--variant v] TEST.litmus...
//	                                       print tests' XCFAs as Graphviz DOT
//	purr executions [flags] TEST.litmus... list the executions -show selects (default all)
//	purr view TEST.litmus [-m MODEL]       serve a page of the test's executions
//	purr why [-m MODEL] TEST.litmus...     tell which checks forbid each test's outcome
//
// Flags follow herd7's names and accept its single-dash spellings
// (-model x.cat, -I dir, -variant a,b).
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	status := exitInternal // unless run returns: a panic outside any file's check
	tuneGC()
	protect("purr", os.Stderr, func() { status = run(os.Args[1:], os.Stdout, os.Stderr) })
	os.Exit(status)
}

// exitInternal is the exit status of a run in which purr failed (a panic
// while checking a file): a bug of purr's, whatever the input.
const exitInternal = 3

// run executes one purr command line and returns the exit status:
// 0 success, 1 some input failed, 2 usage error, exitInternal a bug of
// purr's; when several apply, the largest.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return cmdCheck(args[1:], stdout, stderr)
		case "xcfa":
			return cmdXCFA(args[1:], stdout, stderr)
		case "executions":
			return cmdExecutions(args[1:], stdout, stderr)
		case "view":
			return cmdView(args[1:], stdout, stderr)
		case "why":
			return cmdWhy(args[1:], stdout, stderr)
		case "help", "-h", "--help", "-help":
			usage(stdout)
			return 0
		}
	}
	return cmdRun(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  purr [flags] TEST.litmus... | @INDEX   run tests, print herd7-format results
  purr check [-I DIR]... [--variant a,b] [-macros F.def] FILE...
                                         parse and resolve .cat models, .def files and .litmus tests
  purr xcfa [-macros F.def] [--variant v] TEST.litmus...
                                         print tests' XCFAs as Graphviz DOT
  purr executions [flags] TEST.litmus... list the executions -show selects (default all) as text
  purr view TEST.litmus [-m MODEL] [--addr HOST:PORT]
                                         serve a page of the test's executions, allowed and
                                         forbidden (loopback)
  purr why [-m MODEL] [--max-sets N] TEST.litmus...
                                         the smallest sets of the model's checks that forbid
                                         each test's outcome, with executions and witnesses

flags (herd7's single-dash spellings work too: -model, -variant, -unroll ...):
`)
	var o options
	fs := newFlagSet("purr", w, &o)
	fs.PrintDefaults()
}
