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

// TestRISCVSemantics pins the places where herd7 7.57's RISC-V semantics
// decides a verdict (testdata/riscv): an AMO is one event (fence.tso
// orders it as a read), the status of a successful sc depends on the
// store, an AMO's rd on its source register; each test is forbidden under
// purr's riscv, by both engines alike, and under herd's riscv.cat when
// ../shared holds it.
func TestRISCVSemantics(t *testing.T) {
	files, err := filepath.Glob("../testdata/riscv/*.litmus")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests: %v", err)
	}
	byName := map[string]*cat.Model{"riscv": embeddedModel(t, "riscv")}
	if d := shared.Dir(); d != "" {
		libdir := filepath.Join(d, "herd-libdir")
		l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
		if byName["riscv.cat"], err = l.LoadFile(filepath.Join(libdir, "riscv.cat")); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		lt := parseTestFile(t, f)
		for name, m := range byName {
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				out, diff := compareEngines(m, lt)
				if diff != nil {
					t.Fatalf("the engines differ: %v", diff)
				}
				r := out.Result(lt, false)
				if got := fmt.Sprint(r.Observation); got != "Never" {
					t.Errorf("%s %d %d, want Never", got, r.Positive, r.Negative)
				}
			})
		}
	}
}
