package picture

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/outcome"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files under testdata")

func withState(x outcome.Execution) outcome.Execution {
	x.State = outcome.State{
		{Loc: &litmus.Loc{Kind: litmus.RegLoc, Proc: 1, Name: "X0"}, Value: outcome.Value{Off: 1}},
		{Loc: &litmus.Loc{Kind: litmus.RegLoc, Proc: 1, Name: "X2"}, Value: outcome.Value{Off: 0}},
	}
	return x
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []outcome.Execution
		opt  Options
	}{
		{"mp-default", []outcome.Execution{withState(mpRelaxed())}, Options{}},
		{"mp-sets-ppo", []outcome.Execution{mpRelaxed()}, Options{Relations: []string{"rf", "ppo", "fr"}, Sets: []string{"W", "R"}}},
		{"chain", []outcome.Execution{chain()}, Options{Relations: []string{"po", "co", "loop"}}},
		{"c-test", []outcome.Execution{cStore()}, Options{Relations: []string{"rf", "co", "sw&<hb>"}, Sets: []string{"ACQ", "REL"}}},
		{"document", []outcome.Execution{withState(mpRelaxed()), cStore()}, Options{}},
		// Failed checks: the witness's halos along the arrows drawn, its
		// own dashed arrows where none is drawn, a legend line each.
		{"mp-fails", []outcome.Execution{withState(mpFails())}, Options{}},
		{"mp-fails-rf", []outcome.Execution{mpFails()}, Options{Relations: []string{"rf"}}},
		{"fails-kinds", []outcome.Execution{failsKinds()}, Options{Relations: []string{"po", "rf", "ppo"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Document(&buf, tc.xs, tc.opt); err != nil {
				t.Fatal(err)
			}
			wellFormed(t, buf.Bytes())
			golden := filepath.Join("testdata", tc.name+".svg")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the drawing (go test ./picture -update rewrites it after a check by eye)", golden)
			}
		})
	}
}

// wellFormed decodes the whole document with encoding/xml.
func wellFormed(t *testing.T, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
	}
}

// drawn counts the arrows of each relation in a drawing.
func drawn(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	type path struct {
		Class string `xml:"class,attr"`
		Rel   string `xml:"data-rel,attr"`
	}
	counts := map[string]int{}
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return counts
		}
		if err != nil {
			t.Fatal(err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "path" {
			var p path
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "class":
					p.Class = a.Value
				case "data-rel":
					p.Rel = a.Value
				}
			}
			if p.Class == "edge" {
				counts[p.Rel]++
			}
		}
	}
}

func TestArrows(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    outcome.Execution
		opt  Options
		want map[string]int
	}{
		{"defaults are herd's", mpRelaxed(), Options{}, map[string]int{"po": 2, "rf": 2, "co": 2, "fr": 1}},
		{"only those asked", mpRelaxed(), Options{Relations: []string{"ppo"}}, map[string]int{"ppo": 1}},
		{"orders reduced to immediate steps", chain(), Options{Relations: []string{"po", "co", "loop"}},
			map[string]int{"po": 4, "co": 4, "loop": 1}},
		{"an unknown relation draws nothing", mpRelaxed(), Options{Relations: []string{"nosuch"}}, map[string]int{}},
		{"edges to unknown events are dropped", outcome.Execution{Events: mpRelaxed().Events,
			Relations: map[string][]outcome.Edge{"rf": {{From: 3, To: 99}}}}, Options{}, map[string]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := SVG(&buf, tc.x, tc.opt); err != nil {
				t.Fatal(err)
			}
			got := drawn(t, buf.Bytes())
			if len(got) != len(tc.want) {
				t.Errorf("arrows %v, want %v", got, tc.want)
			}
			for r, n := range tc.want {
				if got[r] != n {
					t.Errorf("%s: %d arrows, want %d", r, got[r], n)
				}
			}
		})
	}
}

