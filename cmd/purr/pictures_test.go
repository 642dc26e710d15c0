package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dotGraph is one digraph of purr's DOT, read back: what herd7's
// pictures are compared by, up to layout.
type dotGraph struct {
	attrs    map[string]string            // the graph's: label, pad, splines, layout, ...
	nodes    map[string]map[string]string // node → its attributes
	edges    []dotEdge
	clusters []string // the subgraphs' names, in order
	inits    []string // the nodes under /* init events */
}

type dotEdge struct {
	from, to string
	attrs    map[string]string
}

var (
	dotNode    = regexp.MustCompile(`^(\w+) \[(.*)\];?$`)
	dotEdgeRE  = regexp.MustCompile(`^(\w+) -> (\w+) \[(.*)\];$`)
	dotAttr    = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|[^,;\s]+)`)
	dotGAttr   = regexp.MustCompile(`^(\w+)=(.*);$`)
	dotCluster = regexp.MustCompile(`^subgraph (\w+) \{(.*)$`)
)

// readDOT reads the digraphs of purr's DOT output (one statement a line).
func readDOT(t *testing.T, text string) []dotGraph {
	t.Helper()
	var gs []dotGraph
	var g *dotGraph
	attrs := func(s string) map[string]string {
		m := map[string]string{}
		for _, a := range dotAttr.FindAllStringSubmatch(s, -1) {
			m[a[1]] = strings.Trim(a[2], `"`)
		}
		return m
	}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "/*") {
			section = line
		}
		switch {
		case line == "digraph G {":
			gs = append(gs, dotGraph{attrs: map[string]string{}, nodes: map[string]map[string]string{}})
			g = &gs[len(gs)-1]
		case g == nil || line == "" || line == "}" || strings.HasPrefix(line, "/*"):
		case dotCluster.MatchString(line):
			m := dotCluster.FindStringSubmatch(line)
			g.clusters = append(g.clusters, m[1])
		case dotEdgeRE.MatchString(line):
			m := dotEdgeRE.FindStringSubmatch(line)
			g.edges = append(g.edges, dotEdge{m[1], m[2], attrs(m[3])})
		case dotNode.MatchString(line):
			m := dotNode.FindStringSubmatch(line)
			g.nodes[m[1]] = attrs(m[2])
			if section == "/* init events */" {
				g.inits = append(g.inits, m[1])
			}
		case dotGAttr.MatchString(line):
			m := dotGAttr.FindStringSubmatch(line)
			g.attrs[m[1]] = strings.Trim(m[2], `"`)
		default:
			t.Fatalf("a DOT line not understood: %q", line)
		}
	}
	return gs
}

// pictureCases are the tests each .cfg of testdata/pictures draws.
var pictureCases = []string{"../../testdata/classic/MP+dmb.st+po.litmus", "../../testdata/classic/SB+swps.litmus"}

// TestPictureConfs draws tests with each herd7 configuration file of
// testdata/pictures (the picture keys of herd's catalogue's .cfg files)
// and checks what herd7 draws with them, up to layout, as herd's manual
// and its Pretty module say: the events and edges drawn, their labels and
// attributes, the clusters; goldens pin the whole DOT.
func TestPictureConfs(t *testing.T) {
	cfgs, err := filepath.Glob("testdata/pictures/*.cfg")
	if err != nil || len(cfgs) < 4 {
		t.Fatalf("the configuration files: %v, %v", cfgs, err)
	}
	for _, cfg := range cfgs {
		for _, test := range pictureCases {
			name := strings.TrimSuffix(filepath.Base(cfg), ".cfg") + "-" + strings.TrimSuffix(filepath.Base(test), ".litmus")
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				_, errs, status := runPurr("-conf", cfg, "-show", "all", "-o", dir, test)
				if status != 0 {
					t.Fatalf("exit status %d: %s", status, errs)
				}
				files, _ := filepath.Glob(filepath.Join(dir, "*.dot"))
				if len(files) != 1 {
					t.Fatalf("pictures %v, want one file", files)
				}
				dot, err := os.ReadFile(files[0])
				if err != nil {
					t.Fatal(err)
				}
				golden(t, "pictures/"+name+".dot", string(dot))
				if _, err := exec.LookPath("dot"); err == nil {
					// Graphviz draws each digraph (neato, for -graph
					// columns, by its layout attribute); one at a time, as
					// Graphviz 2.43 aborts on some files of several.
					for _, g := range strings.Split(string(dot), "digraph G {")[1:] {
						cmd := exec.Command("dot", "-Tsvg", "-o", os.DevNull)
						cmd.Stdin = strings.NewReader("digraph G {" + g)
						if out, err := cmd.CombinedOutput(); err != nil {
							t.Errorf("dot -Tsvg: %v\n%s", err, out)
						}
					}
				}
				gs := readDOT(t, string(dot))
				if len(gs) == 0 {
					t.Fatal("no digraph")
				}
				var outer outerRF
				for _, g := range gs {
					checkPicture(t, filepath.Base(cfg), g, &outer)
				}
				if filepath.Base(cfg) == "withbox.cfg" && (outer.init == 0 || outer.final == 0) {
					t.Errorf("showinitrf and showfinalrf: %d rf edges from the initial state, %d to the final", outer.init, outer.final)
				}
			})
		}
	}
}

