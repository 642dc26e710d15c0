package litmus

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// fakeDialect accepts any program as one thread P0: these tests are
// about the common layer.
func init() {
	RegisterDialect(Dialect{Arch: "TEST", Translate: func(t *Test, prog Section, _ Options) (*xcfa.Program, error) {
		return &xcfa.Program{Procs: []*xcfa.Process{xcfa.NewProcess(0)}}, nil
	}})
}

func TestParseCommonParts(t *testing.T) {
	src := `TEST T1 "the doc"
Cycle=Rfe Fre
Orig = x
{ int64_t x=1; 0:X1=x; uint64_t 0:X0; int t[2]={1,0x10}; }
 P0 ;
 whatever ;
locations [0:X0; t[1];]
filter 0:X0=1
~exists (x=2 /\ 0:X1<>x \/ not (t[1]=16) => true)
`
	test, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if test.Name != "T1" || test.Doc != "the doc" || test.Arch != "TEST" {
		t.Errorf("header: %q %q %q", test.Arch, test.Name, test.Doc)
	}
	if v, _ := test.InfoValue("Orig"); v != "x" || len(test.Info) != 2 {
		t.Errorf("info: %+v", test.Info)
	}
	if len(test.Init) != 4 || test.Init[3].ArrayLen != 2 || test.Init[3].Value.Elems[1].Int != 16 || !test.Init[3].Value.Elems[1].Hex {
		t.Errorf("init: %+v", test.Init)
	}
	if test.Init[1].Value.Kind != AddrValue || test.Init[1].Loc.Kind != RegLoc || test.Init[1].Loc.Proc != 0 {
		t.Errorf("0:X1=x: %+v", test.Init[1])
	}
	if len(test.Locations) != 2 || test.Locations[1].Loc.String() != "t[1]" || test.Filter == nil {
		t.Errorf("locations/filter: %+v %v", test.Locations, test.Filter)
	}
	want := `~exists ([x]=2 /\ not (0:X1=x) \/ not (t[1]=16) => true)`
	if got := test.ConditionString(); got != want {
		t.Errorf("condition\n got %s\nwant %s", got, want)
	}
	if test.CondPos.Line != 9 || test.CondPos.Col != 1 {
		t.Errorf("condition position %v", test.CondPos)
	}
}

func TestConditionPrinting(t *testing.T) {
	for _, c := range []struct{ cond, want string }{
		{"exists (0:X0=1)", "exists (0:X0=1)"},
		{"forall 0:X0=-1 /\\ x=0xff", "forall (0:X0=-1 /\\ [x]=255)"},
		{"exists x={2,1}", "exists (x={2,1})"},
		{"forall (a=1 \\/ b=1) /\\ c=1", "forall (([a]=1 \\/ [b]=1) /\\ [c]=1)"},
		{"forall not (x=1 /\\ y=1)", "forall (not ([x]=1 /\\ [y]=1))"},
		{"", "forall (true)"},
		{"exists ([x]=1 /\\ 0:X2=y)", "exists ([x]=1 /\\ 0:X2=y)"},
		{"exists 0:X0=0xFFFFFFFFFFFFFFFF", "exists (0:X0=-1)"},
		// Two locations compared, as herd prints C-seqctr's condition.
		{"exists (~0:r2=0:r3)", "exists (not (0:r2=0:r3))"},
		{"exists 0:r1==0:r4 /\\ 0:r1=1", "exists (0:r1=0:r4 /\\ 0:r1=1)"},
	} {
		src := "TEST T\n{}\nP0;\n" + c.cond + "\n"
		test, err := Parse("c.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", c.cond, err)
			continue
		}
		if got := test.ConditionString(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.cond, got, c.want)
		}
	}
}

