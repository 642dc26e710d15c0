package eval

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

const retriesGolden = "testdata/retries-models.golden"

// TestRetriesModels pins which models RetriesRemovable accepts and where
// it refuses the others: purr's embedded models, herd7's libdir models and
// the Linux kernel's model (with its bell), the last two when ../shared
// is there. -update rewrites the golden file; the lines of a missing
// ../shared are kept.
func TestRetriesModels(t *testing.T) {
	got := map[string]string{}
	names, err := fs.Glob(models.FS, "*.cat")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		src, err := fs.ReadFile(models.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		l := retriesLoader(t, nil)
		m, err := l.LoadSource(name, src)
		addVerdicts(got, "embedded "+name, m, err, "")
	}
	if dir := shared.Dir(); dir != "" {
		libdir := filepath.Join(dir, "herd-libdir")
		files, _ := filepath.Glob(filepath.Join(libdir, "*.cat"))
		for _, file := range files {
			l := retriesLoader(t, []string{libdir})
			m, err := l.LoadFile(file)
			addVerdicts(got, "herd "+filepath.Base(file), m, err, dir+"/")
		}
		if kernel := filepath.Join(dir, "lkmm", "model"); fileExists(filepath.Join(kernel, "linux-kernel.cat")) {
			l := retriesLoader(t, []string{kernel})
			bell, err := l.LoadFile(filepath.Join(kernel, "linux-kernel.bell"))
			if err != nil {
				t.Fatal(err)
			}
			// As herd's Config loads a bell: its statements join the
			// prelude and come before the model's.
			l.Prelude = append(slices.Clip(l.Prelude), bell.Stmts...)
			m, err := l.LoadFile(filepath.Join(kernel, "linux-kernel.cat"))
			if m != nil {
				m.Stmts = append(slices.Clip(bell.Stmts), m.Stmts...)
			}
			addVerdicts(got, "lkmm linux-kernel.cat", m, err, dir+"/")
		}
	}
	want := map[string]string{}
	if src, err := os.ReadFile(retriesGolden); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
			f := strings.SplitN(line, " ", 3)
			if len(f) == 3 {
				want[f[0]+" "+f[1]] = f[2]
			}
		}
	} else if !*update {
		t.Fatal(err)
	}
	if *update {
		for k, v := range want {
			if _, ok := got[k]; !ok && !strings.HasPrefix(k, "embedded ") {
				got[k] = v // ../shared is absent: keep its lines
			}
		}
		var lines []string
		for k, v := range got {
			lines = append(lines, k+" "+v)
		}
		slices.Sort(lines)
		if err := os.WriteFile(retriesGolden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for k, v := range got {
		if want[k] != v {
			t.Errorf("%s: %s\n\twant %s", k, v, want[k])
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok && strings.HasPrefix(k, "embedded ") {
			t.Errorf("%s: in %s, not among the embedded models", k, retriesGolden)
		}
	}
}

func retriesLoader(t *testing.T, includes []string) *cat.Loader {
	t.Helper()
	l := &cat.Loader{IncludeDirs: includes, Embedded: []fs.FS{stdlib.FS, models.FS}}
	if err := CheckNames(l); err != nil {
		t.Fatal(err)
	}
	return l
}

// commonTags describe the tests of loops as they usually are: no event
// carries the tags of cache and TLB maintenance or of failed or testing
// lock operations, and no retry opens or closes an RCU read-side
// section. A model's line with the suffix +common is its verdict for
// them, given when it differs from the verdict for any tags.
var commonTags = TestTags{
	Carried: func(tag string) bool {
		return !slices.Contains([]string{"TLBI", "TLBIIS", "TLBInXS", "DC.CVAU", "IC.IVAU", "IC.IALLU", "IC.IALLUIS", "LF", "RU", "RL"}, tag)
	},
	Removable: func(tag string) bool {
		return !slices.Contains([]string{"Rcu-lock", "Rcu-unlock", "Srcu-lock", "Srcu-unlock", "Sync-rcu", "Sync-srcu"}, tag)
	},
}

// gapTags describe a thread that takes a lock again: the gap access, a
// kept access whose next write to the lock is a failed attempt's, is the
// release store of the unlock before, of a constant, after the branch that
// took the lock the first time (see TestTags.GapFree).
var gapTags = func() TestTags {
	tags := commonTags
	tags.GapFree = func(name string) bool {
		return !slices.Contains([]string{"_", "M", "W", "L", "REL", "Release", "ctrl", "pick-ctrl-dep"}, name)
	}
	return tags
}()

// ownTags describe retries that write a location only their thread
// accesses (a C CAS's expected value in memory): they start inside the
// CAS, after it reads that value, which the next attempt reads again
// (dependencies move); the gap accesses are the thread's plain reads and
// writes of the location.
var ownTags = func() TestTags {
	tags := commonTags
	tags.DepsMove, tags.SplitInstances = true, true
	tags.GapFree = func(name string) bool {
		return !slices.Contains([]string{"_", "M", "R", "W", "NA", "Plain"}, name)
	}
	return tags
}()

// lockClasses are the accesses to a lock taken by an acquire exchange and
// released by a release store, all atomic (RC11's A) and marked (the
// kernel's Acquire, Once, Release and read-modify-writes).
var lockClasses = []AccessClass{
	{Tags: []string{"A", "Acquire"}, InRMW: true},
	{Tags: []string{"A", "Once"}, Write: true, InRMW: true},
	{Tags: []string{"A", "Release"}, Write: true},
}

// addVerdicts records a model's verdicts under key.
func addVerdicts(got map[string]string, key string, m *cat.Model, err error, trim string) {
	any := retriesVerdict(m, err, trim, TestTags{}, RetriesRemovableFor)
	got[key] = any
	common := retriesVerdict(m, err, trim, commonTags, RetriesRemovableFor)
	if common != any {
		got[key+"+common"] = common
	}
	moved := commonTags
	moved.DepsMove = true
	if v := retriesVerdict(m, err, trim, moved, RetriesRemovableFor); v != common {
		got[key+"+deps-move"] = v // given when it differs
	}
	got[key+"+prefixes"] = retriesVerdict(m, err, trim, commonTags, PrefixesRemovable)
	silent := retriesVerdict(m, err, trim, commonTags, SilentRetriesRemovable)
	got[key+"+silent"] = silent
	first := commonTags
	first.SilentFirst = true
	if v := retriesVerdict(m, err, trim, first, SilentRetriesRemovable); v != silent {
		got[key+"+silent-first"] = v // given when it differs
	}
	if v := retriesVerdict(m, err, trim, gapTags, SilentRetriesRemovable); v != silent {
		got[key+"+silent-gap"] = v // given when it differs
	}
	if v := retriesVerdict(m, err, trim, ownTags, SilentRetriesRemovable); v != silent {
		got[key+"+own"] = v // given when it differs
	}
	if m != nil && HasFlags(m.Stmts) {
		// Its flags, when the lock is accessed atomically only.
		atomic := commonTags
		atomic.RetryClasses = lockClasses
		got[key+"+flags"] = retriesVerdict(m, err, trim, atomic, func(m Model, tags TestTags) error { return FlagsKept(m, tags, false) })
		silent := retriesVerdict(m, err, trim, atomic, func(m Model, tags TestTags) error { return FlagsKept(m, tags, true) })
		got[key+"+flags-silent"] = silent
		// And when the test has no lock primitives (the kernel's
		// spin_lock), only its own lock.
		noLocks := atomic
		noLocks.Carried = func(tag string) bool {
			return commonTags.Carried(tag) && !slices.Contains([]string{"LKR", "LKW", "UL"}, tag)
		}
		if v := retriesVerdict(m, err, trim, noLocks, func(m Model, tags TestTags) error { return FlagsKept(m, tags, true) }); v != silent {
			got[key+"+flags-silent-no-locks"] = v // given when it differs
		}
	}
}

// retriesVerdict is a model's line of the golden file under an analysis
// (RetriesRemovableFor, PrefixesRemovable, SilentRetriesRemovable): ok, refused with the error,
// or not loaded. trim is cut from paths.
func retriesVerdict(m *cat.Model, loadErr error, trim string, tags TestTags, analysis func(Model, TestTags) error) string {
	if loadErr != nil {
		return "load: " + strings.ReplaceAll(firstLine(loadErr.Error()), trim, "")
	}
	if err := analysis(Model{Cat: m}, tags); err != nil {
		return "refused: " + strings.ReplaceAll(err.Error(), trim, "")
	}
	return "ok"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
