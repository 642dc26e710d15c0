package mcm

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// TestPPCSemantics pins the places where herd7 7.57's Power semantics
// decides a verdict (testdata/ppc): a branch on CR0 is a control
// dependency on what cmpw read, which orders reads only with isync; rA of
// an indexed access is an address dependency, except r0, which reads as
// 0, as it does in addi; stwcx. sets CR0 to EQ when it stores, the pair
// is atomic, and CR0 after stwcx. depends on the registers it read, so
// that a branch on it orders the lwarx whose value it stored; a dotted
// instruction sets CR0 from its result. Each test has its observation under purr's ppc, by both
// engines alike, and under herd's ppc.cat when ../shared holds it.
func TestPPCSemantics(t *testing.T) {
	want := map[string]string{
		"MP+sync+ctrlisync":    "Never",
		"MP+sync+ctrl":         "Sometimes",
		"MP+sync+addr-indexed": "Never",
		"MP+sync+r0-index":     "Sometimes",
		"MP+sync+addi-r0":      "Sometimes",
		"LB+ctrls":             "Never",
		"INC+lwarx-stwcx":      "Never",
		"LB+excl-ctrl":         "Never",
		"CR0+dotted":           "Never",
	}
	byName := map[string]*cat.Model{"ppc": embeddedModel(t, "ppc")}
	if d := shared.Dir(); d != "" {
		libdir := filepath.Join(d, "herd-libdir")
		l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
		var err error
		if byName["ppc.cat"], err = l.LoadFile(filepath.Join(libdir, "ppc.cat")); err != nil {
			t.Fatal(err)
		}
	}
	for name, obs := range want {
		lt := parseTestFile(t, filepath.Join("../testdata/ppc", name+".litmus"))
		for mname, m := range byName {
			t.Run(name+"/"+mname, func(t *testing.T) {
				out, diff := compareEngines(m, lt)
				if diff != nil {
					t.Fatalf("the engines differ: %v", diff)
				}
				r := out.Result(lt, false)
				if got := fmt.Sprint(r.Observation); got != obs {
					t.Errorf("%s %d %d, want %s", got, r.Positive, r.Negative, obs)
				}
			})
		}
	}
	if files, _ := filepath.Glob("../testdata/ppc/*.litmus"); len(files) != len(want) {
		t.Errorf("%d tests in testdata/ppc, %d with an observation here", len(files), len(want))
	}
}
