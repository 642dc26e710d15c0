package eval

import (
	"io/fs"
	"path/filepath"
	"slices"
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
		{"a function", "let f(x) = x | rf\nacyclic f(po)", nil, nil, false},
		{"po redefined", "let po = po & loc\nacyclic po | rf", nil, nil, false},
		{"rf chosen", "with rf from {0}\nacyclic po | rf", nil, nil, false},
		{"let in", "acyclic let x = po in x | rf", nil, nil, true},
		{"in a procedure", "procedure p() = acyclic po | rf end\ncall p()", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &cat.Loader{Embedded: []fs.FS{stdlib.FS, models.FS}}
			m, err := l.LoadSource("m.cat", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := ImpliesAcyclicPoRf(Model{Cat: m, Variants: tt.variants, SkipChecks: tt.skip}); got != tt.want {
				t.Errorf("ImpliesAcyclicPoRf = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestImpliesAcyclicPoRfModels pins the models that state po ∪ rf
// acyclic: among purr's embedded models, SC and RC11 (no-thin-air);
// among herd7's libdir models (when ../shared is there) RC11 only: its
// sc.cat orders "(fr | rf | co);sm", a sequence, and its C11 models allow
// cycles of sb and rf, as do ARMv8, TSO's "ppo | rfe" (which leaves po's
// write-read pairs out: TSO implies the property, but does not state it)
// and the Linux kernel's model.
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
	names, err := fs.Glob(models.FS, "*.cat")
	if err != nil {
		t.Fatal(err)
	}
	embedded := func(name string) *cat.Model {
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
	if got, want := passing(herd, herdNames), []string{"rc11.cat"}; !slices.Equal(got, want) {
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
