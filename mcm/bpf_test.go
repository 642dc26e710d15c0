package mcm

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	_ "github.com/purr-mcm/purr/litmus/bpf"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// TestBPFAmo checks how the predefined sets and relations see BPF's
// atomics: a successful cmpxchg is a read and a write tagged SC, paired in
// rmw and in amo (bpf.cat orders around (SC * SC) & amo); a fetch is one
// event, both read and write, in no pair. Each model forbids one shape;
// the executions left say which executions have it.
func TestBPFAmo(t *testing.T) {
	const cas = "BPF A\n{ 0:r1=x; 0:r2=1; 1:r1=x; }\n P0                              | P1                   ;\n" +
		" r0 = cmpxchg_64(r1 + 0, r0, r2) | *(u64 *)(r1 + 0) = 2 ;\nexists (0:r0=0)\n"
	fetch := strings.Replace(cas, "r0 = cmpxchg_64(r1 + 0, r0, r2)", "r2 = atomic_fetch_add((u64 *)(r1 + 0), r2)", 1)
	fetch = strings.Replace(fetch, "exists (0:r0=0)", "exists (0:r2=0)", 1)
	for _, c := range []struct{ name, test, model, want string }{
		// Of the cmpxchg's two executions, the failing one (it reads 2)
		// is left when the successful pair is forbidden.
		{"cmpxchg amo", cas, "empty (SC * SC) & amo", "Never 0 1"},
		{"cmpxchg rmw", cas, "empty rmw", "Never 0 1"},
		// Two events, not one: nothing is forbidden (the success whose
		// write would come before P1's in co, over P1's, is not atomic).
		{"cmpxchg is two events", cas, "empty R & W", "Sometimes 1 1"},
		// The failing cmpxchg's read is plain: the success is left.
		{"failure reads plainly", cas, "empty R \\ SC", "Always 1 0"},
		// The fetch is one event, both read and write, in no pair.
		{"fetch is one event", fetch, "empty R & W & SC & X", "Never 0 0"},
		{"fetch in no pair", fetch, "empty rmw | amo", "Sometimes 1 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
			m, err := l.LoadSource("m.cat", []byte(c.model+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			lt, err := litmus.Parse("A.litmus", []byte(c.test))
			if err != nil {
				t.Fatal(err)
			}
			out, diff := compareEngines(m, lt)
			if diff != nil {
				t.Fatalf("the engines differ: %v", diff)
			}
			r := out.Result(lt, false)
			if got := fmt.Sprintf("%s %d %d", r.Observation, r.Positive, r.Negative); got != c.want {
				t.Errorf("%s, want %s", got, c.want)
			}
		})
	}
}