func TestErrorsArePositioned(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "e.litmus:1:1: expected a header line"},
		{"TEST T\n", "e.litmus:2:1: expected the initial state"},
		{"TEST T\n{ 0:X0=1;\n", "e.litmus:2:1: the initial state opened here has no closing"},
		{"TEST T\n{ 0:X0==1; }\nP0;\nexists x=1", "e.litmus:2:7: mismatched input"},
		{"TEST T\n{}\nP0;\nexists (x=1 /\\ )", "e.litmus:4:16: "},
		{"TEST T\n{ int t[2]={1}; }\nP0;\n", "e.litmus:2:13: array t is declared with 2 cells but initialised with 1 values"},
		{"TEST T\n{ int t[0]; }\nP0;\n", "e.litmus:2:9: array t needs a positive size, not 0"},
		{"TEST T\n{ t[1]=2; }\nP0;\n", "e.litmus:2:3: unsupported initialisation of a single array cell"},
		{"TEST T\n{ atomic_t x=INIT(1); }\nP0;\n", "e.litmus:2:14: unsupported initial value INIT(...)"},
		{"TEST T\n{ int t[0];\n pte_x=1; }\nP0;\n", "e.litmus:2:9: array t needs a positive size, not 0\ne.litmus:3:2: unsupported pte_x"},
		{"TEST T\n{ x=99999999999999999999; }\nP0;\n", "e.litmus:2:5: "},
		{"SPARC T\n{}\nP0;\n", `e.litmus:1:1: unsupported architecture "SPARC"`},
		{"TEST T\n{}\nP0;\nexists (0:r1!=0:r4)", "e.litmus:4:13: unsupported != between two locations"},
		{"TEST T\n{}\nP0;\nexists (x=1 \\/ fault(P0,x))", "e.litmus:4:16: unsupported fault(...) in a condition"},
		{"TEST T\n{}\nP0;\nfilter fault(P0)\nexists (x=1)", "e.litmus:4:8: unsupported fault(...) in a condition"},
		{"TEST T\n{}\nP0;\nexists (0:X0=x:green)", "e.litmus:4:14: unsupported value x:green in a condition"},
		{"TEST T\n{}\nP0;\nexists (0:X0={1,2})", "e.litmus:4:14: unsupported list of values for 0:X0, which is not an array"},
		// herd7's system state, named rather than reported token by token.
		{"TEST T\n{ x=1;\n [PTE(x)]=(valid:0); }\nP0;\n", "e.litmus:3:3: unsupported page-table entries and physical addresses (herd7's virtual memory"},
		{"TEST T\n{ pteval_t 0:X1=(oa:PA(x)); }\nP0;\n", "e.litmus:2:3: unsupported page-table entries"},
		{"TEST T\n{ int x=0;\n pte_x = (af:0);\n 0:X2=x; }\nP0;\n", "e.litmus:3:2: unsupported page-table entries"},
		{"TEST T\n{ 0:X2=x; 0:X1=(valid:0,db:1); }\nP0;\n", "e.litmus:2:16: unsupported page-table entries"},
		{"TEST T\n{}\nP0;\nforall x=1 /\\ pte_x=(af:1)", "e.litmus:4:15: unsupported page-table entries"},
		{"TEST T\n{}\nP0;\nexists (0:X2=label:\"P0:L\")", "e.litmus:4:14: unsupported label:\"P:L\" values (herd7's instruction-fetch"},
		{"TEST T\n{ [INTID(A)]=(priority:0); }\nP0;\n", "e.litmus:2:4: unsupported interrupt-controller state (herd7's GIC extension)"},
		{"TEST T\n{ 0:X1=gicval_t:(intid:A); }\nP0;\n", "e.litmus:2:8: unsupported interrupt-controller state"},
		{"TEST T\n{}\nP0;\nexists(INTID(A)=(priority:0))", "e.litmus:4:8: unsupported interrupt-controller state"},
		{"TEST T\n{ int x=1;\n tag(x)=:red; }\nP0;\n", "e.litmus:3:2: unsupported memory tags (herd7's Memory Tagging Extension"},
		// herd7 reads pte_x and phy_x as PTE(x) and PA(x) whatever the variants.
		{"TEST T\n{ 0:X1=x;\n 0:X3=pte_x; }\nP0;\n", "e.litmus:3:7: unsupported pte_x, herd7's old spelling of PTE(x): page-table entries"},
		{"TEST T\n{ y=1;\n pte_y=2; }\nP0;\n", "e.litmus:3:2: unsupported pte_y, herd7's old spelling of PTE(y)"},
		{"TEST T\n{}\nP0;\nexists (0:X4=phy_x)", "e.litmus:4:14: unsupported phy_x, herd7's old spelling of PA(x)"},
		{"TEST T\n{}\nP0;\nexists (phy_t[1]=0)", "e.litmus:4:9: unsupported phy_t, herd7's old spelling of PA(t)"},
		{"TEST T\n{ int pte_a[2]; }\nP0;\n", "e.litmus:2:7: unsupported pte_a"},
	} {
		_, err := Parse("e.litmus", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want prefix %q", c.src, err, c.want)
		}
	}
}

