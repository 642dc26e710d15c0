package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlags checks that each flag of the README's table does what the
// table says, or is refused with a usage error naming it. --timeout,
// --max-executions and --max-sat-* are TestLimits's.
func TestFlags(t *testing.T) {
	const (
		sbC    = "testdata/SB-C.litmus"
		retry  = "testdata/retry.litmus"
		always = "testdata/MP-any.litmus" // every execution meets its condition
	)
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stdout []string // what stdout holds
		stderr string   // what stderr holds ("": nothing)
	}{
		{name: "AArch64 tests default to aarch64", args: []string{mp}, stdout: []string{"Observation MP Sometimes 1 3"}},
		{name: "-m", args: []string{"-m", "sc", mp}, stdout: []string{"Observation MP Never 0 3"}},
		{name: "C tests default to rc11", args: []string{sbC}, stdout: []string{"Observation SB-C Sometimes 1 3"}},
		{name: "-m on a C test", args: []string{"-m", "sc", sbC}, stdout: []string{"Observation SB-C Never 0 3"}},
		{name: "X86 tests default to x86tso", args: []string{"../../testdata/x86/SB+xchgs.litmus", "../../testdata/x86/SB.litmus"},
			stdout: []string{"Observation SB+xchgs Never 0 3", "Observation SB Sometimes 1 3"}},
		{name: "-m on an X86 test", args: []string{"-m", "sc", "../../testdata/x86/SB.litmus"}, stdout: []string{"Observation SB Never 0 3"}},
		{name: "X86_64 tests default to x86tso-mixed", args: []string{"../../testdata/x86_64/SB+xchgs.litmus", "../../testdata/x86_64/SB.litmus"},
			stdout: []string{"Observation SB+xchgs Never 0 3", "Observation SB Sometimes 1 3"}},
		{name: "-m on an X86_64 test", args: []string{"-m", "sc", "../../testdata/x86_64/SB.litmus"}, stdout: []string{"Observation SB Never 0 3"}},
		{name: "BPF tests default to bpf", args: []string{"../../testdata/bpf/SB+fetches.litmus", "../../testdata/bpf/SB.litmus"},
			stdout: []string{"Observation SB+fetches Never 0 3", "Observation SB Sometimes 1 3"}},
		{name: "-m on a BPF test", args: []string{"-m", "sc", "../../testdata/bpf/SB.litmus"}, stdout: []string{"Observation SB Never 0 3"}},
		{name: "-model file", args: []string{"-model", "../../models/sc.cat", mp}, stdout: []string{"Observation MP Never 0 3"}},

		{name: "-I finds the model and its includes", args: []string{"-m", "uses-b", "-I", "testdata/include-a", "--include", "testdata/include-b", mp},
			stdout: []string{"Observation MP Never 0 3"}},
		{name: "without -I the include is missing", args: []string{"-m", "uses-b", "-I", "testdata/include-a", mp}, status: 1,
			stderr: `cannot find included file "sc-axiom.cat"`},

		{name: "no variant", args: []string{"-m", "testdata/variant.cat", mp}, stdout: []string{"Observation MP Sometimes 1 3"}},
		{name: "--variant", args: []string{"-m", "testdata/variant.cat", "--variant", "sc", mp}, stdout: []string{"Observation MP Never 0 3"}},
		{name: "-variant among others", args: []string{"-m", "testdata/variant.cat", "-variant", "x,sc", mp}, stdout: []string{"Observation MP Never 0 3"}},

		{name: "--distinct rf", args: []string{"-m", "udp", "--distinct", "rf", "../../testdata/protocols/udp.litmus"}, stdout: []string{"Observation udp Sometimes 2 4"}},
		{name: "-distinct rf,co is herd7's counting", args: []string{"-m", "udp", "-distinct", "rf,co", "../../testdata/protocols/udp.litmus"}, stdout: []string{"Observation udp Sometimes 12 24"}},
		{name: "--distinct names an unknown relation", args: []string{"-m", "udp", "--distinct", "po", "../../testdata/protocols/udp.litmus"}, status: 2,
			stderr: `"po" is not a relation executions can be told apart by`},
		{name: "--distinct rf with a memory location", args: []string{"-m", "sc", "--distinct", "rf", "../../testdata/classic/2+2W.litmus"}, status: 1,
			stderr: "depends on co"},

		{name: "--unroll 1", args: []string{"-m", "sc", "--unroll", "1", retry}, stdout: []string{"Loop Ok", "Observation retry Always 2 0"},
			stderr: "testdata/retry.litmus: Test retry: Loops cut at --unroll 1"},
		{name: "default unroll 2", args: []string{"-m", "sc", retry}, stdout: []string{"Loop Ok", "Observation retry Always 3 0"},
			stderr: "testdata/retry.litmus: Test retry: Loops cut at --unroll 2"},
		{name: "-unroll 3", args: []string{"-m", "sc", "-unroll", "3", retry}, stdout: []string{"Loop Ok", "Observation retry Always 4 0"},
			stderr: "testdata/retry.litmus: Test retry: Loops cut at --unroll 3, but the answer holds for any number of iterations"},
		{name: "--unroll none", args: []string{"-m", "sc", "--unroll", "none", retry}, stdout: []string{"Ok\n", "Observation retry Always 1 0"}},
		{name: "-timeout none, herd7's no timeout", args: []string{"-m", "sc", "-timeout", "none", mp}, stdout: []string{"Observation MP Never 0 3"}},
		{name: "negative unroll", args: []string{"--unroll", "-1", mp}, status: 2, stderr: "purr: invalid argument \"-1\" for \"--unroll\" flag: must be a number of iterations (at least 0) or none, not -1\n"},

		{name: "-show alone", args: []string{"-show", "all", mp}, status: 2, stderr: "purr: -show selects the executions to draw (-o DIR) or print"},
		{name: "-show bad", args: []string{"-show", "some", mp}, status: 2, stderr: "purr: -show must be one of prop, all, neg, cond, none, wit, not \"some\"\n"},
		{name: "-o alone", args: []string{"-o", t.TempDir(), mp}, status: 2, stderr: "draws the executions -show selects: add -show all"},
		{name: "-o not a folder", args: []string{"-show", "all", "-o", mp, mp}, status: 2, stderr: "not a folder"},
		{name: "--doshow without -o", args: []string{"--doshow", "ob", mp}, status: 2, stderr: "--doshow and --unshow choose what -o DIR draws"},
		{name: "-show -o", args: []string{"-m", "sc", "-show", "all", "-o", t.TempDir(), mp}, stdout: []string{"Observation MP Never 0 3"}},
		{name: "--json", args: []string{"-m", "sc", "--json", mp}, stdout: []string{`"test":"MP"`, `"positive":0,"negative":3`, `"executions":[]`}},
		{name: "--json -show", args: []string{"-m", "sc", "--json", "-show", "neg", mp}, stdout: []string{`"index":3`, `"rf":[[`}},
		{name: "executions", args: []string{"executions", "-m", "sc", mp}, stdout: []string{"Test MP under sc: 3 of 3 executions (-show all)", "Execution 3 of MP"}},
		{name: "executions --distinct", args: []string{"executions", "-m", "udp", "--distinct", "rf", "../../testdata/protocols/udp.litmus"},
			stdout: []string{"Test udp under udp: 6 of 6 executions (-show all)", "Execution 6 of udp"}},
		{name: "executions -show prop", args: []string{"executions", "-m", "tso", "-show", "prop", "../../testdata/classic/SB.litmus"},
			stdout: []string{"1 of 4 executions (-show prop)", "of SB: the condition holds"}},
		{name: "executions --doshow unknown", args: []string{"executions", "-m", "sc", "--doshow", "nosuch", mp},
			stdout: []string{"Execution 3 of MP"}, stderr: "warning: the model and purr define no relation or set nosuch to show\n"},
		{name: "executions refuses --timeout", args: []string{"executions", "--timeout", "1", mp}, status: 2,
			stderr: "purr executions: --timeout does not apply to this command\n"},

		{name: "without speedcheck", args: []string{"-m", "sc", always}, stdout: []string{"Observation MP-any Always 3 0"}},
		{name: "--speedcheck", args: []string{"-m", "sc", "--speedcheck", always}, stdout: []string{"Observation MP-any Always 1 0"}},
		{name: "--speedcheck, explicit engine", args: []string{"-m", "sc", "-speedcheck", "--engine", "explicit", always},
			stdout: []string{"Observation MP-any Always 1 0"}},

		{name: "--hexa", args: []string{"-m", "sc", "--hexa", mp}, stdout: []string{"1:X0=0x1; 1:X2=0x1;", "Condition exists (1:X0=0x1 /\\ 1:X2=0x0)"}},
		{name: "decimal", args: []string{"-m", "sc", mp}, stdout: []string{"1:X0=1; 1:X2=1;"}},

		// The explicit engine builds no formula, so the SAT bounds do not
		// stop it: that is how the flag shows it is obeyed.
		{name: "--engine explicit", args: []string{"-m", "sc", "--engine", "explicit", "--max-sat-vars", "1", mp},
			stdout: []string{"Observation MP Never 0 3"}},
		{name: "--engine sat", args: []string{"-m", "sc", "--engine", "sat", "--max-sat-vars", "1", mp}, status: 1,
			stderr: "SAT variables (raise it with --max-sat-vars)"},
		// A refusal raised inside purr's prelude (map's walk of a set of
		// values that differs between executions) is reported at the
		// model's call, naming the test it stopped; the default engine
		// hands the test to the explicit engine.
		{name: "--engine sat, a prelude function over a varying set", args: []string{"-m", "testdata/prelude/map-varying.cat", "--engine", "sat", "../../testdata/classic/SB.litmus"}, status: 1,
			stderr: "testdata/prelude/map-varying.cat:2:23: unsupported: walking a set of values that depends on the execution (purr only chooses from it, with) (in purr's prelude, which defines the function called here) (checking ../../testdata/classic/SB.litmus)\n"},
		{name: "a prelude function over a varying set, default engine", args: []string{"-m", "testdata/prelude/map-varying.cat", "../../testdata/classic/SB.litmus"},
			stdout: []string{"Observation SB Never 0 3"}},
		{name: "--engine auto", args: []string{"--engine", "auto", mp}, status: 2, stderr: "purr: --engine must be sat or explicit, not \"auto\"\n"},

		{name: "--check-models", args: []string{"-m", "aarch64", "--check-models", mp}, stdout: []string{"Observation MP Sometimes 1 3"}},

		{name: "check takes -I", args: []string{"check", "-I", "testdata/include-b", "testdata/include-a/uses-b.cat"},
			stdout: []string{"testdata/include-a/uses-b.cat: ok"}},
		{name: "check without the variant", args: []string{"check", "testdata/variant-unbound.cat"},
			stdout: []string{"testdata/variant-unbound.cat: ok"}},
		{name: "check takes --variant", args: []string{"check", "--variant", "strict", "testdata/variant-unbound.cat"}, status: 1,
			stdout: []string{"variant-unbound.cat:2:", "nosuch"}},
		{name: "check refuses run flags", args: []string{"check", "--timeout", "1", mp}, status: 2,
			stderr: "purr check: --timeout does not apply to this command\n"},
		{name: "check refuses -m", args: []string{"check", "-m", "sc", mp}, status: 2,
			stderr: "purr check: --model does not apply to this command\n"},
		{name: "xcfa refuses --unroll", args: []string{"xcfa", "--unroll", "3", mp}, status: 2,
			stderr: "purr xcfa: --unroll does not apply to this command\n"},
		{name: "xcfa", args: []string{"xcfa", mp}, stdout: []string{"digraph"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, status := runPurr(c.args...)
			if status != c.status {
				t.Errorf("exit status %d, want %d; stderr:\n%s", status, c.status, errs)
			}
			for _, want := range c.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if c.stderr == "" && errs != "" || !strings.Contains(errs, c.stderr) {
				t.Errorf("stderr %q, want %q", errs, c.stderr)
			}
		})
	}
}

