package mcm

import (
	"io/fs"
	"sort"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/internal/eval"
	"github.com/purr-mcm/purr/mcm/internal/explicit"
	"github.com/purr-mcm/purr/mcm/internal/predef"
	"github.com/purr-mcm/purr/mcm/internal/satengine"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// namesTests make events carrying many tags: AArch64 acquire, release,
// exclusive and atomic accesses and fences; C11 memory orders; Linux
// annotations; messages.
var namesTests = []string{`AArch64 tags
{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }
 P0               | P1              ;
 MOV W0,#1        | LDAR W2,[X1]    ;
 STLR W0,[X1]     | LDAPR W4,[X3]   ;
 DMB SY           | LDXR W5,[X1]    ;
 LDADD W0,W6,[X3] | STXR W7,W5,[X1] ;
 DMB ISHLD        | ISB             ;
 DSB ST           | SWPAL W0,W8,[X3];
exists (1:X2=1)
`, `C c11
{}
P0(atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_release);
  atomic_thread_fence(memory_order_seq_cst);
  int r0 = atomic_fetch_add_explicit(y, 1, memory_order_acq_rel);
}
P1(atomic_int* x, atomic_int* y) {
  int r1 = atomic_load_explicit(x, memory_order_acquire);
  int r2 = atomic_load_explicit(y, memory_order_relaxed);
  int r3 = *y;
}
exists (1:r1=1)
`, `C linux
{}
P0(int* x, int* y) {
  __store{once}(*x, 1);
  __fence{mb};
  int r0 = __xchg{mb}(y, 1);
  __store{release}(*x, 2);
}
P1(int* x, int* y) {
  int r1 = __load{acquire}(*x);
  __fence{rmb};
  int r2 = __load{once}(*y);
}
exists (1:r1=1)
`, `C messages
{}
P0(int *x) {
  send(x, 1);
}
P1(int *x) {
  int r = recv(x);
}
exists (1:r=1)
`}

// TestEnginesDefineTheTable checks that each engine computes exactly the
// names of predef's table, with their kinds: every base set, relation
// and function of the table, tag sets only for tags of the table or tags
// the test's events carry (a bell's annotations: Once, Mb...), and nothing
// else. The meanings stay each engine's own.
func TestEnginesDefineTheTable(t *testing.T) {
	table := map[string]predef.Entry{}
	for _, e := range predef.Table() {
		table[e.Name] = e
	}
	for _, src := range namesTests {
		lt := inlineTest(t, src)
		u, err := analysed(lt, 2)
		if err != nil {
			t.Fatal(err)
		}
		carried := map[string]bool{}
		for _, e := range u.Events {
			for _, tag := range e.Tags {
				carried[tag] = true
			}
		}
		sets, rels := satengine.PredefinedNames(u)
		checkEngineNames(t, lt.Name+"/sat", table, carried, sets, rels)
		sets, rels, ok := explicit.PredefinedNames(u)
		if !ok {
			t.Fatalf("%s: no candidate execution", lt.Name)
		}
		checkEngineNames(t, lt.Name+"/explicit", table, carried, sets, rels)
	}
}

func checkEngineNames(t *testing.T, what string, table map[string]predef.Entry, carried map[string]bool, sets, rels []string) {
	t.Helper()
	defined := map[string]cat.Kind{}
	for _, name := range sets {
		defined[name] = cat.KindSet
	}
	for _, name := range rels {
		if _, twice := defined[name]; twice {
			t.Errorf("%s: %s is both a set and a relation", what, name)
		}
		defined[name] = cat.KindRelation
	}
	for _, name := range eval.BuiltinNames() {
		defined[name] = cat.KindFunction
	}
	var extra, missing []string
	for name, kind := range defined {
		if e, ok := table[name]; (!ok || e.Kind != kind) && !(kind == cat.KindSet && carried[name]) {
			extra = append(extra, name+" ("+kind.String()+")")
		}
	}
	tagsCarried := 0
	for name, e := range table {
		kind, ok := defined[name]
		switch {
		case e.Tag && ok:
			tagsCarried++
		case !e.Tag && (!ok || kind != e.Kind):
			missing = append(missing, name+" ("+e.Kind.String()+")")
		}
	}
	sort.Strings(extra)
	sort.Strings(missing)
	if len(extra) > 0 {
		t.Errorf("%s: the engine defines names the table lacks: %v", what, extra)
	}
	if len(missing) > 0 {
		t.Errorf("%s: the engine lacks names of the table: %v", what, missing)
	}
	if tagsCarried == 0 {
		t.Errorf("%s: no event carries a tag of the table", what)
	}
}

// TestModelNames checks that the resolver accepts purr's own models with
// the names the engines bind, and refuses a name they do not.
func TestCheckNames(t *testing.T) {
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	if err := CheckNames(l); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sc", "tso", "pso", "aarch64", "rc11"} {
		if _, err := l.LoadFile(repoPath("models/" + name + ".cat")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := l.LoadSource("x.cat", []byte("acyclic po | fencerel(DMB.SY) | nosuch\n"))
	if want := "x.cat:1:33: undefined name 'nosuch'"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