func TestSplitKeepsOffsets(t *testing.T) {
	src := []byte("AArch64 X\n(* { not the init *)\n{\n 0:X1=x;\n}\n P0 ;\n NOP ;\nexists (x=0)\n<< scopes >>")
	s, err := SplitTest("s.litmus", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(s.Init.Text()); got != "0:X1=x;" {
		t.Errorf("init %q", got)
	}
	if p := s.Init.StartPos(); p.Line != 3 || p.Col != 2 {
		t.Errorf("init starts at %v", p)
	}
	if got := strings.TrimSpace(s.Prog.Text()); got != "P0 ;\n NOP ;" {
		t.Errorf("prog %q", got)
	}
	if got := strings.TrimSpace(s.Cond.Text()); got != "exists (x=0)" {
		t.Errorf("cond %q", got)
	}
	if len(s.Prog.Padded()) != len(src) {
		t.Errorf("padding changed the length")
	}
}

// FuzzParseState feeds arbitrary initial states and conditions to the
// shared grammar: errors are fine, panics are not.
func FuzzParseState(f *testing.F) {
	for _, s := range []string{"0:X1=x; int y=2;", "int t[2]={1,2}", "uint64_t *p=&x", "x=instr:\"NOP\""} {
		f.Add(s, "exists (0:X0=1 /\\ x=2)")
	}
	f.Add("", "locations [x;] filter not x=1 forall (x=1 => y={1,2} \\/ fault(P0:L0,UndefinedInstruction))")
	f.Fuzz(func(t *testing.T, init, cond string) {
		src := "TEST F\n{" + strings.ReplaceAll(init, "}", "") + "}\nP0;\n" + cond
		_, _ = Parse("f.litmus", []byte(src))
	})
}

// TestRenameRegisters renames the registers of every part of a test that
// names them, leaves memory locations alone, and stops at the first
// refusal with its position.
func TestRenameRegisters(t *testing.T) {
	src := "TEST R\n{ 0:A=1; x=2; }\n P0 ;\n whatever ;\nlocations [0:B;]\nfilter (0:C=1)\nexists (0:A=1 /\\ not (0:B=2) /\\ x=2)\n"
	test, err := Parse("r.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	err = test.RenameRegisters(func(l Loc) (string, error) {
		seen = append(seen, l.Name)
		return strings.ToLower(l.Name), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(seen, " "), "A B C A B"; got != want {
		t.Errorf("renamed %s, want %s", got, want)
	}
	if got, want := test.Init[0].Loc.Name+" "+test.Locations[0].Loc.Name+" "+FormatProp(test.Filter)+" "+FormatProp(test.Cond),
		"a b 0:c=1 0:a=1 /\\ not (0:b=2) /\\ [x]=2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	err = test.RenameRegisters(func(l Loc) (string, error) {
		if l.Name == "b" {
			return "", source.Errorf(l.Pos, "no register %s", l.Name)
		}
		return l.Name, nil
	})
	if err == nil || err.Error() != "r.litmus:5:12: no register b" {
		t.Errorf("error %v, want the refusal of b at its position", err)
	}
}

// herd7 reads only a pte_ or phy_ prefix followed by a name as system
// state; other names stay ordinary locations.
func TestHerdSystemSymbol(t *testing.T) {
	for _, c := range []struct {
		name    string
		refused bool
	}{
		{"pte_x", true}, {"phy_x", true}, {"pte_pte_x", true},
		{"pte_", false}, {"phy_", false}, {"mypte_x", false}, {"PTE_x", false}, {"x", false},
	} {
		if got := herdSystemSymbol(c.name) != ""; got != c.refused {
			t.Errorf("%s: refused %v, want %v", c.name, got, c.refused)
		}
	}
}