// TestNoConsistentExecution checks the warning on stderr for a test that
// has no consistent execution, which stdout, herd's stream, does not
// show but by its zero counts.
func TestNoConsistentExecution(t *testing.T) {
	warning := mp + ": warning: no consistent execution (the model forbids every candidate; check the test and the model)\n"
	for _, c := range []struct {
		name string
		args []string
	}{
		{name: "plain", args: nil},
		{name: "explicit engine", args: []string{"--engine", "explicit"}},
		{name: "speedcheck", args: []string{"--speedcheck"}},
		{name: "max executions", args: []string{"--max-executions", "2"}},
		{name: "in a worker", args: []string{"--timeout", "10s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"-m", "testdata/forbid-all.cat"}, c.args...), mp, mp)
			out, errs, status := runPurr(args...)
			if status != 0 {
				t.Errorf("exit status %d, want 0", status)
			}
			if n := strings.Count(out, "States 0\n"); n != 2 || !strings.Contains(out, "Positive: 0 Negative: 0\n") {
				t.Errorf("stdout: want two blocks of no state and no execution:\n%s", out)
			}
			if errs != warning+warning {
				t.Errorf("stderr %q, want the warning twice", errs)
			}
		})
	}
}

// TestNoExecutionPassesFilter checks that the warning names the filter
// when the test has one.
func TestNoExecutionPassesFilter(t *testing.T) {
	const path = "testdata/MP-filtered.litmus"
	out, errs, status := runPurr("-m", "sc", path)
	if status != 0 || !strings.Contains(out, "Positive: 0 Negative: 0\n") {
		t.Errorf("exit status %d, stdout:\n%s", status, out)
	}
	want := path + ": warning: no consistent execution (the model and the test's filter rule out every candidate; check the test and the model)\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// TestNoExecutionLoopCut checks that the warning names the unrolling
// bound when it cut paths, and that a larger bound gives the execution.
func TestNoExecutionLoopCut(t *testing.T) {
	const path = "testdata/countdown.litmus"
	out, errs, status := runPurr("-m", "sc", path)
	if status != 0 || !strings.Contains(out, "Loop Ok\n") || !strings.Contains(out, "Positive: 0 Negative: 0\n") {
		t.Errorf("exit status %d, stdout:\n%s", status, out)
	}
	want := path + ": Test countdown: Loops cut at --unroll 2: the answer may change with the bound, as P0's loop at " + path +
		":8:2 is no retry: an iteration changes register X0, which the code after the loop reads; nor is the bound shown to be enough: a consistent execution goes past the bound; --unroll none decides every bound where it can\n" +
		path + ": warning: no consistent execution (the model forbids every candidate, or the unrolling bound cut every path that would give one (raise --unroll); check the test and the model)\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	out, errs, _ = runPurr("-m", "sc", "--unroll", "5", path)
	if !strings.Contains(out, "Positive: 1 Negative: 0\n") || errs != "" {
		t.Errorf("--unroll 5: stdout:\n%s\nstderr %q", out, errs)
	}
}

// TestOutputFolderMade: -o names a folder that a first run makes, as the
// README's third command does on a fresh checkout.
func TestOutputFolderMade(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "out")
	if _, errs, status := runPurr("-m", "sc", "-show", "all", "-o", dir, mp); status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "MP.dot")); err != nil {
		t.Error(err)
	}
}

// TestNoExecutionWaitsForever checks that, without a bound, the warning
// says a thread may wait forever when the retries cut off are every path.
func TestNoExecutionWaitsForever(t *testing.T) {
	const path = "testdata/wait-forever.litmus"
	out, errs, status := runPurr("-m", "sc", "--unroll", "none", path)
	if status != 0 || !strings.Contains(out, "\nNo\n") || !strings.Contains(out, "Positive: 0 Negative: 0\n") {
		t.Errorf("exit status %d, stdout:\n%s", status, out)
	}
	want := path + ": warning: no consistent execution (the model forbids every candidate, or no path of the program ends (a thread waits forever: a deadlock or a livelock); check the test and the model)\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}
