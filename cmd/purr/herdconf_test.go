package main

import (
	"strings"
	"testing"
)

// TestHerdConfiguration runs herd7's configuration options: -conf finds
// the model and bell it names as herd7 does (on the include path, then
// beside it), as -bell and -macros find theirs and ignores picture keys with a
// note; -bell's definitions are in scope of the model; -skipchecks leaves
// a check out; -macros (or the .cfg's macros) expands the file's macros
// in C tests and reports its syntax errors with positions; -through
// other than none, unknown keys, initwrites false and herd7's semantic
// variants (on the command line or in the file) are refused; list keys
// (variant, nonames) cumulate over lines; -names (files of names), -oknames,
// -nonames and -excl select tests;
// a test's own Variant= lines add to the run's, or are refused likewise;
// includes and stdlib.cat are looked for on herd7's path; a .cfg's include
// and conf lines extend the include path and read another .cfg.
func TestHerdConfiguration(t *testing.T) {
	sb := "../../testdata/classic/SB.litmus"
	direct, _, st := runPurr("-m", "testdata/conf/sc-named.cat", "-bell", "testdata/conf/marked.bell", sb)
	if st != 0 || !strings.Contains(direct, "\nNo\n") {
		t.Fatalf("-bell: status %d, output\n%s", st, direct)
	}
	selected, _, st := runPurr("-conf", "testdata/conf/select.cfg", sb, "../../testdata/classic/MP.litmus", "../../testdata/classic/LB.litmus")
	if st != 0 || strings.Count(selected, "Test ") != 1 || !strings.Contains(selected, "Test LB ") {
		t.Errorf("nonames SB, nonames MP,WRC: status %d, output\n%s", st, selected)
	}
	// herd drops a .litmus suffix of a test's name (Misc.clean_name): its
	// catalogue's nonames lines name such tests without it.
	suffixed, _, st := runPurr("-m", "sc", "testdata/name-suffix.litmus")
	if st != 0 || !strings.Contains(suffixed, "Test MP+name-suffix Allowed\n") {
		t.Errorf("a test named X.litmus: status %d, output\n%s", st, suffixed)
	}
	if skipped, _, st := runPurr("-m", "sc", "-nonames", "MP+name-suffix", "testdata/name-suffix.litmus"); st != 0 || strings.Contains(skipped, "Test ") {
		t.Errorf("-nonames MP+name-suffix on a test named MP+name-suffix.litmus: status %d, output\n%s", st, skipped)
	}
	named, _, st := runPurr("-m", "sc", "-oknames", "MP,LB", sb, "../../testdata/classic/LB.litmus")
	if st != 0 || strings.Count(named, "Test ") != 1 || !strings.Contains(named, "Test LB ") {
		t.Errorf("-oknames MP,LB: status %d, output\n%s", st, named)
	}
	// herd7's -names reads a file of names (a kinds file is one), -excl
	// one of names to leave out.
	listed, _, st := runPurr("-m", "sc", "-names", "testdata/conf/names.txt", sb, "../../testdata/classic/LB.litmus")
	if st != 0 || strings.Count(listed, "Test ") != 1 || !strings.Contains(listed, "Test LB ") {
		t.Errorf("-names names.txt: status %d, output\n%s", st, listed)
	}
	excluded, _, st := runPurr("-m", "sc", "-excl", "testdata/conf/names.txt", sb, "../../testdata/classic/LB.litmus")
	if st != 0 || strings.Count(excluded, "Test ") != 1 || !strings.Contains(excluded, "Test SB ") {
		t.Errorf("-excl names.txt: status %d, output\n%s", st, excluded)
	}
	if _, errOut, st := runPurr("-m", "sc", "-names", "MP,LB", sb); st != 2 || !strings.Contains(errOut, "-names MP,LB: no such file or directory") {
		t.Errorf("-names MP,LB (herd7 reads a file of that name): status %d, stderr\n%s", st, errOut)
	}
	for _, c := range []struct {
		name   string
		args   []string
		status int
		out    string // a line the output contains
		errOut string // what stderr contains
	}{
		{"conf", []string{"-conf", "testdata/conf/sc.cfg", sb}, 0, "\nNo\n", "ignoring what only changes pictures of executions (dotmode)"},
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
		{"through", []string{"-conf", "testdata/conf/sc.cfg", "-through", "all", sb}, 0, "Positive: 1 Negative: 3\n", ""},
		{"through unknown", []string{"-conf", "testdata/conf/sc.cfg", "-through", "some", sb}, 2, "", "-through must be none, invalid or all"},
		{"a semantic variant of herd7 in a .cfg", []string{"-conf", "testdata/conf/speculation.cfg", sb}, 2, "", "testdata/conf/speculation.cfg:3:1: variant deps makes herd7 model the speculative execution"},
		{"variant lines cumulate", []string{"-conf", "testdata/conf/two-variants.cfg", sb}, 2, "", "testdata/conf/two-variants.cfg:3:1: variant mixed makes herd7 model mixed-size accesses"},
		{"a semantic variant on the command line", []string{"-variant", "MemTag", sb}, 2, "", "-variant MemTag makes herd7 model the Memory Tagging Extension"},
		{"herd's ASL semantics and optimisations answer as herd's", []string{"-m", "sc", "-variant", "ASL,cos-opt", sb}, 0, "\nNo\n", ""},
		{"initwrites false", []string{"-conf", "testdata/conf/no-init.cfg", sb}, 2, "", "testdata/conf/no-init.cfg:1:1: initwrites false: herd7 then leaves out the initial writes"},
		{"a .cfg's files on the include path", []string{"-I", "testdata/conf", "-conf", "testdata/conf/cfgs/on-path.cfg", sb}, 0, "\nNo\n", ""},
		{"-bell and -macros on the include path", []string{"-I", "testdata/conf", "-I", "testdata/macros", "-m", "sc-named.cat", "-bell", "marked.bell", "-macros", "once.def", "testdata/macros/MP-once.litmus"}, 0, "\nNo\n", ""},
		{"a test's Variant= line reaches the model", []string{"-m", "testdata/variant.cat", "testdata/variants/MP-variant-sc.litmus"}, 0, "Observation MP+variant-sc Never 0 3", ""},
		{"a test's semantic Variant= line", []string{"testdata/variants/LB-deps.litmus"}, 1, "", "testdata/variants/LB-deps.litmus:4:1: variant deps makes herd7 model the speculative execution"},
		{"a tagged address without herd's memtag", []string{"-m", "sc", "testdata/variants/tagged.litmus"}, 1, "", "testdata/variants/tagged.litmus:4:6: unsupported tagged address x:green: memory tags are herd7's Memory Tagging Extension"},
		{"a test of a semantic variant that does not parse", []string{"testdata/variants/pte.litmus"}, 1, "", "testdata/variants/pte.litmus:2:1: variant vmsa makes herd7 model virtual memory"},
		{"an include beside the model", []string{"-m", "testdata/herdpath/lib/m.cat", sb}, 0, "\nNo\n", ""},
		{"an -I folder overrides an include beside the model, as in herd7", []string{"-I", "testdata/herdpath/over", "-m", "testdata/herdpath/lib/m.cat", sb}, 0, "\nOk\n", ""},
		{"a stdlib.cat that is not herd's on the path", []string{"-I", "testdata/herdpath/stdlib-changed", "-m", "sc", sb}, 1, "", "testdata/herdpath/stdlib-changed/stdlib.cat: herd7 would read this stdlib.cat before the model, and it is not herd7 7.57's"},
		{"a file of herd's default model on the path, without herd's model", []string{"-I", "testdata/herdpath/deps-changed", "../../testdata/classic/MP.litmus"}, 1, "", "testdata/herdpath/deps-changed/aarch64deps.cat: herd7's default AArch64 model would include this file"},
		{"a file of herd's default X86_64 model on the path", []string{"-I", "testdata/herdpath/fences-changed", "../../testdata/x86_64/SB.litmus"}, 1, "", "testdata/herdpath/fences-changed/x86fences.cat: herd7's default X86_64 model would include this file, which purr's embedded model does not read: give herd's x86tso-mixed.cat with -I"},
		{"two -conf files, read in order", []string{"-conf", "testdata/conf/sc.cfg", "-conf", "testdata/conf/speculation.cfg", sb}, 2, "", "testdata/conf/speculation.cfg:3:1: variant deps"},
		{"a later -conf file overrides an earlier one", []string{"-conf", "testdata/conf/sc.cfg", "-conf", "testdata/conf/forbid.cfg", sb}, 0, "States 0", ""},
		{"include and conf lines, and cat for model", []string{"-conf", "testdata/conf/with-include.cfg", sb}, 0, "\nNo\n", ""},
		{"a conf line reading its own file", []string{"-conf", "testdata/conf/loop.cfg", sb}, 2, "", "testdata/conf/loop.cfg:3:1: conf loop.cfg: the file is already being read"},
		{"a conf line naming no file", []string{"-conf", "testdata/conf/missing-conf.cfg", sb}, 2, "", "testdata/conf/missing-conf.cfg:2:1: conf no-such.cfg: no such file"},
		{"a .cfg naming a file that is nowhere", []string{"-conf", "testdata/conf/missing-bell.cfg", "-m", "sc", sb}, 2, "", "testdata/conf/missing-bell.cfg:2:1: bell no-such.bell: no such file as given or in the -I folders"},
		// "skipchecks = sc" once skipped a check named "= sc": none.
		{"key = value and a tab, as herd7 splits a line", []string{"-conf", "testdata/conf/equals.cfg", sb}, 0, "\nOk\n", ""},
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
