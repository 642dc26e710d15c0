package mcm

import (
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
	"github.com/purr-mcm/purr/mcm/outcome"
)

// casCasIncrement is the shape the value analysis used to refuse ("the
// value of v1 may take more than 512 values"): a thread with two
// read-modify-writes and an increment of one location, and a reader.
//
// By hand: P0 alone is deterministic. Each access of x reads the last
// write of P0 before it (coherence), so the first CAS reads 0, which is
// W2: it succeeds and writes 1. The second reads 1, which is W4, and
// writes 2. The LDR reads 2 and the STR writes 3. herd7 builds two
// candidates for every CAS that succeeds (and two for every one that
// fails), so P0 has 2×2 = 4 executions, all with W2=0, W4=1, W5=3, and co
// is init, 1, 2, 3. P1's read may read any of the four writes of x, under
// sc and under aarch64 alike: 16 executions, 4 per value of 1:X0.
const casCasIncrement = `AArch64 CAS2+INC
{
0:X0=x; 1:X0=x;
}
 P0                 | P1            ;
 MOV W1,#1          | LDR W0,[X0]   ;
 MOV W2,#0          |               ;
 CAS W2,W1,[X0]     |               ;
 MOV W3,#2          |               ;
 MOV W4,#1          |               ;
 CAS W4,W3,[X0]     |               ;
 LDR W5,[X0]        |               ;
 ADD W5,W5,#1       |               ;
 STR W5,[X0]        |               ;
locations [0:X2; 0:X4; 0:X5; x;]
exists (1:X0=2)
`

func parseLitmus(t *testing.T, src string) *litmus.Test {
	t.Helper()
	lt, err := litmus.Parse("test.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return lt
}

// TestRMWIncrementAnswered checks the hand-derived result of
// casCasIncrement under both engines and two models.
func TestRMWIncrementAnswered(t *testing.T) {
	lt := parseLitmus(t, casCasIncrement)
	var want []string
	for _, x := range []string{"0", "1", "2", "3"} {
		want = append(want, "0:X2=0; 0:X4=1; 0:X5=3; 1:X0="+x+"; [x]=3;")
	}
	for _, model := range []string{"sc", "aarch64"} {
		m := embeddedModel(t, model)
		for _, engine := range []string{EngineSAT, EngineExplicit} {
			out, err := Check(m, lt, Options{Unroll: 2, Engine: engine})
			if err != nil {
				t.Fatalf("%s, %s engine: %v", model, engine, err)
			}
			r := out.Result(lt, false)
			var got []string
			for _, s := range r.States {
				got = append(got, s.String())
			}
			if r.Verdict != herdout.Ok || r.Positive != 4 || r.Negative != 12 ||
				strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, %s engine: %v, Positive %d, Negative %d, states\n%s\nwant Ok, 4, 12,\n%s",
					model, engine, r.Verdict, r.Positive, r.Negative, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}

// TestRMWIncrementDomains checks the value analysis on casCasIncrement:
// x only ever holds 0, 1, 2 or 3 (the CASes write 1 and 2, the STR one
// more than a value its LDR reads from init or a CAS, on its own path),
// so every term takes those values, or the address x. A read of a write
// whose value derives from the read itself is out of thin air, and
// counting it made the increments feed each other without bound.
func TestRMWIncrementDomains(t *testing.T) {
	lt := parseLitmus(t, casCasIncrement)
	u, err := analysed(lt, 2)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[outcome.Value]bool{outcome.Int(0): true, outcome.Int(1): true, outcome.Int(2): true, outcome.Int(3): true, outcome.Addr("x"): true}
	for _, term := range u.Terms {
		for _, v := range term.Dom {
			if !allowed[v] {
				t.Errorf("%v may take %v (domain %v)", term, v, term.Dom)
				break
			}
		}
	}
}
