package mcm

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// lockProgram takes a spinlock and releases it on one thread, and asks
// whether the lock is held on another.
const lockProgram = `C locks
{}
P0(spinlock_t *s, int *x)
{
	__lock(s);
	__store{once}(*x, 1);
	__unlock(s);
}
P1(spinlock_t *s, int *x)
{
	int r0;
	r0 = __islocked(s);
}
exists (1:r0=1)
`

// lockFinalProgram observes a lock's final value: herd7's final write of
// it is the initial write, its own co ordering no lock event.
const lockFinalProgram = `C lock-final
{}
P0(spinlock_t *s, int *x)
{
	__lock(s);
	__store{once}(*x, 1);
	__unlock(s);
}
locations [s;]
exists (x=1)
`

// srcuProgram passes srcu_read_lock's index to srcu_read_unlock on P0,
// and another value on P1.
const srcuProgram = `C srcu
{}
P0(int *s)
{
	int r0;
	r0 = __srcu{srcu-lock}(s);
	__srcu{srcu-unlock}(s, r0);
}
P1(int *s)
{
	int r0;
	r0 = __srcu{srcu-lock}(s);
	__srcu{srcu-unlock}(s, 5);
	__srcu{sync-srcu}(s);
}
exists (0:r0=0)
`

// rscsProgram has two RCU read-side critical sections in a row.
const rscsProgram = `C rscs
{}
P0(int *x)
{
	__fence{rcu-lock};
	__store{once}(*x, 1);
	__fence{rcu-unlock};
	__fence{rcu-lock};
	__store{once}(*x, 2);
	__fence{rcu-unlock};
}
exists (x=2)
`

// ctrlProgram writes z under a condition on the value read, then y.
const ctrlProgram = `C ctrl
{}
P0(int *x, int *y, int *z)
{
	int r0;
	r0 = __load{once}(*x);
	if (r0 == 0) {
		__store{once}(*z, 1);
	}
	__store{once}(*y, 1);
}
P1(int *x)
{
	__store{once}(*x, 1);
}
exists (0:r0=0)
`

// TestLKMMEvents checks herd's lock and SRCU events (litmus/c/locks.go,
// xcfa.Mark) as the models see them, and the bell's tag sets, in both
// engines: every model states facts as flags, which must be raised
// exactly as listed.
func TestLKMMEvents(t *testing.T) {
	for _, c := range []struct {
		name, model, test string
		flags             []string
		states            int
	}{
		{name: "lock events are no memory accesses", test: lockProgram, model: `
flag ~empty (LKR | LKW | UL | RL | RU) & M as in-M
flag ~empty LKR & LKW as lkr-is-lkw
flag ~empty ([LKR] ; po-loc ; [LKW]) \ (po ; po) as lock-pair
flag ~empty [LKW] ; po-loc ; [UL] as critical
flag ~empty (LKR | LKW) \ LK as not-LK
flag ~empty rf & (_ * (LKR | RL | RU)) as native-rf
flag ~empty co & (IW * LKW) as lkw-in-co
flag ~empty co & (_ * UL) as ul-in-co
`, flags: []string{"critical", "lkw-in-co", "lock-pair"}, states: 2},
		{name: "the final write of a lock is its initial write", test: lockFinalProgram, model: `
flag ~empty [FW] ; loc ; [LKW] as lock-final
flag ~empty [FW \ IW] ; loc ; [LKW] as lock-not-initial
flag ~empty FW & LKW as lkw-final
`, flags: []string{"lock-final"}, states: 1},
		{name: "islocked is RL or RU", test: lockProgram, model: `
flag ~empty RL as held
flag ~empty RU as free
`, flags: []string{"free", "held"}, states: 2},
		{name: "bell tags define sets", test: srcuProgram, model: `
enum SRCU = 'srcu-lock || 'srcu-unlock || 'sync-srcu || 'unused
flag ~empty Srcu-lock as lock
flag ~empty Srcu-unlock as unlock
flag ~empty Sync-srcu as sync
flag ~empty Unused as unused
flag ~empty (Srcu-lock | Srcu-unlock) & M as in-M
`, flags: []string{"lock", "sync", "unlock"}, states: 1},
		{name: "different-values matches SRCU indexes", test: srcuProgram, model: `
enum SRCU = 'srcu-lock || 'srcu-unlock || 'sync-srcu
let pairs = ([Srcu-lock] ; po ; [Srcu-unlock]) & loc
flag ~empty different-values(pairs) as mismatched
flag ~empty pairs \ different-values(pairs) as matched
flag ~empty different-values(pairs) & (domain(pairs) * domain(pairs)) as lock-is-unlock
`, flags: []string{"matched", "mismatched"}, states: 1},
		{name: "let rec rounds see the values of the same round", test: rscsProgram, model: `
let matched = let rec
	    unmatched-locks = Rcu-lock \ domain(matched)
	and unmatched-unlocks = Rcu-unlock \ range(matched)
	and unmatched = unmatched-locks | unmatched-unlocks
	and unmatched-po = [unmatched] ; po ; [unmatched]
	and unmatched-locks-to-unlocks = [unmatched-locks] ; po ; [unmatched-unlocks]
	and matched = matched | (unmatched-locks-to-unlocks \ (unmatched-po ; unmatched-po))
	in matched
flag ~empty matched as matched
flag ~empty matched & (po ; [Rcu-unlock] ; po) as crossing
`, flags: []string{"matched"}, states: 2},
		{name: "a C control dependency ends with its if", test: ctrlProgram, model: `
flag ~empty ctrl as ctrl
flag ~empty ctrl & (ctrl ; po) as beyond-the-if
`, flags: []string{"ctrl"}, states: 2},
	} {
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			t.Run(c.name+"/"+engine, func(t *testing.T) {
				out, err := Check(inlineModel(t, c.model), inlineTest(t, c.test), Options{Unroll: 2, Engine: engine})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(out.Flags, c.flags) {
					t.Errorf("flags %q, want %q", out.Flags, c.flags)
				}
				if len(out.States) != c.states {
					t.Errorf("%d states, want %d", len(out.States), c.states)
				}
			})
		}
	}
}

