package main

import (
	"strings"
	"testing"
)

// TestHerdConfiguration runs herd7's configuration options: -conf finds
// the model and bell it names beside it and ignores picture keys with a
// note; -bell's definitions are in scope of the model; -skipchecks leaves
// a check out; -macros (or the .cfg's macros) expands the file's macros
// in C tests and reports its syntax errors with positions; -through
// other than none and unknown keys are refused.
func TestHerdConfiguration(t *testing.T) {
	sb := "../../testdata/classic/SB.litmus"
	direct, _, st := runPurr("-m", "testdata/conf/sc-named.cat", "-bell", "testdata/conf/marked.bell", sb)
	if st != 0 || !strings.Contains(direct, "\nNo\n") {
		t.Fatalf("-bell: status %d, output\n%s", st, direct)
	}
	for _, c := range []struct {
		name   string
		args   []string
		status int
		out    string // a line the output contains
		errOut string // what stderr contains
	}{
		{"conf", []string{"-conf", "testdata/conf/sc.cfg", sb}, 0, "\nNo\n", "ignoring what only changes pictures of executions (graph, fontsize)"},
		{"conf on the include path", []string{"-I", "testdata/conf", "-conf", "sc.cfg", sb}, 0, "\nNo\n", ""},
		{"conf with -skipchecks", []string{"-conf", "testdata/conf/sc.cfg", "-skipchecks", "sc", sb}, 0, "\nOk\n", ""},
		{"command line wins", []string{"-conf", "testdata/conf/sc.cfg", "-m", "testdata/forbid-all.cat", sb}, 0, "States 0", ""},
		{"bell missing", []string{"-m", "testdata/conf/sc-named.cat", sb}, 1, "", "undefined name 'Marked'"},
		{"unknown key", []string{"-conf", "testdata/conf/bad-key.cfg", sb}, 2, "", "testdata/conf/bad-key.cfg:2:3: unknown or unsupported herd7 configuration key \"nosuchkey\""},
		{"macros", []string{"-conf", "testdata/conf/sc.cfg", "-macros", "testdata/conf/bad.def", sb}, 1, "", "testdata/conf/bad.def:3:5: syntax error at \"a\""},
		{"conf naming a macro file", []string{"-conf", "testdata/macros/sc.cfg", "testdata/macros/MP-once.litmus"}, 0, "\nNo\n", ""},
		{"no macro file", []string{"-m", "sc", "testdata/macros/MP-once.litmus"}, 1, "", "testdata/macros/MP-once.litmus:5:3: unsupported function WRITE_ONCE (herd7 knows it only from a macro file"},
		{"check a macro file", []string{"check", "testdata/macros/once.def", "testdata/conf/bad.def"}, 1, "testdata/macros/once.def: ok", ""},
		{"xcfa with -macros", []string{"xcfa", "-macros", "testdata/macros/once.def", "testdata/macros/MP-once.litmus"}, 0, "load r0 <- [y] {Once,NA}", ""},
		{"a macro body's statements are instructions", []string{"-m", "sc", "-macros", "testdata/macros/copy.def", "testdata/macros/copy.litmus"}, 0, "\n[y]=1;\nOk\n", ""},
		{"through", []string{"-conf", "testdata/conf/sc.cfg", "-through", "all", sb}, 2, "", "-through all is not supported"},
		{"speedcheck spelling", []string{"-conf", "testdata/conf/sc.cfg", "-speedcheck", "fast", sb}, 0, "\nNo\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, st := runPurr(c.args...)
			if st != c.status || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.errOut) {
				t.Errorf("status %d (want %d), stdout\n%s\nstderr\n%s", st, c.status, out, errOut)
			}
		})
	}
}
