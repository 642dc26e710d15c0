package eval

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// TestImpliesAcyclicPoRf checks the syntactic analysis on models of each
// shape: what a check's relation certainly contains, through names,
// unions, closures and variants.
func TestImpliesAcyclicPoRf(t *testing.T) {
	tests := []struct {
		name, src string
		variants  []string
		skip      []string
		want      bool
	}{
		{"po and rf", "acyclic po | rf", nil, nil, true},
		{"named", "acyclic po | rf as causality", nil, nil, true},
		{"closure", "acyclic (po | rf)+", nil, nil, true},
		{"through names", "let sb = po\nlet com = rf | co | fr\nlet hb = (sb | com)*\nacyclic hb", nil, nil, true},
		{"rfe and rfi", "acyclic po | rfe | rfi", nil, nil, true},
		{"rfe alone", "acyclic po | rfe | co | fr", nil, nil, false},
		{"no po", "acyclic po-loc | rf", nil, nil, false},
		{"part of po", "acyclic (po \\ (W * R)) | rf", nil, nil, false},
		{"a sequence", "acyclic po ; rf", nil, nil, false},
		{"an intersection of both", "acyclic (po | rf) & (po | rf | co)", nil, nil, true},
		{"an intersection with less", "acyclic (po | rf) & loc", nil, nil, false},
		{"a flag", "flag acyclic po | rf as f", nil, nil, false},
		{"negated", "~acyclic po | rf", nil, nil, false},
		{"irreflexive", "irreflexive po | rf", nil, nil, false},
		{"skipped", "acyclic po | rf as c", nil, []string{"c"}, false},
		{"unnamed, skipped", "acyclic po | rf", nil, []string{"m.cat:1:1"}, false},
		{"variant on", "if \"v\" then acyclic po | rf end", []string{"v"}, nil, true},
		{"variant off", "if \"v\" then acyclic po | rf end", nil, nil, false},
		{"else", "if \"v\" then acyclic po\nelse acyclic po | rf end", nil, nil, true},
		{"rebound in a variant", "let r = po | rf\nif \"v\" then let r = po end\nacyclic r", []string{"v"}, nil, false},
		{"rebound in an undecided if", "let r = po | rf\nmatch 'a with 'a -> let r = po || _ -> let r = po end\nacyclic r", nil, nil, false},
		{"rebound later", "let r = po\nlet r = r | rf\nacyclic r", nil, nil, true},
		{"recursive", "let rec r = po | rf | r;r\nacyclic r", nil, nil, false},
		{"a function", "let f(x) = x | rf\nacyclic f(po)", nil, nil, true},
		{"a function of two", "let f(x, y) = x | y\nacyclic f(po, rf)", nil, nil, true},
		{"a recursive function", "let rec f(x) = x | rf | f(x)\nacyclic f(po)", nil, nil, false},
		{"a builtin", "acyclic po | range(rf)", nil, nil, false},
		{"po redefined", "let po = po & loc\nacyclic po | rf", nil, nil, false},
		{"rf chosen", "with rf from {0}\nacyclic po | rf", nil, nil, false},
		{"let in", "acyclic let x = po in x | rf", nil, nil, true},
		{"in a procedure", "procedure p() = acyclic po | rf end\ncall p()", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sourceModel(t, tt.src)
			if got := ImpliesAcyclicPoRf(Model{Cat: m, Variants: tt.variants, SkipChecks: tt.skip}); got != tt.want {
				t.Errorf("ImpliesAcyclicPoRf = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestImpliesAcyclicPoRfModels pins the models that state po ∪ rf
// acyclic: among purr's embedded models, SC and RC11 (no-thin-air);
// among herd7's libdir models (when ../shared is there) RC11 and SC (its
// "(fr | rf | co);sm": sm holds every access with itself); its C11
// models allow cycles of sb and rf, as do ARMv8, TSO's "ppo | rfe" (which
// leaves po's write-read pairs out: TSO implies the property, but does
// not state it) and the Linux kernel's model.
func TestImpliesAcyclicPoRfModels(t *testing.T) {
	passing := func(model func(name string) *cat.Model, names []string) []string {
		var out []string
		for _, name := range names {
			if m := model(name); m != nil && ImpliesAcyclicPoRf(Model{Cat: m}) {
				out = append(out, name)
			}
		}
		return out
	}
	names := embeddedNames(t)
	embedded := func(name string) *cat.Model { return embeddedCat(t, name) }
	if got, want := passing(embedded, names), []string{"rc11.cat", "sc.cat", "tso.cat", "x86tso-mixed.cat", "x86tso.cat"}; !slices.Equal(got, want) {
		t.Errorf("embedded models stating po | rf acyclic: %v, want %v", got, want)
	}
	dir := shared.Dir()
	if dir == "" {
		return
	}
	libdir := filepath.Join(dir, "herd-libdir")
	files, _ := filepath.Glob(filepath.Join(libdir, "*.cat"))
	herd := func(name string) *cat.Model {
		l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
		m, err := l.LoadFile(filepath.Join(libdir, name))
		if err != nil {
			return nil // a library file, no model
		}
		return m
	}
	var herdNames []string
	for _, f := range files {
		herdNames = append(herdNames, filepath.Base(f))
	}
	if !slices.Contains(herdNames, "aarch64.cat") {
		t.Fatalf("no aarch64.cat in %s", libdir)
	}
	if got, want := passing(herd, herdNames), []string{"rc11.cat", "sc.cat"}; !slices.Equal(got, want) {
		t.Errorf("herd's models stating po | rf acyclic: %v, want %v", got, want)
	}
	kernel := filepath.Join(dir, "lkmm", "model")
	l := &cat.Loader{IncludeDirs: []string{kernel}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	bell, err := l.LoadFile(filepath.Join(kernel, "linux-kernel.bell"))
	if err != nil {
		t.Fatal(err)
	}
	// As herd's Config loads a bell: its statements join the prelude and
	// come before the model's.
	l.Prelude = append(slices.Clip(l.Prelude), bell.Stmts...)
	m, err := l.LoadFile(filepath.Join(kernel, "linux-kernel.cat"))
	if err != nil {
		t.Fatal(err)
	}
	m.Stmts = append(slices.Clip(bell.Stmts), m.Stmts...)
	if ImpliesAcyclicPoRf(Model{Cat: m}) {
		t.Error("the Linux kernel's model states po | rf acyclic")
	}
}

// TestReadWriteOrders checks what a model's acyclic check is found to
// order of classified read-write pairs: through sets the tags decide,
// sequences with identities, fences between two po, dependencies, and
// nothing through what may lose pairs (a difference, a function). Classes:
// 0 a plain read, 1 an acquire read, 2 a plain write, 3 a release write,
// 4 a full fence, 5 a store fence.
func TestReadWriteOrders(t *testing.T) {
	classes := []EventClass{{Kind: 'R'}, {Kind: 'R', Tags: []string{"A"}}, {Kind: 'W'}, {Kind: 'W', Tags: []string{"L"}},
		{Kind: 'F', Tags: []string{"DMB.SY"}}, {Kind: 'F', Tags: []string{"DMB.ST"}}}
	const internal = "acyclic po-loc | co | fr | rf as internal\n"
	tests := []struct {
		name, src string
		want      []string // the families of the first found check; nil: no check found
	}{
		{"no internal check", "acyclic po | rfe as ob", nil},
		{"no rfe", internal + "acyclic po | co as ob", nil},
		{"the internal check is one", internal, nil},
		{"all of po", internal + "acyclic po | rfe as ob",
			[]string{"po 0>2", "po 0>3", "po 1>2", "po 1>3"}},
		{"acquire and release", internal + "let bob = [A]; po | po; [L]\nacyclic bob | rfe as ob",
			[]string{"po 0>3", "po 1>2", "po 1>3"}},
		{"a full fence", internal + "let bob = po; [DMB.SY]; po\nacyclic bob | rfe as ob",
			[]string{"fence 0>2 via 4", "fence 0>3 via 4", "fence 1>2 via 4", "fence 1>3 via 4"}},
		{"a fence from reads, through a name", internal + "let full = DMB.SY | DMB.ISH\nlet bob = [R \\ A]; po; [full]; po\nacyclic (bob | rfe)+ as ob",
			[]string{"fence 0>2 via 4", "fence 0>3 via 4"}},
		{"dependencies", internal + "let through = addr | data\nlet dob = addr | data | (through*; ctrl); [W]\nacyclic dob | rfe as ob",
			[]string{"addr 0>2", "addr 0>3", "addr 1>2", "addr 1>3", "ctrl 0>2", "ctrl 0>3", "ctrl 1>2", "ctrl 1>3",
				"data 0>2", "data 0>3", "data 1>2", "data 1>3"}},
		{"a difference keeps nothing", internal + "let bob = po \\ (W * R)\nacyclic bob | rfe as ob", []string{}},
		{"tags decide a set", internal + "let bob = [R \\ NoRet]; po\nacyclic bob | rfe as ob",
			[]string{"po 0>2", "po 0>3", "po 1>2", "po 1>3"}},
		{"a set that depends on the execution decides nothing", internal + "let bob = [R \\ domain(rmw)]; po\nacyclic bob | rfe as ob", []string{}},
		{"a function is followed", internal + "let orders(f, pred, succ) = [pred]; po; [f]; po; [succ]\nacyclic orders(DMB.SY, R, W) | rfe as ob",
			[]string{"fence 0>2 via 4", "fence 0>3 via 4", "fence 1>2 via 4", "fence 1>3 via 4"}},
		{"rfe restricted to the program's events", internal + "let Marked = R | W\nacyclic [Marked]; ([A]; po | rf & ext); [Marked] as ob",
			[]string{"po 1>2", "po 1>3"}},
		{"rfe restricted to fewer", internal + "let Marked = A | L\nacyclic [Marked]; ([A]; po | rf & ext); [Marked] as ob", nil},
		{"po within an intersection", internal + "acyclic (po & (R * W)) | rfe as ob",
			[]string{"po 0>2", "po 0>3", "po 1>2", "po 1>3"}},
		// The pick dependencies include the plain ones.
		{"pick dependencies", internal + "let pick-data = pick-data-dep?\nlet pob = (pick-data | pick-ctrl-dep); [W]\nacyclic pob | rfe as ob",
			[]string{"ctrl 0>2", "ctrl 0>3", "ctrl 1>2", "ctrl 1>3", "data 0>2", "data 0>3", "data 1>2", "data 1>3",
				"pick-ctrl 0>2", "pick-ctrl 0>3", "pick-ctrl 1>2", "pick-ctrl 1>3", "pick-data 0>2", "pick-data 0>3", "pick-data 1>2", "pick-data 1>3"}},
		// po-loc's pairs: po & loc's, and, in a model that keeps each
		// location coherent, fr's from reads to the writes po-after them
		// (the kernel's overwrite & int); not fr's in a model that may not.
		{"po & loc", internal + "let lws = po & loc; [W]\nacyclic lws | rfe as ob",
			[]string{"po-loc 0>2", "po-loc 0>3", "po-loc 1>2", "po-loc 1>3"}},
		{"fr within a thread, coherent", internal + "let overwrite = co | fr\nacyclic (overwrite & int) | rfe as ob",
			[]string{"po-loc 0>2", "po-loc 0>3", "po-loc 1>2", "po-loc 1>3"}},
		{"amo", internal + "acyclic amo | rfe as ob",
			[]string{"rmw 0>2", "rmw 0>3", "rmw 1>2", "rmw 1>3"}},
		// An if on a variant takes the branch the variants decide (none
		// is set here), not what both branches hold.
		{"an if on a variant", internal + "let l = if \"atomic-rmw\" then amo else po\nacyclic l | rfe as ob",
			[]string{"po 0>2", "po 0>3", "po 1>2", "po 1>3"}},
		{"fr within a thread, not coherent", "acyclic po-loc | rf as internal\nlet overwrite = co | fr\nacyclic (overwrite & int) | rfe as ob",
			[]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sourceModel(t, tt.src)
			orders := ReadWriteOrders(Model{Cat: m}, classes)
			i := slices.IndexFunc(orders, func(o ReadWriteOrder) bool { return o.Check == "ob" })
			if tt.want == nil {
				if i >= 0 {
					t.Errorf("found %v, want no check ob", orders)
				}
				return
			}
			if i < 0 {
				t.Fatalf("found %v, want the check ob", orders)
			}
			got := []string{}
			o := orders[i]
			reads := func(i int) bool { return classes[i].Kind == 'R' }
			writes := func(i int) bool { return classes[i].Kind == 'W' }
			for name, fam := range map[string]map[[2]int]bool{"po": o.Po, "ctrl": o.Ctrl, "data": o.Data, "addr": o.Addr,
				"pick-ctrl": o.PickCtrl, "pick-data": o.PickData, "pick-addr": o.PickAddr, "po-loc": o.PoLoc, "rmw": o.Rmw} {
				for k := range fam {
					if reads(k[0]) && writes(k[1]) && (name != "po-loc" || !o.Po[k]) {
						got = append(got, fmt.Sprintf("%s %d>%d", name, k[0], k[1]))
					}
				}
			}
			for k := range o.Fence {
				if reads(k[0]) && writes(k[2]) {
					got = append(got, fmt.Sprintf("fence %d>%d via %d", k[0], k[2], k[1]))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFlagsSilent checks which flags the classes of a program can raise:
// RC11's data races need a non-atomic access; a flag raised when its
// test holds, or in a procedure, counts as raised; a skipped one does not.
func TestFlagsSilent(t *testing.T) {
	atomic := []EventClass{{Kind: 'I'}, {Kind: 'R', Tags: []string{"A", "ACQ"}}, {Kind: 'W', Tags: []string{"A", "REL"}},
		{Kind: 'F', Tags: []string{"SC", "NA"}}, {Kind: 'B'}}
	plain := append(slices.Clone(atomic), EventClass{Kind: 'W', Tags: []string{"NA"}})
	anyTags := append(slices.Clone(atomic), EventClass{Kind: 'O'})
	// Plain accesses to a location thread 0 owns, or to two that threads
	// 0 and 1 own: never a pair of two threads at one location.
	owned := append(slices.Clone(atomic), EventClass{Kind: 'W', Tags: []string{"NA"}, Own: 1},
		EventClass{Kind: 'R', Tags: []string{"NA"}, Own: 1})
	ownedTwice := append(slices.Clone(owned), EventClass{Kind: 'W', Tags: []string{"NA"}, Own: 2})
	const race = "let conflict = ((W * _) | (_ * W)) & loc \\ ((IW * _) | (_ * IW))\n" +
		"let race = (conflict & ext) \\ (po | po^-1 | A * A)\n"
	tests := []struct {
		name, src string
		classes   []EventClass
		skip      []string // checks skipped, and "+v": variant v enabled
		silent    bool
	}{
		{"races of atomics", race + "undefined_unless empty race as Dr", atomic, nil, true},
		{"a plain write races", race + "undefined_unless empty race as Dr", plain, nil, false},
		{"an event of any tags", race + "undefined_unless empty race as Dr", anyTags, nil, false},
		{"plain accesses of a location one thread owns", race + "undefined_unless empty race as Dr", owned, nil, true},
		{"plain accesses of locations two threads own", race + "undefined_unless empty race as Dr", ownedTwice, nil, true},
		{"plain accesses of one thread, not of one location", race + "undefined_unless empty (W * W) & ext as Dr", ownedTwice, nil, false},
		{"a negated flag", race + "flag ~empty race as r", atomic, nil, true},
		{"a flag raised when empty", race + "flag empty race as r", atomic, nil, false},
		{"skipped", race + "undefined_unless empty race as Dr", plain, []string{"Dr"}, true},
		{"in a procedure", race + "procedure p() = flag ~empty race as r end\ncall p()", atomic, nil, false},
		{"a set of writes", "flag ~empty W as w", atomic, nil, false},
		{"a tag no event carries", "flag ~empty NA & M as na", atomic, nil, true},
		{"the domain of a relation of writes", "flag ~empty domain(rf) as d", atomic, nil, false},
		{"the domain of nothing", "flag ~empty domain(0) as d", atomic, nil, true},
		{"the range of plain writes", "flag ~empty range(_ * (W & NA)) as d", plain, nil, false},
		{"an if on a variant not enabled", "flag ~empty (if \"vmsa\" then _ else 0) as v", atomic, nil, true},
		{"an if on a variant enabled", "flag ~empty (if \"vmsa\" then _ else 0) as v", atomic, []string{"+vmsa"}, false},
		{"a try of a name no test defines", "let DMB.XYZ = try DMB.XYZ with emptyset\nflag ~empty DMB.XYZ as d", atomic, nil, true},
		{"a try of a tag some event carries", "let NAW = try NA with emptyset\nflag ~empty NAW & W as d", plain, nil, false},
		{"different values of nothing", "flag ~empty different-values((W & NA) * R) as d", atomic, nil, true},
		{"different values of plain writes", "flag ~empty different-values((W & NA) * R) as d", plain, nil, false},
		{"a recursive definition from nothing", "let rec r = [W & NA] | (r; po)\nflag ~empty r as r", atomic, nil, true},
		{"a recursive definition from plain writes", "let rec r = [W & NA] | (r; po)\nflag ~empty r as r", plain, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sourceModel(t, tt.src)
			model := Model{Cat: m}
			for _, s := range tt.skip {
				if v, ok := strings.CutPrefix(s, "+"); ok {
					model.Variants = append(model.Variants, v) // "+v": variant v enabled
				} else {
					model.SkipChecks = append(model.SkipChecks, s)
				}
			}
			if got := FlagsSilent(model, tt.classes); got != tt.silent {
				t.Errorf("FlagsSilent = %v, want %v", got, tt.silent)
			}
		})
	}
}

// sourceModel loads a model from its source, as m.cat.
func sourceModel(t *testing.T, src string) *cat.Model {
	t.Helper()
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := l.LoadSource("m.cat", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCoherentWrites: a thread's writes to a location are in co as in
// program order when a required acyclic check holds po (or po-loc) and
// co, or a required irreflexive sequence has po on one side and co on the
// other (RC11's hb; eco?); co chosen by the library's generate_cos is the
// engines' (the kernel's lock.cat); every embedded memory model states
// it (the message models are the ones that do not).
func TestCoherentWrites(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"acyclic", "acyclic po-loc | co", true},
		{"irreflexive po; co", "irreflexive po; co", true},
		{"irreflexive co; po", "irreflexive co; po", true},
		{"through names and closures", "let hb = (po | rf)+\nlet eco = (rf | co | fr)+\nirreflexive hb; eco?", true},
		{"irreflexive of a union", "irreflexive po | co", false},
		{"irreflexive without po", "irreflexive rf; co", false},
		{"a flag", "flag ~irreflexive po; co as f", false},
		{"co chosen", "include \"cross.cat\"\nwith co from generate_cos(co0)\nacyclic po-loc | co", true},
		{"no co", "acyclic po | rf", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CoherentWrites(Model{Cat: sourceModel(t, tt.src)}); got != tt.want {
				t.Errorf("CoherentWrites = %v, want %v", got, tt.want)
			}
		})
	}
	var without []string
	for _, name := range embeddedNames(t) {
		if !CoherentWrites(Model{Cat: embeddedCat(t, name)}) {
			without = append(without, name)
		}
	}
	// fence-classes.cat is a library of sets, no model.
	want := []string{"at-most-once.cat", "atomic-broadcast.cat", "causal.cat", "exactly-once.cat", "fence-classes.cat", "fifo.cat", "tcp-buffered.cat", "tcp.cat", "udp.cat"}
	if !slices.Equal(without, want) {
		t.Errorf("embedded models not ordering a thread's writes in co: %v, want %v", without, want)
	}
}

// TestReadsOwnLatest: a read of a location no other thread accesses
// reads its thread's latest write when the model keeps each location
// sequentially consistent: po against each of rf, co and fr, by acyclic
// checks or irreflexive sequences (RC11's hb; eco?); every embedded
// memory model does.
func TestReadsOwnLatest(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"acyclic", "acyclic po-loc | rf | co | fr", true},
		{"irreflexive hb; eco?", "let hb = (po | rf)+\nlet eco = (rf | co | fr)+\nirreflexive hb; eco?", true},
		{"no fr", "acyclic po-loc | rf | co", false},
		{"fr as herd's rc11.cat writes it", "let rb = (rf^-1; co) \\ id\nirreflexive po; (rf | co | rb)+", true},
		{"by two checks, as C11's Rf and Coh", "irreflexive rf; po\nirreflexive ((rf^-1)?; co; rf?); po", true},
		{"one of two checks a flag", "flag ~irreflexive rf; po as f\nirreflexive ((rf^-1)?; co; rf?); po", false},
		{"rf^-1; co without id is no fr", "let rb = (rf^-1; co) \\ loc\nirreflexive po; (rf | co | rb)+", false},
		{"irreflexive without rf", "irreflexive po; (co | fr)", false},
		{"a flag", "flag ~acyclic po-loc | rf | co | fr as f", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ReadsOwnLatest(Model{Cat: sourceModel(t, tt.src)}); got != tt.want {
				t.Errorf("ReadsOwnLatest = %v, want %v", got, tt.want)
			}
		})
	}
	var without []string
	for _, name := range embeddedNames(t) {
		if !ReadsOwnLatest(Model{Cat: embeddedCat(t, name)}) {
			without = append(without, name)
		}
	}
	want := []string{"at-most-once.cat", "atomic-broadcast.cat", "causal.cat", "exactly-once.cat", "fence-classes.cat", "fifo.cat", "tcp-buffered.cat", "tcp.cat", "udp.cat"}
	if !slices.Equal(without, want) {
		t.Errorf("embedded models where a read of an own location may not read the latest write: %v, want %v", without, want)
	}
}

// embeddedNames lists purr's embedded models' files.
func embeddedNames(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(models.FS, "*.cat")
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// embeddedCat loads one of purr's embedded models.
func embeddedCat(t *testing.T, name string) *cat.Model {
	t.Helper()
	src, err := fs.ReadFile(models.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
	m, err := l.LoadSource(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