// TestBellNamesUnbound: a tag set exists only where an enum declares the
// tag, as in herd7: Once is not predefined.
func TestBellNamesUnbound(t *testing.T) {
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	if err := CheckNames(l); err != nil {
		t.Fatal(err)
	}
	_, err := l.LoadSource("x.cat", []byte("flag ~empty Once as once\n"))
	if err == nil || !strings.Contains(err.Error(), "undefined name 'Once'") {
		t.Errorf("got %v, want undefined name 'Once'", err)
	}
	if _, err := l.LoadSource("y.cat", []byte("enum A = 'once\nflag ~empty Once as once\n")); err != nil {
		t.Errorf("with the enum: %v", err)
	}
}

// TestLockEventsListed checks that executions list the kernel's lock
// events (marks) as herd draws them, in both engines: kind M, at the
// lock, named by their first tag, in program order with the accesses.
func TestLockEventsListed(t *testing.T) {
	m := inlineModel(t, "\"marks\"\nacyclic po\n")
	lt := inlineTest(t, lockProgram)
	for _, engine := range []string{EngineSAT, EngineExplicit} {
		opt := engineOptions(engine, 2)
		opt.Show = outcome.ShowAll
		out, err := Check(m, lt, opt)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		seen := map[string]bool{}
		for _, x := range out.Executions {
			var p0 []string
			for _, e := range x.Events {
				if e.Kind == "M" {
					if e.Loc != "s" || e.Value != "" {
						t.Errorf("%s: %s at %q, value %q: want it at s, with no value", engine, show.EventText(e), e.Loc, e.Value)
					}
					seen[e.Tags[0]] = true
				}
				if e.Thread == 0 {
					p0 = append(p0, show.EventText(e))
				}
			}
			if got, want := strings.Join(p0, " "), "c: LKR[s] d: LKW[s] e: W[x]=1 f: UL[s]"; got != want {
				t.Errorf("%s: P0 lists %q, want %q", engine, got, want)
			}
		}
		for _, tag := range []string{"LKR", "LKW", "UL", "RL", "RU"} {
			if !seen[tag] {
				t.Errorf("%s: no execution lists a %s event", engine, tag)
			}
		}
	}
}