// outerRF counts the rf edges from the initial state and to the final one.
type outerRF struct{ init, final int }

// checkPicture checks one digraph against what herd7 draws under the
// configuration file named, counting its rf edges from the initial state
// and to the final one in outer.
func checkPicture(t *testing.T, cfg string, g dotGraph, outer *outerRF) {
	t.Helper()
	var events, fences []string
	inits := g.inits
	for id, attrs := range g.nodes {
		label := attrs["label"]
		if !strings.HasPrefix(id, "eiid") {
			continue
		}
		events = append(events, id)
		if strings.Contains(label, ": F") {
			fences = append(fences, id)
		}
	}
	edgesOf := func(rel string) []dotEdge {
		var out []dotEdge
		for _, e := range g.edges {
			if e.attrs["label"] == rel || strings.HasPrefix(e.attrs["label"], rel+":") {
				out = append(out, e)
			}
		}
		return out
	}
	threadClusters := slices.DeleteFunc(slices.Clone(g.clusters), func(c string) bool { return strings.Contains(c, "_poi") })
	columns := cfg == "aarch64-new-web.cfg" || cfg == "aarch64-mte-web.cfg"
	switch cfg {
	case "aarch64-new-web.cfg", "aarch64-mte-web.cfg":
		fontsize := map[bool]string{true: "8", false: "6"}[cfg == "aarch64-new-web.cfg"]
		if len(g.clusters) != 0 || g.attrs["layout"] != "neato" {
			t.Errorf("graph columns: clusters %v and layout %q, want none and neato", g.clusters, g.attrs["layout"])
		}
		if _, ok := g.attrs["label"]; ok {
			t.Errorf("showlegend false: the legend is drawn")
		}
		if len(fences) != 0 || len(inits) != 0 {
			t.Errorf("showevents memory, showinitwrites false: fences %v and initial writes %v drawn", fences, inits)
		}
		if g.attrs["pad"] != "0.100000" || g.attrs["splines"] != "spline" {
			t.Errorf("pad %q and splines %q, want 0.1 and spline", g.attrs["pad"], g.attrs["splines"])
		}
		for _, id := range events {
			a := g.nodes[id]
			if strings.Count(a["label"], `\l`) != 1 || a["fontsize"] != fontsize || a["pos"] == "" {
				t.Errorf("squished, fontsize %s, columns: node %s %v", fontsize, id, a)
			}
		}
		for _, e := range g.edges {
			if e.attrs["arrowsize"] != "0.500000" || e.attrs["fontsize"] != fontsize {
				t.Errorf("arrowsize 0.5, fontsize %s: edge %v", fontsize, e)
			}
		}
		for _, e := range edgesOf("rf") {
			if !strings.HasPrefix(e.from, "eiid") || !strings.HasPrefix(e.to, "eiid") {
				t.Errorf("showinitrf and showfinalrf false: %v", e)
			}
		}
	case "aarch64-ets2-web.cfg":
		if len(threadClusters) < 2 || len(threadClusters) != len(g.clusters) {
			t.Errorf("graph cluster, showevents noregs (no boxes): clusters %v, want one per thread", g.clusters)
		}
		if g.attrs["label"] == "" || g.attrs["fontsize"] != "12" {
			t.Errorf("the legend, at fontsize 12: %v", g.attrs)
		}
		for _, e := range edgesOf("po") {
			if e.attrs["color"] != "lightgray" || e.attrs["fontcolor"] != "lightgray" {
				t.Errorf("edgeattr po,color,lightgray: %v", e)
			}
		}
		for _, e := range g.edges {
			if strings.HasPrefix(e.attrs["label"], "dmb") || e.attrs["arrowsize"] != "0.800000" {
				t.Errorf("unshow dmb.*, arrowsize 0.8: %v", e)
			}
		}
	case "withbox.cfg":
		if len(threadClusters) != 0 {
			t.Errorf("graph free: thread clusters %v", threadClusters)
		}
		if len(g.clusters) == 0 {
			t.Errorf("withbox with showevents all: no boxes around instructions")
		}
		for _, e := range edgesOf("po") {
			if !strings.HasPrefix(e.attrs["label"], "po:") {
				t.Errorf("graph free names po by thread: %v", e)
			}
		}
		for _, e := range edgesOf("rf") {
			if strings.HasPrefix(e.from, "init") && g.nodes[e.from]["shape"] == "point" {
				outer.init++
			}
			if strings.HasPrefix(e.to, "final") {
				outer.final++
			}
		}
		if len(inits) != 0 {
			t.Errorf("showinitwrites false: initial writes %v", inits)
		}
		for _, e := range g.edges {
			if e.attrs["color"] != "black" && !strings.HasPrefix(e.attrs["label"], "fails") {
				t.Errorf("mono: %v", e)
			}
		}
		seen := map[[2]string]bool{}
		for _, e := range edgesOf("fr") {
			if seen[[2]string{e.to, e.from}] || e.attrs["arrowhead"] != "none" {
				t.Errorf("symetric fr: %v twice or with a head", e)
			}
			seen[[2]string{e.from, e.to}] = true
		}
	}
	// po: herd7 leaves out a po edge another edge drawn already joins.
	joined := map[[2]string]bool{}
	for _, e := range g.edges {
		if !strings.HasPrefix(e.attrs["label"], "po") {
			joined[[2]string{e.from, e.to}], joined[[2]string{e.to, e.from}] = true, true
		}
	}
	for _, e := range edgesOf("po") {
		if joined[[2]string{e.from, e.to}] && cfg != "withbox.cfg" {
			t.Errorf("po edge %v beside another edge between the same events", e)
		}
	}
	if columns {
		checkColumns(t, g)
	}
}

