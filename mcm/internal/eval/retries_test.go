package eval

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/source"
)

// TestRetriesRemovable: each operator and kind of check, accepted or
// refused at the construct that may change the check's value.
func TestRetriesRemovable(t *testing.T) {
	noLF := func(tag string) bool { return tag != "LF" }
	lfOnly := func(tag string) bool { return tag == "LF" || tag == "NA" }
	tests := []struct {
		name, src string
		variants  []string
		skip      []string
		tags      TestTags
		want      string // "" accepted; else the error's position, then a part of its message
	}{
		// Base relations and checks.
		{name: "sc", src: "acyclic po | rf | co | fr"},
		{name: "ctrl under a check", src: "acyclic ctrl | rf"},
		{name: "complement of ctrl", src: "acyclic ~ctrl & po", want: "m.cat:1:9: ~ctrl may grow"},
		{name: "complement of an exact set", src: "empty ~W & W"},
		{name: "pick dependency subtracted", src: "empty po \\ pick-addr-dep", want: "m.cat:1:10: po \\ pick-addr-dep may grow"},
		{name: "exact subtracted", src: "empty po \\ loc"},
		{name: "ctrl subtracted", src: "empty po \\ ctrl", want: "m.cat:1:10: po \\ ctrl may grow"},

		// Sequences and closures.
		{name: "sequence through writes", src: "empty po \\ (po; [W]; po)"},
		{name: "sequence through any event", src: "empty po \\ (po; po)", want: "m.cat:1:10: po \\ (po; po) may grow"},
		{name: "sequence through a closed relation", src: "empty po \\ (po; rmw)"},
		{name: "closure of co", src: "empty po \\ co+"},
		{name: "closure of po", src: "empty loc \\ po+"}, // po is transitive
		{name: "closure through a removed read", src: "empty loc \\ ([R]; po; [W] | [W]; po; [R])+", want: "m.cat:1:11: loc \\ ([R]; po; [W] | [W]; po; [R])+ may grow"},
		{name: "inverse", src: "empty (rf; rf^-1) \\ id"},
		{name: "optional", src: "empty loc \\ po?"},

		// Domain, range, products.
		{name: "range of rf", src: "empty R \\ range(rf)"},
		{name: "domain of rf", src: "empty W \\ domain(rf)", want: "m.cat:1:9: W \\ domain(rf) may grow"},
		{name: "domain of co", src: "empty W \\ domain(co)"},
		{name: "product of a shrinking set", src: "empty (R * R) \\ (domain(ctrl) * R)", want: "m.cat:1:15: "},
		{name: "product of exact sets", src: "empty (R * W) \\ (M * W)"},

		// Negated checks.
		{name: "negated on writes", src: "~empty W"},
		{name: "negated on reads", src: "~empty R", want: "m.cat:1:1: the negated check empty"},
		{name: "negated cycle in co", src: "~acyclic co"},
		{name: "negated on a sequence", src: "~empty po; [W]; po", want: "m.cat:1:1: the negated check empty"},
		{name: "negated on a shrinking relation", src: "~irreflexive ctrl; co", want: "m.cat:1:14: ctrl may shrink"},

		// Flags, skipped checks, variants.
		{name: "flag", src: "flag ~empty po \\ ctrl as f"},
		{name: "undefined_unless", src: "undefined_unless empty po \\ ctrl as u"},
		{name: "skipped", src: "empty po \\ ctrl as c", skip: []string{"c"}},
		{name: "not skipped", src: "empty po \\ ctrl as c", skip: []string{"d"}, want: "m.cat:1:10: "},
		{name: "variant off", src: "if \"v\" then acyclic ~ctrl end"},
		{name: "variant on", src: "if \"v\" then acyclic ~ctrl end", variants: []string{"v"}, want: "m.cat:1:21: ~ctrl"},

		// Bindings and functions.
		{name: "let", src: "let x = po \\ ctrl\nacyclic x", want: "m.cat:1:12: "},
		{name: "function", src: "let f(x) = po \\ x\nempty f(ctrl)", want: "m.cat:1:15: po \\ x may grow"},
		{name: "function of an exact argument", src: "let f(x) = po \\ x\nempty f(loc)"},
		{name: "prelude's function", src: "~irreflexive fencerel(F)", want: "m.cat:1:14: fencerel(F) may shrink"},
		{name: "let rec", src: "let rec r = po | r; r\nacyclic r"},
		{name: "let rec losing paths", src: "let rec r = rf | r; po\nempty loc \\ r", want: "m.cat:2:11: "},
		{name: "let in", src: "acyclic let x = ~ctrl in x", want: "m.cat:1:17: ~ctrl"},
		{name: "match on a tag", src: "let f(t) = match t with 'a -> po || _ -> ~ctrl end\nacyclic f('a)"},
		{name: "match on another tag", src: "let f(t) = match t with 'a -> po || _ -> ~ctrl end\nacyclic f('b)", want: "m.cat:1:42: ~ctrl"},
		{name: "try fallback", src: "acyclic try Nope with ~ctrl", want: "m.cat:1:23: ~ctrl"},
		{name: "try", src: "acyclic try ctrl with ~ctrl"},
		{name: "procedure", src: "procedure p(r) = acyclic ~r end\ncall p(ctrl)", want: "m.cat:1:26: ~r may grow"},
		{name: "procedure on exact", src: "procedure p(r) = acyclic ~r end\ncall p(po)"},
		{name: "forall over values", src: "forall x in {po, rf} do acyclic x end"},
		{name: "forall over values with one growing", src: "forall x in {po, ~ctrl} do acyclic x end", want: "m.cat:1:18: ~ctrl"},
		{name: "map over values", src: "with x from map (fun r -> r | po) {rf, co}\nacyclic x"},
		{name: "map over values, growing", src: "with x from map (fun r -> ~r) {ctrl}\nacyclic x", want: "m.cat:1:27: ~r may grow"},
		{name: "map over events", src: "with x from map (fun e -> {e}) R\nacyclic x", want: "m.cat:1:1: with x from map"},
		// A choice per member, as lock.cat's for failed trylocks: the
		// reads they may read from, one pair each, united.
		{name: "choice per member", src: "include \"cross.cat\"\nlet opts r = map (fun p -> p ++ 0) ((LKW * {r}) & loc & ext)\nwith x from cross(map opts (LF \\ range(rf)))\nacyclic x | po",
			tags: TestTags{Removable: lfOnly}},
		{name: "choice per member, used negated", src: "include \"cross.cat\"\nlet opts r = map (fun p -> p ++ 0) ((LKW * {r}) & loc & ext)\nwith x from cross(map opts LF)\nempty LF \\ range(x)",
			tags: TestTags{Removable: lfOnly}, want: "m.cat:4:10: LF \\ range(x) may grow"},
		{name: "choice per member, of no removed member", src: "include \"cross.cat\"\nlet opts r = map (fun p -> p ++ 0) ((LKW * {r}) & loc & ext)\nwith x from cross(map opts LF)\nempty LF \\ range(x)",
			tags: TestTags{Removable: noLF}},
		{name: "choice per member, options that shrink", src: "include \"cross.cat\"\nlet opts r = map (fun p -> p ++ 0) ((R * {r}) & loc)\nwith x from cross(map opts LF)\nacyclic x",
			want: "m.cat:3:1: with x from cross(map(opts)(LF)): a member's options are walked from a set that may lose members"},
		{name: "choice per member, members that grow", src: "include \"cross.cat\"\nlet opts r = map (fun p -> p ++ 0) ((LKW * {r}) & loc)\nwith x from cross(map opts (~ctrl))\nacyclic x",
			want: "m.cat:3:29: ~ctrl may grow"},
		{name: "difference of a value with its part", src: "let f = po; po\nlet g = f & int\nempty f \\ g"},

		// Choices.
		{name: "co generation", src: "include \"cross.cat\"\nwith co from generate_cos(po-loc & (W * W))\nacyclic co | po"},
		{name: "co generation over a growing base", src: "include \"cross.cat\"\nwith co from generate_cos(~ctrl & (W * W))\nacyclic co | po", want: "m.cat:2:27: ~ctrl"},
		{name: "order generation", src: "with s from linearisations(M, po)\nacyclic s | rf"},
		{name: "order generation over a shrinking set", src: "with s from linearisations(domain(ctrl), po)\nacyclic s", want: "m.cat:1:35: ctrl may change"},
		{name: "with over values", src: "with x from {po, rf}\nacyclic x"},
		{name: "with over values, one growing", src: "with x from {po, ~ctrl}\nacyclic x", want: "m.cat:1:18: ~ctrl"},
		{name: "with over classes", src: "with x from classes(loc)\nacyclic x", want: "m.cat:1:13: classes(loc) may change"},

		// Tags no event carries, and the kernel's lock pairs.
		{name: "tag maybe carried", src: "empty (LF * R) \\ ctrl", want: "m.cat:1:16: "},
		{name: "tag not carried", src: "empty (LF * R) \\ ctrl", tags: TestTags{Carried: noLF}},
		{name: "tag carried by retries", src: "empty po \\ (po; [Acq]; po)", want: "m.cat:1:10: "},
		{name: "tag carried by no retry", src: "empty po \\ (po; [Acq]; po)", tags: TestTags{Removable: func(tag string) bool { return tag != "Acq" }}},
		{name: "lock pairs", src: "empty ([LKR]; po; [LKW]) \\ (po; po)"},
		{name: "other pairs", src: "empty ([R]; po; [W]) \\ (po; po)", want: "m.cat:1:22: "},

		// Dependencies that a retry by assumed registers moves.
		{name: "dependencies kept", src: "acyclic data | addr | ctrl | rf"},
		{name: "dependencies moved", src: "acyclic data | addr | ctrl | rf", tags: TestTags{DepsMove: true}, want: "m.cat:1:9: data may grow"},
		{name: "no dependency, moved", src: "acyclic po | rf | co | fr", tags: TestTags{DepsMove: true}},

		// purr's well-formedness rules run with the model's receives.
		{name: "well-formedness", src: "let message-receives = domain(ctrl)", want: "wellformed.cat:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := retriesLoader(t, nil)
			m, err := l.LoadSource("m.cat", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			err = RetriesRemovableFor(Model{Cat: m, Variants: tt.variants, SkipChecks: tt.skip}, tt.tags)
			if tt.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			var e *source.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a *source.Error at %s", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got  %v\nwant %s...", err, tt.want)
			}
		})
	}
}

// TestRetriesBaseNames: every predefined set and relation has a verdict,
// and the control dependencies are the ones that may lose pairs.
func TestRetriesBaseNames(t *testing.T) {
	sc := retriesPredefined(TestTags{}, removeRetries)
	var shrinking []string
	for _, name := range sc.names {
		v, _ := sc.own(name)
		e, ok := v.(*events)
		if !ok {
			continue
		}
		if e.grows != nil {
			t.Errorf("%s may grow", name)
		}
		if e.shrinks != nil {
			shrinking = append(shrinking, name)
		}
	}
	slices.Sort(shrinking)
	want := []string{"ctrl", "iico_ctrl", "pick-addr-dep", "pick-ctrl-dep", "pick-data-dep"}
	if !slices.Equal(shrinking, want) {
		t.Errorf("may shrink: %v, want %v", shrinking, want)
	}
}
