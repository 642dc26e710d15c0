package show

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
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
// transitive edges, po not where another edge joins the same events).
// Sets in rels name their members under the label. legend heads each
// picture (herd7: the test's name and model). An execution that fails
// checks (-through) has each failure's witness drawn over it, bold in the
// check's colour (CheckColours) and labelled with the check's name, and a
// line of the legend per failure. p holds herd7's picture options, which
// change what is drawn as they do in herd7.
func DOT(w io.Writer, legend string, xs []outcome.Execution, rels []string, p Picture) error {
	var b strings.Builder
	checkColours := CheckColours(FailedChecks(xs))
	for i := range xs {
		d := dotWriter{b: &b, p: &p, rels: rels, all: &xs[i]}
		d.execution(legend, p.Select(xs[i]), checkColours)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// dotWriter writes one execution's digraph.
type dotWriter struct {
	b    *strings.Builder
	p    *Picture
	rels []string
	x    *outcome.Execution
	// all is the execution with the events the picture leaves out, whose
	// rf edges -showinitrf and -showfinalrf draw.
	all *outcome.Execution
	// pos pins each event of a -graph columns picture, in inches.
	pos map[int][2]float64
	// top is the row of the threads' names in a -graph columns picture.
	top float64
}

func node(id int) string { return fmt.Sprintf("eiid%d", id) }

func (d *dotWriter) execution(legend string, xv outcome.Execution, checkColours map[string]string) {
	b, p, x := d.b, d.p, &xv
	d.x = x
	// Initial writes are no messages: a picture of messages leaves them
	// and their edges out.
	hideInit := messages(x)
	shown := func(e outcome.Event) bool { return p.Shown(e) && !(hideInit && e.Thread < 0) }
	b.WriteString("digraph G {\n\n")
	splines := cmp.Or(p.Splines, "spline")
	fmt.Fprintf(b, "splines=%s;\npad=\"%f\";\n", splines, p.Pad)
	if p.Graph == "columns" {
		// Each event is pinned (pos="x,y!"), as herd7 draws for neato:
		// dot itself would ignore the places.
		b.WriteString("layout=neato;\n")
		d.place(shown)
	}
	if !p.HideLegend {
		holds := "the condition does not hold"
		if x.Holds {
			holds = "the condition holds"
		}
		title := fmt.Sprintf("%s, execution %d: %s", legend, x.Index, holds)
		for _, f := range x.Fails {
			title += fmt.Sprintf("\nfails %s (%s)%s", f.Check, f.Kind, WitnessText(x, f))
		}
		fmt.Fprintf(b, "\n/* legend */\nfontsize=%d;\nlabel=%s;\n", cmp.Or(p.FontSize, 20), quote(title))
	}
	b.WriteString("\n/* init events */\n")
	for _, e := range x.Events {
		if e.Thread < 0 && shown(e) {
			d.node(e)
		}
	}
	for _, th := range threads(x) {
		fmt.Fprintf(b, "\n/* the events of thread %d */\n", th)
		threadName := fmt.Sprintf("Thread %d", th)
		if p.HideThread {
			threadName = ""
		}
		switch p.Graph {
		case "", "cluster":
			colour := "color=magenta; "
			if p.Mono {
				colour = ""
			}
			fmt.Fprintf(b, "subgraph cluster_proc%d { rank=sink; label=%s; %s%sshape=box;\n", th, quote(threadName), d.fontsize("fontsize=%d; "), colour)
		case "columns":
			if !p.HideThread {
				x0, y0 := d.threadHead(th)
				fmt.Fprintf(b, "proc%d_label_node [shape=none, label=%s%s, pos=\"%f,%f!\"];\n", th, quote(threadName), d.fontsize(", fontsize=%d"), x0, y0)
			}
		}
		d.instructions(th, shown)
		if p.Graph == "" || p.Graph == "cluster" {
			b.WriteString("}\n")
		}
	}
	d.edges(shown)
	for _, f := range x.Fails {
		colour := quote(checkColours[f.Check])
		fmt.Fprintf(b, "\n/* fails %s (%s) */\n", strings.ReplaceAll(f.Check, "*/", "* /"), f.Kind)
		if id, ok := Member(x, f); ok {
			fmt.Fprintf(b, "%s [shape=\"box\", color=%s, penwidth=3, xlabel=%s, fontcolor=%s];\n", node(id), colour, quote(f.Check), colour)
			continue
		}
		for _, e := range f.Witness {
			label := f.Check
			if names := EdgeNames(x, e); names != "" {
				label += ": " + names
			}
			fmt.Fprintf(b, "%s -> %s [label=%s, color=%s, fontcolor=%s, penwidth=3];\n",
				node(e.From), node(e.To), quote(label), colour, colour)
		}
	}
	b.WriteString("}\n")
}

// fontsize is the attribute of -fontsize, in format, or nothing.
func (d *dotWriter) fontsize(format string) string {
	if d.p.FontSize == 0 {
		return ""
	}
	return fmt.Sprintf(format, d.p.FontSize)
}

// instructions writes a thread's events, each instruction's in a box of
// its own under -withbox (with -showevents all, as herd7 does).
func (d *dotWriter) instructions(th int, shown func(outcome.Event) bool) {
	b, p := d.b, d.p
	boxes := p.WithBox && (p.ShowEvents == "" || p.ShowEvents == "all")
	var group []outcome.Event
	flush := func(n int) {
		if len(group) == 0 {
			return
		}
		label := ""
		if p.LabelBox {
			label = group[0].Instr
		}
		colour := "color=green;"
		if p.Mono {
			colour = "color=\"grey30\"; style=dashed;"
		}
		fmt.Fprintf(b, "subgraph cluster_proc%d_poi%d { %s label=%s; labelloc=\"b\"; shape=box;\n", th, n, colour, quote(label))
		for _, e := range group {
			d.node(e)
		}
		b.WriteString("}\n")
		group = group[:0]
	}
	n := 0
	for _, e := range d.x.Events {
		if e.Thread != th || !shown(e) {
			continue
		}
		if !boxes {
			d.node(e)
			continue
		}
		// The events of one instruction are consecutive and share its
		// place.
		if len(group) > 0 && (e.Pos == "" || e.Pos != group[0].Pos || e.Instr != group[0].Instr) {
			flush(n)
			n++
		}
		group = append(group, e)
	}
	flush(n)
}

// node writes an event's node: "c: W[x]=1" and its instruction, or the
// first alone when squished.
func (d *dotWriter) node(e outcome.Event) {
	b, p := d.b, d.p
	lines := []string{EventText(e)}
	if !p.Squished {
		if dt := detail(e); dt != "" {
			lines = append(lines, dt)
		}
	}
	if sets := setsOf(d.x, e.ID, d.rels); len(sets) > 0 {
		lines = append(lines, strings.Join(sets, ","))
	}
	fmt.Fprintf(b, "%s [label=%s, shape=\"none\", fontsize=%d", node(e.ID), quoteLines(lines), cmp.Or(p.FontSize, 14))
	if pos, ok := d.pos[e.ID]; ok {
		fmt.Fprintf(b, ", pos=\"%f,%f!\"", pos[0], pos[1])
	}
	b.WriteString("];\n")
}

// place computes -graph columns' places as herd7 does: thread i's column
// at x = 1 + i·scale·xscale, its events downwards from the top in steps
// of 0.75·scale·yscale (Shift moving a thread's down), the initial writes
// in a row above, spread around the middle.
func (d *dotWriter) place(shown func(outcome.Event) bool) {
	p, x := d.p, d.x
	xs, ys := scale(p.Scale)*scale(p.XScale), scale(p.Scale)*scale(p.YScale)*0.75
	rows := map[int]int{}
	maxRows, shiftMax := 0, 0.0
	var inits []outcome.Event
	for _, e := range x.Events {
		if !shown(e) {
			continue
		}
		if e.Thread < 0 {
			inits = append(inits, e)
			continue
		}
		rows[e.Thread]++
		maxRows = max(maxRows, rows[e.Thread])
	}
	for _, s := range p.Shift {
		shiftMax = max(shiftMax, s)
	}
	top := float64(maxRows-1) + shiftMax
	d.pos = map[int][2]float64{}
	row := map[int]int{}
	for _, e := range x.Events {
		if !shown(e) || e.Thread < 0 {
			continue
		}
		shift := 0.0
		if e.Thread < len(p.Shift) {
			shift = p.Shift[e.Thread]
		}
		d.pos[e.ID] = [2]float64{1 + xs*float64(e.Thread), ys * (top - shift - float64(row[e.Thread]))}
		row[e.Thread]++
	}
	if len(inits) > 0 {
		top += 2.0 / 3
	}
	nthreads := len(threads(x))
	delta := 1.0
	if nthreads < len(inits) {
		delta = 0.75
	}
	left := (float64(nthreads) - float64(len(inits))*delta) / 2
	for k, e := range inits {
		d.pos[e.ID] = [2]float64{1 + xs*(left+float64(k)*delta), ys * top}
	}
	d.top = ys * (top + 0.5)
}

// threadHead is where -graph columns names a thread: above its column.
func (d *dotWriter) threadHead(th int) (float64, float64) {
	p := d.p
	return 1 + scale(p.Scale)*scale(p.XScale)*float64(th), d.top
}

// edges writes the edges of the relations drawn: po where no other edge
// joins the same two events (herd7 draws that one instead, but with
// -graph free), rf from a dot for a read of an initial value left out
// (-showinitrf) and to the final state (-showfinalrf), a symmetric
// relation's pairs once, headless.
func (d *dotWriter) edges(shown func(outcome.Event) bool) {
	b, p, x := d.b, d.p, d.x
	drawn := func(e outcome.Edge) bool { return shown(x.Events[e.From]) && shown(x.Events[e.To]) }
	others := map[outcome.Edge]bool{}
	for _, rel := range d.rels {
		if rel == "po" {
			continue
		}
		es, _ := edges(x, rel)
		for _, e := range es {
			others[e] = true
			others[outcome.Edge{From: e.To, To: e.From}] = true
		}
	}
	next := 0
	for _, rel := range d.rels {
		es, ok := edges(x, rel)
		if !ok {
			continue
		}
		colour, ok := relationColours[rel]
		if !ok {
			colour = palette[next%len(palette)]
			next++
		}
		symmetric := slices.Contains(p.Symmetric, rel)
		fmt.Fprintf(b, "\n/* the %s edges */\n", strings.ReplaceAll(rel, "*/", "* /"))
		seen := map[outcome.Edge]bool{}
		for _, e := range es {
			if !drawn(e) {
				continue
			}
			if symmetric {
				if seen[outcome.Edge{From: e.To, To: e.From}] {
					continue
				}
				seen[e] = true
			}
			label := rel
			if rel == "po" {
				if p.Graph == "free" {
					if !p.HideThread {
						label = fmt.Sprintf("po:%d", x.Events[e.From].Thread)
					}
				} else if others[e] {
					continue
				}
			}
			d.edge(node(e.From), node(e.To), rel, label, colour, symmetric)
		}
		if rel == "rf" {
			d.outerRF(d.all.Relations["rf"], colour)
		}
	}
}

// outerRF writes -showinitrf's and -showfinalrf's rf edges.
func (d *dotWriter) outerRF(rf []outcome.Edge, colour string) {
	b, p, x := d.b, d.p, d.x
	if p.HideInitWrites && p.ShowInitRF {
		for _, e := range rf {
			if x.Events[e.From].Thread >= 0 || !p.Shown(x.Events[e.To]) {
				continue
			}
			id := "init" + node(e.To)
			fmt.Fprintf(b, "%s [shape=point, height=0.1, width=0.1, color=%s%s];\n", id, quote(d.colour(colour)), d.pinned(e.To, -0.25, 0.25))
			d.edge(id, node(e.To), "rf", "rf", colour, false)
		}
	}
	if p.ShowFinalRF {
		// The writes that end in memory: the last of co at each location.
		for _, e := range x.Events {
			if !e.Writes() || e.Thread < 0 || !p.Shown(e) || !lastWrite(x, e.ID) {
				continue
			}
			id := "final" + node(e.ID)
			fmt.Fprintf(b, "%s [shape=none, height=0.0, width=0.0, label=\"\"%s];\n", id, d.pinned(e.ID, 0, -0.5))
			d.edge(node(e.ID), id, "rf", "rf", colour, false)
		}
	}
}

// lastWrite tells whether no write follows the write id in co.
func lastWrite(x *outcome.Execution, id int) bool {
	for _, e := range x.Relations["co"] {
		if e.From == id {
			return false
		}
	}
	return true
}

// pinned is the pos attribute of a point beside an event of a -graph
// columns picture, dx, dy columns and rows away, or nothing.
func (d *dotWriter) pinned(id int, dx, dy float64) string {
	pos, ok := d.pos[id]
	if !ok {
		return ""
	}
	p := d.p
	return fmt.Sprintf(", pos=\"%f,%f!\"", pos[0]+scale(p.Scale)*scale(p.XScale)*dx, pos[1]+scale(p.Scale)*scale(p.YScale)*0.75*dy)
}

// colour is a colour as -mono leaves it.
func (d *dotWriter) colour(c string) string {
	if d.p.Mono {
		return "black"
	}
	return c
}

// edge writes an edge of rel with its attributes: purr's colour, then
// -fontsize, -penwidth, -arrowsize and the relation's -edgeattr ones,
// which override them.
func (d *dotWriter) edge(from, to, rel, label, colour string, headless bool) {
	b, p := d.b, d.p
	attrs := [][2]string{{"label", label}, {"color", d.colour(colour)}, {"fontcolor", d.colour(colour)}}
	if p.FontSize != 0 {
		attrs = append(attrs, [2]string{"fontsize", strconv.Itoa(p.FontSize)})
	}
	if p.PenWidth != 0 {
		attrs = append(attrs, [2]string{"penwidth", fmt.Sprintf("%f", p.PenWidth)})
	}
	if p.ArrowSize != 0 {
		attrs = append(attrs, [2]string{"arrowsize", fmt.Sprintf("%f", p.ArrowSize)})
	}
	if headless {
		attrs = append(attrs, [2]string{"arrowhead", "none"})
	}
	set := func(k, v string) {
		for i := range attrs {
			if attrs[i][0] == k {
				attrs[i][1] = v
				return
			}
		}
		attrs = append(attrs, [2]string{k, v})
	}
	for _, a := range p.EdgeAttrs {
		if a.Rel != rel {
			continue
		}
		set(a.Attr, a.Value)
		if a.Attr == "color" {
			set("fontcolor", a.Value)
		}
	}
	fmt.Fprintf(b, "%s -> %s [", from, to)
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s=%s", a[0], quote(a[1]))
	}
	b.WriteString("];\n")
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
