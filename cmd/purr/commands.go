package main

import (
	"fmt"
	"io"
)

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "purr check: not wired yet")
	return 2
}

func cmdXCFA(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "purr xcfa: not wired yet")
	return 2
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "purr: not wired yet")
	return 2
}
