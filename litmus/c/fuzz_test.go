package c

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

var positioned = regexp.MustCompile(`^f\.litmus:\d+:\d+: `)

// FuzzParseC feeds arbitrary text to the C dialect, alone and as a whole
// litmus test: it must never panic, and its errors must carry positions.
func FuzzParseC(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.litmus")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("P0(int *x) { while (*x) { if (!*x) *x = 1; else ; } }"))
	f.Add([]byte("P0(atomic_t *v) { int r = atomic_cmpxchg_release(v, 0, atomic_add_return(1, v)); }"))
	f.Add([]byte("C F\n{}\nP1(int *x) { *x = 1; }\nP0(int *x) { int r = *x; }\nexists (0:r=1 /\\ 3:r=0)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := TranslateSource("f.litmus", src, nil); err != nil && !positioned.MatchString(err.Error()) {
			t.Errorf("error without a position: %v", err)
		}
		test, err := litmus.Parse("f.litmus", src)
		if err != nil {
			if !positioned.MatchString(err.Error()) {
				t.Errorf("error without a position: %v", err)
			}
			return
		}
		if test.Program == nil {
			return
		}
		for _, p := range test.Program.Procs {
			if p.Init == nil || p.Final == nil || len(p.Final.Out) != 0 {
				t.Errorf("%s: bad Init/Final", p.Name)
			}
		}
	})
}