func TestCurvesAvoidEvents(t *testing.T) {
	// fr from f (P1, second row) back to c (P0, first row) and rf from the
	// init write a to f (crossing P0's column?) must not be straight lines
	// through an event; po between neighbours is straight.
	var buf bytes.Buffer
	x := chain()
	x.Relations["skip"] = []outcome.Edge{{From: 1, To: 4}}
	if err := SVG(&buf, x, Options{Relations: []string{"po", "skip"}}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, `data-rel="skip"`) && !strings.Contains(line, " Q") {
			t.Errorf("an arrow over two events of its column is straight: %s", line)
		}
		if strings.Contains(line, `data-rel="po"`) && strings.Contains(line, " Q") {
			t.Errorf("po between neighbours is curved: %s", line)
		}
	}
}

func TestColours(t *testing.T) {
	cs := Colours([]string{"ppo", "rf", "hb", "ppo"})
	if cs["rf"] != fixedColours["rf"] || cs["ppo"] != palette[0] || cs["hb"] != palette[1] {
		t.Errorf("colours %v", cs)
	}
}

func TestMarkerIDs(t *testing.T) {
	if a, b := markerID("arrow-", "a-b"), markerID("arrow-", "a_2d_b"); a == b || strings.Contains(a[len("arrow-"):], "-") {
		t.Errorf("marker ids %q %q", a, b)
	}
}

// FuzzWellFormed draws executions whose names hold anything: the
// document must stay well-formed XML.
func FuzzWellFormed(f *testing.F) {
	f.Add("x", "1", "rf", "W", "LDR W0,[X1]", 0, 1)
	f.Add("x<y>&\"'", "\x00\x1f", "a&b<c>", "]]>", "<!-- -->", 2, 2)
	f.Add("", "", "", "", "\xff\xfe", -1, 7)
	f.Add("\uFFFE", "\uFFFF", "\r", "\t", "\U0010FFFF", 0, 0)
	f.Fuzz(func(t *testing.T, loc, value, rel, set, instr string, from, to int) {
		x := outcome.Execution{Index: 1,
			Events: []outcome.Event{{ID: 0, Label: loc, Thread: -1, Kind: "W", Loc: loc, Value: value},
				{ID: 1, Label: "b", Thread: 0, Kind: "R", Loc: loc, Value: value, Instr: instr, Tags: []string{set}},
				{ID: 2, Label: "c", Thread: 3, Kind: "F", Instr: instr}},
			Relations: map[string][]outcome.Edge{rel: {{From: from, To: to}}, "po": {{From: 1, To: 1}}},
			Sets:      map[string][]int{set: {0, 1, 2}},
			Flags:     []string{rel}}
		if from >= 0 && from < 3 && to >= 0 && to < 3 {
			x.Fails = []outcome.Failure{{Check: rel, Kind: set, Witness: []outcome.Edge{{From: from, To: to}}}}
		}
		var buf bytes.Buffer
		if err := SVG(&buf, x, Options{Relations: []string{rel, "po"}, Sets: []string{set}}); err != nil {
			t.Fatal(err)
		}
		wellFormed(t, buf.Bytes())
	})
}

// TestMessagesWithoutInitialWrites checks that a picture of an execution
// of messages leaves the initial writes out (no receive gets them, as
// listings say), and one of memory keeps them.
func TestMessagesWithoutInitialWrites(t *testing.T) {
	x := outcome.Execution{
		Events: []outcome.Event{
			{ID: 0, Label: "a", Thread: -1, Kind: "W", Loc: "x", Value: "0"},
			{ID: 1, Label: "b", Thread: 0, Kind: "W", Loc: "x", Value: "1", Tags: []string{"SEND"}},
			{ID: 2, Label: "c", Thread: 1, Kind: "R", Loc: "x", Value: "1", Tags: []string{"RECV"}},
		},
		Relations: map[string][]outcome.Edge{"rf": {{From: 1, To: 2}}, "co": {{From: 0, To: 1}}},
	}
	for _, c := range []struct {
		tags []string
		init bool
	}{{[]string{"SEND"}, false}, {nil, true}} {
		x.Events[1].Tags = c.tags
		var b bytes.Buffer
		if err := SVG(&b, x, Options{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "a: W[x]=0"); got != c.init {
			t.Errorf("tags %v: the initial write drawn: %v, want %v", c.tags, got, c.init)
		}
	}
}