// checkColumns checks -graph columns' places: thread 0 left of thread 1,
// each thread's events downwards in program order.
func checkColumns(t *testing.T, g dotGraph) {
	t.Helper()
	type place struct{ x, y float64 }
	at := func(id string) place {
		var p place
		if _, err := fmt.Sscanf(g.nodes[id]["pos"], "%f,%f!", &p.x, &p.y); err != nil {
			t.Fatalf("node %s: pos %q: %v", id, g.nodes[id]["pos"], err)
		}
		return p
	}
	t0, t1 := at("proc0_label_node"), at("proc1_label_node")
	if !(t0.x < t1.x) {
		t.Errorf("thread 0 at x=%g, not left of thread 1 at x=%g", t0.x, t1.x)
	}
	for _, e := range g.edges {
		if e.attrs["label"] == "po" {
			if a, b := at(e.from), at(e.to); a.x != b.x || !(a.y > b.y) {
				t.Errorf("po %s -> %s goes from %v to %v, not down a column", e.from, e.to, a, b)
			}
		}
	}
}

// TestPictureFlags checks herd7's picture options on the command line, in
// herd7's single-dash spelling, booleans with their values: -graph
// columns puts thread 0 left of thread 1; a value herd7 refuses is
// refused, naming the option.
func TestPictureFlags(t *testing.T) {
	dir := t.TempDir()
	_, errs, status := runPurr("-graph", "columns", "-showevents", "mem", "-squished", "true", "-showinitwrites", "false",
		"-showlegend", "false", "-fontsize", "9", "-scale", "2", "-xscale", "1.5", "-yscale", "0.5", "-show", "all", "-o", dir,
		"../../testdata/classic/MP+dmb.st+po.litmus")
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	dot, err := os.ReadFile(filepath.Join(dir, "MP+dmb.st+po.dot"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range readDOT(t, string(dot)) {
		checkColumns(t, g)
		if _, ok := g.attrs["label"]; ok || len(g.inits) != 0 {
			t.Errorf("-showlegend false -showinitwrites false: legend %q, initial writes %v", g.attrs["label"], g.inits)
		}
		var x0, x1 float64
		fmt.Sscanf(g.nodes["proc0_label_node"]["pos"], "%f", &x0)
		fmt.Sscanf(g.nodes["proc1_label_node"]["pos"], "%f", &x1)
		if x1-x0 != 3 {
			t.Errorf("-scale 2 -xscale 1.5: the columns are %g inches apart, want 3", x1-x0)
		}
		for id, a := range g.nodes {
			if strings.HasPrefix(id, "eiid") && (strings.Contains(a["label"], ": F") || a["fontsize"] != "9" || strings.Count(a["label"], `\l`) != 1) {
				t.Errorf("-showevents mem -squished true -fontsize 9: %s %v", id, a)
			}
		}
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"-graph", "rows"}, `invalid argument "rows" for "--graph" flag: graph takes cluster, free, columns, not "rows"`},
		{[]string{"-showevents", "some"}, `showevents takes all, mem, memory, noregs, memfence, not "some"`},
		{[]string{"-fontsize", "big"}, `fontsize takes a whole number above 0, not "big"`},
	} {
		_, errs, status := runPurr(append(c.args, "../../testdata/classic/MP.litmus")...)
		if status != 2 || !strings.Contains(errs, c.err) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", c.args, status, errs, c.err)
		}
	}
	// herd7's options purr's pictures do not follow are accepted, and
	// said to be ignored.
	out, errs, status := runPurr("-gv", "-dotmode", "fig", "../../testdata/classic/MP.litmus")
	if want := "purr: note: ignoring what only changes pictures of executions (-gv, -dotmode)\n"; status != 0 || errs != want || !strings.Contains(out, "Observation MP") {
		t.Errorf("-gv -dotmode fig: status %d, stderr %q; want 0 and %q", status, errs, want)
	}
}
