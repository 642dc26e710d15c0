package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docFiles are the documents for people: the README and docs/*.md,
// relative to the repository root.
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, guides...)
}

// docRun is a block of a guide that purr's output fills: the command line
// in the opening marker, its standard output in a fenced block after it.
var docRun = regexp.MustCompile("(?s)<!-- purr (.*?) -->\n```\n.*?```\n<!-- /purr -->")

// timeLine is the one line of herd7's output that changes between runs.
var timeLine = regexp.MustCompile(`(?m)^Time (\S+) [0-9.]+$`)

// TestGuides regenerates the runs shown in the README and the guides of
// docs/ and compares them with the files (go test -update rewrites them):
// their listings are purr's output, not pasted by hand. Time lines read
// 0.00.
func TestGuides(t *testing.T) {
	t.Chdir("../..") // the guides' command lines run from the repository root
	for _, path := range docFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		got := docRun.ReplaceAllStringFunc(string(src), func(block string) string {
			runs++
			cmd := docRun.FindStringSubmatch(block)[1]
			stdout, stderr, status := runPurr(strings.Fields(cmd)...)
			if status > 1 {
				t.Errorf("%s: purr %s: exit status %d: %s", path, cmd, status, stderr)
			}
			stdout = timeLine.ReplaceAllString(stdout, "Time $1 0.00")
			return "<!-- purr " + cmd + " -->\n```\n$ purr " + cmd + "\n" + stdout + "```\n<!-- /purr -->"
		})
		if runs == 0 {
			if path == "README.md" || path == "docs/protocols.md" {
				t.Errorf("%s shows no run of purr", path)
			}
			continue
		}
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got != string(src) {
			t.Errorf("%s: the runs it shows are not purr's output; go test ./cmd/purr -run TestGuides -update rewrites them", path)
		}
	}
}

// shBlock is a fenced block of shell commands, to run from the repository
// root. Blocks fenced otherwise (```bash, ```yaml, plain ```) show files
// or output, not commands.
var shBlock = regexp.MustCompile("(?ms)^ *```sh\n(.*?)^ *```$")

// goSpan is a go command quoted in the text, which may break across lines.
var goSpan = regexp.MustCompile("`(go (?:test|run) [^`]+)`")

// elsewhere are the commands of the documents that cannot run here, each
// with the test that runs what it shows instead.
var elsewhere = map[string]string{
	"cd catalogue/aarch64-pick && purr -I cats -j 2 --timeout 20s -I LIBDIR -conf cfgs/asl.cfg -m cats/aarch64.cat tests/*.litmus": "needs herdtools7's catalogue: TestHerdCatalogueSweepScript runs the sweep script, which runs such command lines, on a miniature catalogue",
	"cd catalogue/linux && purr -I cats -I LIBDIR -conf cfgs/linux-kernel.cfg tests/*.litmus":                                      "needs herdtools7's catalogue: TestHerdCatalogueSweepScript runs the sweep script on a miniature catalogue",
}

// TestDocCommands runs every purr command of the sh blocks of the README
// and docs/*.md (those that read ../shared skip without it), and checks
// every other command they show, in blocks or quoted in the text: a go
// test names packages, tests, benchmarks, fuzz targets and flags that
// exist, a script exists and parses, a go run names a main package.
// Moving or renaming what a document shows must fail here.
func TestDocCommands(t *testing.T) {
	t.Chdir("../..")
	commands := 0
	for _, path := range docFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, block := range shBlock.FindAllStringSubmatch(string(src), -1) {
			for _, line := range strings.Split(block[1], "\n") {
				line = strings.TrimSpace(line)
				line = strings.TrimPrefix(line, "$ ")
				if i := strings.Index(line, " #"); i >= 0 {
					line = strings.TrimSpace(line[:i])
				}
				if line != "" && !strings.HasPrefix(line, "#") {
					lines = append(lines, line)
				}
			}
		}
		for _, span := range goSpan.FindAllStringSubmatch(string(src), -1) {
			lines = append(lines, strings.Join(strings.Fields(span[1]), " "))
		}
		for _, line := range lines {
			commands++
			t.Run(path+": "+line, func(t *testing.T) {
				if reason, ok := elsewhere[line]; ok {
					t.Skip(reason)
				}
				checkDocCommand(t, line)
			})
		}
	}
	if commands < 30 {
		t.Errorf("the documents show %d commands; the test does not find them", commands)
	}
}

// checkDocCommand runs or checks one command line of a document.
func checkDocCommand(t *testing.T, line string) {
	words, err := shellWords(line)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(words, "|"); i >= 0 {
		words = words[:i] // what reads purr's output (jq, dot) is not purr's
	}
	for len(words) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(words[0]) {
		words = words[1:] // a script's settings
	}
	if len(words) >= 3 && words[0] == "cd" && words[2] == "&&" {
		t.Chdir(words[1])
		words = words[3:]
	}
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/purr":
		runDocPurr(t, words[3:])
	case len(words) >= 1 && words[0] == "purr":
		runDocPurr(t, words[1:])
	case len(words) >= 3 && words[0] == "go" && words[1] == "run":
		if !hasMainPackage(words[2]) {
			t.Errorf("go run %s: no main package there", words[2])
		}
	case len(words) >= 2 && words[0] == "go" && words[1] == "test":
		checkGoTest(t, words[2:])
	case len(words) >= 1 && strings.HasPrefix(words[0], "scripts/"):
		if out, err := exec.Command("bash", "-n", words[0]).CombinedOutput(); err != nil {
			t.Errorf("%s: %v %s", words[0], err, out)
		}
	default:
		t.Errorf("a command this test does not know how to check: %q", line)
	}
}

// runDocPurr runs purr with a document's arguments: it must answer (exit
// status 0). Its -o folder is a temporary one.
func runDocPurr(t *testing.T, args []string) {
	if len(args) > 0 && args[0] == "view" {
		t.Skip("purr view serves until stopped: TestViewChecksAgain and TestViewInBrowser run it")
	}
	args = slices.Clone(args)
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			args[i+1] = t.TempDir()
		}
		if p := strings.TrimPrefix(a, "@"); strings.HasPrefix(p, "../shared/") {
			if _, err := os.Stat(p); err != nil {
				t.Skipf("%s is absent", p)
			}
		}
	}
	if _, stderr, status := runPurr(args...); status != 0 {
		t.Errorf("exit status %d: %s", status, stderr)
	}
}

// goTestValueFlags are the go test flags that take a value.
var goTestValueFlags = []string{"run", "bench", "fuzz", "fuzztime", "fuzzminimizetime", "parallel", "timeout", "count", "benchtime", "cpu", "skip", "list"}

// flagDef finds the definition of a test's own flag: flag.Bool("name", ...).
var flagDef = regexp.MustCompile(`flag\.(\w+)\("([^"]+)"`)

// checkGoTest checks that a go test command line names packages with
// tests, flags that go test or the tests define, and -run, -bench and
// -fuzz patterns that match a function of the package.
func checkGoTest(t *testing.T, args []string) {
	own := map[string]string{} // the tests' own flags: name → kind (Bool, Int, ...)
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, m := range flagDef.FindAllStringSubmatch(string(src), -1) {
			own[m[2]] = m[1]
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	patterns := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pkgs = append(pkgs, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case slices.Contains(goTestValueFlags, name):
			if !hasValue {
				if i+1 == len(args) {
					t.Fatalf("%s without a value", a)
				}
				i++
				value = args[i]
			}
			if name == "run" || name == "bench" || name == "fuzz" {
				patterns[name] = value
			}
		case slices.Contains([]string{"v", "short", "race", "json", "cover"}, name):
		case own[name] != "":
			if own[name] != "Bool" && !hasValue {
				i++ // the flag's value
			}
		default:
			t.Errorf("%s: neither go test nor any test defines this flag", a)
		}
	}
	if len(pkgs) == 0 {
		t.Fatal("no package")
	}
	for _, pkg := range pkgs {
		if pkg == "./..." {
			continue
		}
		funcs, err := testFunctions(pkg)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(funcs) == 0 {
			t.Errorf("%s has no tests", pkg)
		}
		for kind, pattern := range patterns {
			if pattern == "^$" {
				continue // run nothing but the benchmark or fuzz target
			}
			first, _, _ := strings.Cut(pattern, "/") // the top level, above subtests
			re, err := regexp.Compile(first)
			if err != nil {
				t.Errorf("-%s %s: %v", kind, pattern, err)
				continue
			}
			prefix := map[string]string{"run": "Test", "bench": "Benchmark", "fuzz": "Fuzz"}[kind]
			if !slices.ContainsFunc(funcs, func(f string) bool {
				return strings.HasPrefix(f, prefix) && re.MatchString(f)
			}) {
				t.Errorf("-%s %s matches no %s function of %s", kind, pattern, prefix, pkg)
			}
		}
	}
}

// testFunc is a test, benchmark or fuzz target's declaration.
var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w*)\(`)

// testFunctions lists the tests, benchmarks and fuzz targets of a package
// folder.
func testFunctions(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	var funcs []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
			funcs = append(funcs, m[1])
		}
	}
	return funcs, nil
}

// hasMainPackage tells whether a folder holds a command.
func hasMainPackage(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err == nil && regexp.MustCompile(`(?m)^package main$`).Match(src) {
			return true
		}
	}
	return false
}

// shellWords splits a command line into words as sh does for the quoting
// the documents use: blanks separate words, quotes group them.
func shellWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed quote in %q", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
