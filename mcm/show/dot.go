package show

import (
	"fmt"
	"io"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// The colours of herd7's pictures; other relations take the palette's in
// turn.
var (
	relationColours = map[string]string{"po": "black", "rf": "red", "co": "brown", "fr": "#ffa040"}
	palette         = []string{"blue", "darkgreen", "purple", "indigo", "darkorange", "deeppink", "teal", "gold3"}
)

// DOT writes the executions as herd7 draws them with -show and -o: one
// digraph per execution, the init writes on their own, one cluster per
// thread whose nodes say "c: W[x]=1" and the instruction, and one edge per
// pair of each relation in rels (see Relations; po and co without their
// transitive edges). Sets in rels name their members under the label.
// legend heads each picture (herd7: the test's name and model). An
// execution that fails checks (-through) has each failure's witness drawn
// over it, bold in the check's colour (CheckColours) and labelled with the
// check's name, and a line of the legend per failure.
func DOT(w io.Writer, legend string, xs []outcome.Execution, rels []string) error {
	var b strings.Builder
	checkColours := CheckColours(FailedChecks(xs))
	for i := range xs {
		x := &xs[i]
		node := func(id int) string { return fmt.Sprintf("eiid%d", id) }
		holds := "the condition does not hold"
		if x.Holds {
			holds = "the condition holds"
		}
		b.WriteString("digraph G {\n\n")
		b.WriteString("splines=spline;\npad=\"0.000000\";\n\n/* legend */\nfontsize=20;\n")
		title := fmt.Sprintf("%s, execution %d: %s", legend, x.Index, holds)
		for _, f := range x.Fails {
			title += fmt.Sprintf("\nfails %s (%s)%s", f.Check, f.Kind, WitnessText(x, f))
		}
		fmt.Fprintf(&b, "label=%s;\n\n", quote(title))
		label := func(e outcome.Event) string {
			lines := []string{EventText(e)}
			if d := detail(e); d != "" {
				lines = append(lines, d)
			}
			if sets := setsOf(x, e.ID, rels); len(sets) > 0 {
				lines = append(lines, strings.Join(sets, ","))
			}
			return quoteLines(lines)
		}
		b.WriteString("/* init events */\n")
		for _, e := range x.Events {
			if e.Thread < 0 {
				fmt.Fprintf(&b, "%s [label=%s, shape=\"none\", fontsize=14];\n", node(e.ID), label(e))
			}
		}
		for _, th := range threads(x) {
			fmt.Fprintf(&b, "\n/* the events of thread %d */\n", th)
			fmt.Fprintf(&b, "subgraph cluster_proc%d { rank=sink; label=\"Thread %d\"; color=magenta; shape=box;\n", th, th)
			for _, e := range x.Events {
				if e.Thread == th {
					fmt.Fprintf(&b, "%s [label=%s, shape=\"none\", fontsize=14];\n", node(e.ID), label(e))
				}
			}
			b.WriteString("}\n")
		}
		next := 0
		for _, rel := range rels {
			es, ok := edges(x, rel)
			if !ok {
				continue
			}
			colour, ok := relationColours[rel]
			if !ok {
				colour = palette[next%len(palette)]
				next++
			}
			fmt.Fprintf(&b, "\n/* the %s edges */\n", strings.ReplaceAll(rel, "*/", "* /"))
			for _, e := range es {
				fmt.Fprintf(&b, "%s -> %s [label=%s, color=%s, fontcolor=%s];\n",
					node(e.From), node(e.To), quote(rel), quote(colour), quote(colour))
			}
		}
		for _, f := range x.Fails {
			colour := quote(checkColours[f.Check])
			fmt.Fprintf(&b, "\n/* fails %s (%s) */\n", strings.ReplaceAll(f.Check, "*/", "* /"), f.Kind)
			if id, ok := Member(x, f); ok {
				fmt.Fprintf(&b, "%s [shape=\"box\", color=%s, penwidth=3, xlabel=%s, fontcolor=%s];\n", node(id), colour, quote(f.Check), colour)
				continue
			}
			for _, e := range f.Witness {
				label := f.Check
				if names := EdgeNames(x, e); names != "" {
					label += ": " + names
				}
				fmt.Fprintf(&b, "%s -> %s [label=%s, color=%s, fontcolor=%s, penwidth=3];\n",
					node(e.From), node(e.To), quote(label), colour, colour)
			}
		}
		b.WriteString("}\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// quote is a DOT string.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// quoteLines is a DOT string of left-aligned lines.
func quoteLines(lines []string) string {
	q := quote(strings.Join(lines, "\x00"))
	return strings.ReplaceAll(q[:len(q)-1], "\x00", `\l`) + `\l"`
}
