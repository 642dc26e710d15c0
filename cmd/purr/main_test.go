package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/mcm/outcome"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/NAME.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
}

func runPurr(args ...string) (stdout, stderr string, status int) {
	var out, errb bytes.Buffer
	status = run(args, &out, &errb)
	return out.String(), errb.String(), status
}

func TestHerdSpellings(t *testing.T) {
	var o options
	fs := newFlagSet("purr", &bytes.Buffer{}, &o)
	args, err := parseFlags(fs, &o, []string{"-model", "x.cat", "-I", "d1", "-Id2", "-variant", "a,b",
		"-unroll=3", "-timeout", "1.5", "-speedcheck", "t.litmus", "--", "-model"})
	if err != nil {
		t.Fatal(err)
	}
	want := herd.Default()
	want.Model, want.Includes, want.Variants = "x.cat", []string{"d1", "d2"}, []string{"a", "b"}
	want.Unroll, want.Timeout, want.Speedcheck, want.Show = 3, 1500000000, true, outcome.ShowNone
	if !reflect.DeepEqual(o.cfg, want) {
		t.Errorf("configuration: got %+v, want %+v", o.cfg, want)
	}
	if !reflect.DeepEqual(args, []string{"t.litmus", "-model"}) {
		t.Errorf("arguments: got %q", args)
	}
}

func TestCheckErrors(t *testing.T) {
	for _, name := range []string{"bad-paren.cat", "bad-include.cat", "bad-instruction.litmus", "unbound.cat"} {
		t.Run(name, func(t *testing.T) {
			out, errs, status := runPurr("check", filepath.Join("testdata", name))
			if status != 1 {
				t.Errorf("exit status %d, want 1 (stderr %q)", status, errs)
			}
			golden(t, "check-"+name, out)
		})
	}
}

func TestCheckOK(t *testing.T) {
	out, errs, status := runPurr("check", "../../models/tso.cat", "../../testdata/MP.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s%s", status, out, errs)
	}
	want := "../../models/tso.cat: ok\n../../testdata/MP.litmus: ok\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestCheckHerdLibdir runs purr check on every Cat file of herd7's library.
// The golden list holds the files that name what purr does not define
// (herd7's builtins purr lacks, other architectures' tags, fragments that
// rely on the file including them), with every such name, and the others
// as ok.
func TestCheckHerdLibdir(t *testing.T) {
	dir := shared.Path(t, "herd-libdir")
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(p, ".cat") || strings.HasSuffix(p, ".bell")) {
			files = append(files, p)
		}
		return err
	})
	if len(files) != 96 {
		t.Errorf("found %d .cat and .bell files, want 96", len(files))
	}
	out, _, status := runPurr(append([]string{"check", "-I", dir}, files...)...)
	if status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
	golden(t, "check-herd-libdir", strings.ReplaceAll(out, dir+string(filepath.Separator), "LIBDIR/"))
}

// TestRunBrokenModel: a model with an unbound name is refused once,
// before any test runs, with or without worker processes.
func TestRunBrokenModel(t *testing.T) {
	tests := []string{"../../testdata/MP.litmus", "../../testdata/classic/SB.litmus"}
	for _, extra := range [][]string{nil, {"--timeout", "1m"}} {
		args := append(append([]string{"-m", "testdata/unbound.cat"}, extra...), tests...)
		out, errs, status := runPurr(args...)
		if status != 1 || out != "" {
			t.Errorf("%q: status %d, stdout %q: want 1 and no result", args, status, out)
		}
		if want := "testdata/unbound.cat:4:24: undefined name 'nosuch'\n"; errs != want {
			t.Errorf("%q: stderr %q, want %q", args, errs, want)
		}
	}
}

// TestRunBrokenDefaultModel: without -m, the default model of every
// architecture among the tests is loaded before the first test runs, so
// a broken one (here rc11.cat shadowed by -I) stops the run before the
// AArch64 test is checked.
func TestRunBrokenDefaultModel(t *testing.T) {
	out, errs, status := runPurr("-I", "testdata/shadow", "../../testdata/MP.litmus", "testdata/SB.c.litmus")
	if status != 1 || out != "" {
		t.Errorf("status %d, stdout %q: want 1 and no result", status, out)
	}
	if want := "testdata/shadow/rc11.cat:2:19: undefined name 'sw'\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

func TestRunMP(t *testing.T) {
	out, errs, status := runPurr("-m", "sc", "../../testdata/MP.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	golden(t, "run-MP-sc", withoutTime(out))
}

// TestRunX86 runs the X86 tests under their default model (x86tso) and
// compares herd7's blocks with the golden.
func TestRunX86(t *testing.T) {
	files, err := filepath.Glob("../../testdata/x86/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no X86 tests: %v", err)
	}
	out, errs, status := runPurr(files...)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	golden(t, "run-x86", withoutTime(out))
}

// TestRunBPF runs the BPF tests under their default model (purr's bpf)
// and compares herd7's blocks with the golden.
func TestRunBPF(t *testing.T) {
	files, err := filepath.Glob("../../testdata/bpf/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no BPF tests: %v", err)
	}
	out, errs, status := runPurr(files...)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	golden(t, "run-bpf", withoutTime(out))
}

// TestRunLISA runs the LISA tests under the bell and cat files beside them,
// as herd7 runs LISA (-bell, -model), and compares herd7's blocks with the
// golden; the explicit engine prints the same.
func TestRunLISA(t *testing.T) {
	files, err := filepath.Glob("../../testdata/lisa/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no LISA tests: %v", err)
	}
	model := []string{"-bell", "../../testdata/lisa/tutorial.bell", "-m", "../../testdata/lisa/tutorial.cat"}
	out, errs, status := runPurr(append(model, files...)...)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	golden(t, "run-lisa", withoutTime(out))
	explicit, errs, status := runPurr(append(append([]string{"--engine", "explicit"}, model...), files...)...)
	if status != 0 {
		t.Fatalf("explicit engine: exit status %d: %s", status, errs)
	}
	if withoutTime(explicit) != withoutTime(out) {
		t.Errorf("the explicit engine prints otherwise:\n%s", explicit)
	}
}

// TestRunX86_64 runs the X86_64 tests under their default model
// (x86tso-mixed, named as herd7's default) and compares herd7's blocks with
// the golden.
func TestRunX86_64(t *testing.T) {
	files, err := filepath.Glob("../../testdata/x86_64/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no X86_64 tests: %v", err)
	}
	out, errs, status := runPurr(files...)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	golden(t, "run-x86_64", withoutTime(out))
}

func TestUnknownModel(t *testing.T) {
	_, errs, status := runPurr("-m", "nosuch", "../../testdata/MP.litmus")
	if status == 0 || !strings.Contains(errs, "nosuch") || !strings.Contains(errs, "sc, ") {
		t.Errorf("status %d, stderr %q: want a failure naming the model and the embedded ones", status, errs)
	}
}

// withoutTime drops herd's Time lines, which depend on the machine.
func withoutTime(out string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(line, "Time ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestMixedSizeRefused runs a mixed-size test with each engine: it is
// refused with status 1, one message on stderr naming both accesses and
// nothing on stdout, whichever engine would decide.
func TestMixedSizeRefused(t *testing.T) {
	for _, engine := range []string{"sat", "explicit"} {
		t.Run(engine, func(t *testing.T) {
			out, errs, status := runPurr("--engine", engine, "../../testdata/mixed/strb-ldrw.litmus")
			if status != 1 || out != "" {
				t.Errorf("exit status %d, stdout %q: want 1 and nothing", status, out)
			}
			golden(t, "run-mixed-size", errs)
		})
	}
}
