package picture

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

// Options say what to draw.
type Options struct {
	// Relations names the relations drawn as arrows, in this order; a name
	// the execution lacks draws nothing. Nil draws DefaultRelations.
	Relations []string
	// Sets names the event sets whose members carry a badge.
	Sets []string
	// Colours maps a relation to its colour; the relations it lacks get
	// Colours(Relations).
	Colours map[string]string
	// CheckColours maps a failed check to its colour; the checks it lacks
	// get show.CheckColours of those the executions fail.
	CheckColours map[string]string
	// Herd holds herd7's picture options that purr's drawings follow:
	// -showevents and -showinitwrites (the events drawn), -showlegend (the
	// title and legend), -squished (no instructions), -fontsize and
	// -scale.
	Herd show.Picture
	// MaxWidth is the widest a document is drawn, in pixels, scaled down
	// to fit (0: FitWidth).
	MaxWidth float64
}

// FitWidth is the widest a document is drawn by default: a wider layout
// (six threads and more) is scaled down to it.
const FitWidth = 1000.0

// DefaultRelations are the relations drawn when Options.Relations is nil:
// those of herd's pictures.
var DefaultRelations = []string{"po", "rf", "co", "fr"}

// fixedColours are the colours of the relations every execution has, as
// herd draws them.
var fixedColours = map[string]string{
	"po": "#333333", "rf": "#d62728", "co": "#1f77b4", "fr": "#e6780b",
	"iico": "#7f7f7f", "rmw": "#8c564b",
}

// palette colours the other relations, in turn.
var palette = []string{"#2ca02c", "#9467bd", "#e377c2", "#17becf", "#bcbd22",
	"#7b4173", "#637939", "#843c39", "#3182bd", "#d6616b", "#31a354", "#756bb1"}

// Colours gives each relation named a colour: the fixed ones of po, rf,
// co and fr, and the palette's in turn to the others, so that a legend
// built from the same names matches the drawing.
func Colours(names []string) map[string]string {
	cs := map[string]string{}
	next := 0
	for _, n := range names {
		if _, done := cs[n]; done {
			continue
		}
		if c, ok := fixedColours[n]; ok {
			cs[n] = c
			continue
		}
		cs[n] = palette[next%len(palette)]
		next++
	}
	return cs
}

// Geometry of the layout, in SVG user units (pixels).
const (
	nodeW  = 150.0
	nodeH  = 44.0
	colGap = 250.0 // from one column's centre to the next
	// narrowColGap is colGap for five columns and more.
	narrowColGap = 205.0
	rowGap       = 110.0 // from one row's centre to the next
	margin       = 30.0
	headerH      = 30.0 // a thread's name above its column
	titleH       = 28.0
	legendH      = 30.0
	failH        = 22.0 // a line of the legend per check an execution fails
)

// node is an event placed on the page (its centre).
type node struct {
	ev   outcome.Event
	x, y float64
}

// layout is one execution placed on the page.
type layout struct {
	x     outcome.Execution
	nodes map[int]*node
	order []*node
	heads []head
	w, h  float64
	// legendY is the relations' legend's line; the failed checks' lines
	// follow it.
	legendY float64
	// nodeH is an event's box's height (lower when squished); fonts
	// scales every font size (-fontsize against the default 14).
	nodeH, fonts float64
	herd         *show.Picture
	// top is where arrows and labels may begin: below the title.
	top float64
	// gutters and channels are the free lanes between columns and rows,
	// which arrows that no curve can take follow (see lanes).
	gutters, channels []float64
	routes            map[routeKey]*routed
	// bends lists the bends the arrows between two events took; laneUses
	// counts the arrows routed along lanes, each a few pixels off the last.
	bends    map[[2]int][]float64
	laneUses int
	// taken are the places of the labels, thread names and title drawn.
	taken []rect
}

type head struct {
	name string
	x, y float64
}

// place lays an execution out: init writes on a row of their own on top
// (none for an execution of messages: no receive gets them, as listings
// say), then one column per thread, in program order downwards; the
// events herd7's options leave out are not placed.
func place(x outcome.Execution, title string, opt *show.Picture) *layout {
	x = opt.Select(x)
	l := &layout{x: x, nodes: map[int]*node{}, herd: opt, nodeH: nodeH, fonts: 1,
		routes: map[routeKey]*routed{}, bends: map[[2]int][]float64{}}
	if opt.Squished {
		l.nodeH = 28
	}
	if opt.FontSize > 0 {
		l.fonts = float64(opt.FontSize) / 14
	}
	var inits []outcome.Event
	threads := map[int][]outcome.Event{}
	var tids []int
	messages := show.Messages([]outcome.Execution{x})
	for _, e := range x.Events {
		if !opt.Shown(e) {
			continue
		}
		if e.Thread < 0 {
			if !messages {
				inits = append(inits, e)
			}
			continue
		}
		if _, ok := threads[e.Thread]; !ok {
			tids = append(tids, e.Thread)
		}
		threads[e.Thread] = append(threads[e.Thread], e)
	}
	slices.Sort(tids)
	cols := max(len(tids), 1)
	gap := colGap
	if max(cols, len(inits)) > 4 {
		gap = narrowColGap // many columns: narrower gutters, less to scale down
	}
	width := float64(max(cols, len(inits)))*gap + 2*margin
	top := margin
	if title != "" {
		top += titleH
		l.taken = append(l.taken, rect{margin, margin - 8, width - margin, margin + 12})
	}
	l.top = top - 6
	rowStep := rowGap - nodeH + l.nodeH
	if len(inits) > 0 {
		step := (width - 2*margin) / float64(len(inits))
		for i, e := range inits {
			l.add(e, margin+step*(float64(i)+0.5), top+l.nodeH/2)
		}
		l.channels = append(l.channels, top+l.nodeH+(rowStep-l.nodeH)/3)
		top += rowStep
	}
	colStep := (width - 2*margin) / float64(cols)
	rows := 0
	for c, tid := range tids {
		cx := margin + colStep*(float64(c)+0.5)
		l.heads = append(l.heads, head{fmt.Sprintf("P%d", tid), cx, top + headerH/2})
		w, h := labelSize(fmt.Sprintf("P%d", tid), 14)
		l.taken = append(l.taken, rect{cx - nodeW/2, top + headerH/2 - h + 2, cx - nodeW/2 + w, top + headerH/2 + 4})
		for r, e := range threads[tid] {
			l.add(e, cx, top+headerH+l.nodeH/2+float64(r)*rowStep)
		}
		rows = max(rows, len(threads[tid]))
	}
	for c := 0; c <= cols; c++ {
		l.gutters = append(l.gutters, margin+colStep*float64(c))
	}
	first := top + headerH + l.nodeH/2
	for r := 0; r <= max(rows, 1); r++ {
		l.channels = append(l.channels, first-l.nodeH/2-(rowStep-l.nodeH)/2+float64(r)*rowStep)
	}
	l.w = width
	l.h = top + headerH + float64(max(rows, 1)-1)*rowStep + l.nodeH + margin + legendH
	l.legendY = l.h - margin/2 - legendH/2
	l.h += failH * float64(len(x.Fails))
	return l
}

func (l *layout) add(e outcome.Event, x, y float64) {
	n := &node{ev: e, x: x, y: y}
	l.nodes[e.ID] = n
	l.order = append(l.order, n)
}

// arrow is one edge to draw.
type arrow struct {
	rel      string
	from, to *node
}

// arrows lists the edges of the relations drawn, po and co reduced to
// their immediate steps (as herd draws them), so that a chain of four
// writes is three arrows rather than six.
func (l *layout) arrows(rels []string) []arrow {
	var out []arrow
	for _, r := range rels {
		edges := l.x.Relations[r]
		if r == "po" || r == "co" {
			edges = immediate(edges)
		}
		for _, e := range edges {
			a, b := l.nodes[e.From], l.nodes[e.To]
			if a == nil || b == nil {
				continue
			}
			out = append(out, arrow{r, a, b})
		}
	}
	return out
}

// immediate keeps the pairs (a,c) of an order with no b between: a<b<c.
func immediate(edges []outcome.Edge) []outcome.Edge {
	succ := map[int][]int{}
	has := map[outcome.Edge]bool{}
	for _, e := range edges {
		succ[e.From] = append(succ[e.From], e.To)
		has[e] = true
	}
	var out []outcome.Edge
	for _, e := range edges {
		between := false
		for _, b := range succ[e.From] {
			if b != e.To && has[outcome.Edge{From: b, To: e.To}] {
				between = true
				break
			}
		}
		if !between {
			out = append(out, e)
		}
	}
	return out
}

// SVG writes one execution as a standalone SVG document.
func SVG(w io.Writer, x outcome.Execution, opt Options) error {
	return Document(w, []outcome.Execution{x}, opt)
}

// Document writes executions as one SVG document, one below the other,
// each under a title with its index, final state and whether the
// condition's proposition holds.
func Document(w io.Writer, xs []outcome.Execution, opt Options) error {
	rels := opt.Relations
	if rels == nil {
		rels = DefaultRelations
	}
	colours := Colours(rels)
	for k, v := range opt.Colours {
		colours[k] = v
	}
	checks := show.FailedChecks(xs)
	checkColours := show.CheckColours(checks)
	for k, v := range opt.CheckColours {
		checkColours[k] = v
	}
	var ls []*layout
	width, height := 2*margin+colGap, 0.0
	titles := make([]string, len(xs))
	for i, x := range xs {
		if !opt.Herd.HideLegend {
			titles[i] = title(x)
		}
		l := place(x, titles[i], &opt.Herd)
		ls = append(ls, l)
		width = max(width, l.w)
		height += l.h
	}
	height = max(height, 2*margin)
	// The document is drawn at -scale, and scaled down to fit MaxWidth;
	// its view box keeps the layout's units.
	zoom := scaleOf(opt.Herd.Scale)
	fit := cmp.Or(opt.MaxWidth, FitWidth)
	if width*zoom > fit {
		zoom = fit / width
	}
	b := &strings.Builder{}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="Helvetica, Arial, sans-serif">`+"\n",
		width*zoom, height*zoom, width, height)
	b.WriteString("<defs>\n")
	for _, r := range uniq(rels) {
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n",
			markerID("arrow-", r), colours[r])
	}
	for _, c := range checks {
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n",
			markerID("witness-", c), checkColours[c])
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(b, `<rect width="%.0f" height="%.0f" fill="white"/>`+"\n", width, height)
	y := 0.0
	for i, l := range ls {
		fmt.Fprintf(b, `<g class="execution" data-index="%d" transform="translate(0,%.0f)">`+"\n", xs[i].Index, y)
		l.draw(b, titles[i], rels, opt.Sets, colours, checkColours)
		b.WriteString("</g>\n")
		y += l.h
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// scaleOf is a scale, 1 when unset.
func scaleOf(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

func title(x outcome.Execution) string {
	var st []string
	for _, bd := range x.State {
		st = append(st, bd.LocString()+"="+bd.ValueString(false))
	}
	t := fmt.Sprintf("Execution %d", x.Index)
	if len(st) > 0 {
		t += ": " + strings.Join(st, "; ")
	}
	if x.Holds {
		t += " (the condition holds)"
	}
	for _, f := range x.Flags {
		t += " [flag " + f + "]"
	}
	return t
}

func uniq(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// markerID is an XML id for the arrowhead of a relation ("arrow-") or a
// failed check ("witness-"): names may hold characters (-, ., ^) that ids
// may not.
func markerID(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, c := range name {
		if c < 128 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
		} else {
			fmt.Fprintf(&b, "_%x", c)
		}
	}
	return b.String()
}

func (l *layout) draw(b *strings.Builder, title string, rels, sets []string, colours, checkColours map[string]string) {
	if title != "" {
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="%.0f" font-weight="bold" fill="#222">%s</text>`+"\n", margin, margin+8, 15*l.fonts, esc(title))
	}
	for _, h := range l.heads {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="14" font-weight="bold" fill="#555">%s</text>`+"\n", h.x-nodeW/2, h.y, esc(h.name))
	}
	for _, n := range l.order {
		l.drawNode(b, n, sets)
	}
	arrows := l.arrows(uniq(rels))
	// Arrows between the same two events are fanned out, alternately on
	// either side, so that none hides another.
	seen := map[[2]int]int{}
	fans := make([]int, len(arrows))
	for i, a := range arrows {
		key := pairKey(a.from, a.to)
		fans[i] = seen[key]
		seen[key]++
	}
	// The witnesses' halos lie under the arrows; the edges no arrow drawn
	// holds get arrows of their own, over them. Where several checks'
	// halos lie along one path (or around one event), each is wider than
	// the one before, and the widest are drawn first, so that all show.
	var own []witnessArrow
	halos := make([]strings.Builder, len(l.x.Fails))
	overlaps := map[string]int{}
	for i, f := range l.x.Fails {
		own = append(own, l.drawHalos(&halos[i], f, arrows, fans, seen, overlaps, checkColours[f.Check])...)
	}
	for i := len(halos) - 1; i >= 0; i-- {
		b.WriteString(halos[i].String())
	}
	for i, a := range arrows {
		l.drawArrow(b, a, fans[i], colours[a.rel])
	}
	for _, w := range own {
		l.drawWitnessArrow(b, w, checkColours[w.check])
	}
	if !l.herd.HideLegend {
		l.drawLegend(b, uniq(rels), colours)
	}
	l.drawFailures(b, checkColours)
}

// pairKey identifies the two events an arrow joins, in either direction.
func pairKey(a, c *node) [2]int {
	return [2]int{min(a.ev.ID, c.ev.ID), max(a.ev.ID, c.ev.ID)}
}

// witnessArrow is an edge of a failed check's witness that no arrow
// drawn holds.
type witnessArrow struct {
	check, label string
	from, to     *node
	fan          int
}

// drawHalos highlights a failed check's witness: a wide, pale stroke in
// the check's colour along each of its edges (along the arrow drawn for
// the edge, when there is one), around the member of an empty set. It
// counts in overlaps the halos of each path and event, widening those
// that follow, and returns the edges that need arrows of their own.
func (l *layout) drawHalos(b *strings.Builder, f outcome.Failure, arrows []arrow, fans []int, seen map[[2]int]int,
	overlaps map[string]int, colour string) []witnessArrow {
	fmt.Fprintf(b, `<g class="witness" data-check="%s" data-kind="%s">`, esc(f.Check), esc(f.Kind))
	defer b.WriteString("</g>\n")
	if id, ok := show.Member(&l.x, f); ok {
		if n := l.nodes[id]; n != nil {
			key := fmt.Sprint("event ", id)
			out := 4 + 7*float64(overlaps[key])
			overlaps[key]++
			fmt.Fprintf(b, `<rect class="halo" x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="9" fill="none" stroke="%s" stroke-width="7" stroke-opacity="0.45"/>`,
				n.x-nodeW/2-out, n.y-l.nodeH/2-out, nodeW+2*out, l.nodeH+2*out, colour)
		}
		return nil
	}
	var own []witnessArrow
	for _, e := range f.Witness {
		from, to := l.nodes[e.From], l.nodes[e.To]
		if from == nil || to == nil {
			continue
		}
		fan := -1
		for i, a := range arrows {
			if a.from == from && a.to == to {
				fan = fans[i]
				break
			}
		}
		if fan < 0 {
			key := pairKey(from, to)
			fan = seen[key]
			seen[key]++
			label := show.EdgeNames(&l.x, e)
			if label == "" {
				label = f.Check
			}
			own = append(own, witnessArrow{f.Check, label, from, to, fan})
		}
		d := l.route(from, to, fan).d
		width := 9 + 8*overlaps[d]
		overlaps[d]++
		fmt.Fprintf(b, `<path class="halo" d="%s" fill="none" stroke="%s" stroke-width="%d" stroke-opacity="0.4" stroke-linecap="round"/>`, d, colour, width)
	}
	return own
}

// drawWitnessArrow draws an edge of a witness that no arrow drawn holds,
// dashed in the check's colour, named by the relations that hold it.
func (l *layout) drawWitnessArrow(b *strings.Builder, w witnessArrow, colour string) {
	r := l.route(w.from, w.to, w.fan)
	fmt.Fprintf(b, `<path class="witness-arrow" data-check="%s" d="%s" fill="none" stroke="%s" stroke-width="2" stroke-dasharray="6,3" marker-end="url(#%s)"/>`,
		esc(w.check), r.d, colour, markerID("witness-", w.check))
	l.drawLabel(b, r, w.label, colour)
}

// drawFailures writes a line of the legend per check the execution
// fails: its name, kind and witness, as listings show them.
func (l *layout) drawFailures(b *strings.Builder, checkColours map[string]string) {
	y := l.legendY
	for _, f := range l.x.Fails {
		y += failH
		colour := checkColours[f.Check]
		fmt.Fprintf(b, `<g class="failure" data-check="%s"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="9" stroke-opacity="0.4" stroke-linecap="round"/><text x="%.1f" y="%.1f" font-size="13" fill="#222">fails <tspan font-weight="bold" fill="%s">%s</tspan> (%s)%s</text></g>`+"\n",
			esc(f.Check), margin, y, margin+22, y, colour, margin+27, y+4, colour, esc(f.Check), esc(f.Kind), esc(show.WitnessText(&l.x, f)))
	}
}

func (l *layout) drawNode(b *strings.Builder, n *node, sets []string) {
	e := n.ev
	fill := "#f7f7f7"
	switch e.Kind {
	case "W":
		fill = "#fdf1e6"
	case "R":
		fill = "#e8f1fb"
	case "RMW":
		fill = "#f1ecf7"
	case "F":
		fill = "#eeeeee"
	case "M":
		fill = "#eef6ea"
	}
	fmt.Fprintf(b, `<g class="event" data-id="%d">`, e.ID)
	// The whole instruction and its place, which the box may cut, show
	// on hovering.
	if tip := strings.TrimSpace(e.Instr + " " + e.Pos); tip != "" {
		fmt.Fprintf(b, `<title>%s</title>`, esc(tip))
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" rx="6" fill="%s" stroke="#444" stroke-width="1.2"/>`,
		n.x-nodeW/2, n.y-l.nodeH/2, nodeW, l.nodeH, fill)
	instr := e.Instr != "" && !l.herd.Squished
	textY := n.y + 5
	if instr {
		textY = n.y - 3
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%.0f" text-anchor="middle" fill="#111">%s</text>`, n.x, textY, 14*min(l.fonts, 1.15), esc(eventText(e)))
	if instr {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" fill="#666" font-family="monospace">%s</text>`,
			n.x, n.y+13, esc(clip(e.Instr, 22)))
	}
	// The sets' badges sit inside the box, along its top from the right,
	// where no arrowhead lands.
	bx := n.x + nodeW/2 - 3
	for _, s := range sets {
		if !slices.Contains(l.x.Sets[s], e.ID) {
			continue
		}
		w := 8 + 6.5*float64(len([]rune(s)))
		bx -= w
		fmt.Fprintf(b, `<rect class="set" x="%.1f" y="%.1f" width="%.0f" height="14" rx="7" fill="#666"/><text x="%.1f" y="%.1f" font-size="10" text-anchor="middle" fill="white">%s</text>`,
			bx, n.y-l.nodeH/2+2, w, bx+w/2, n.y-l.nodeH/2+13, esc(s))
		bx -= 2
	}
	b.WriteString("</g>\n")
}

// eventText names an event as purr's listings and DOT pictures do,
// "c: W[x]=1", its tags after: "b: W[x]=1 REL", "f: F DMB.SY"; a mark
// as the listings do, "d: LKW[s]", its other tags after.
func eventText(e outcome.Event) string {
	if e.Kind == "M" {
		s := show.EventText(e)
		if len(e.Tags) > 1 {
			s += " " + strings.Join(e.Tags[1:], ",")
		}
		return s
	}
	s := e.Label + ": " + e.Kind
	if e.Loc != "" {
		s += "[" + e.Loc + "]=" + e.Value
	}
	if len(e.Tags) > 0 {
		s += " " + strings.Join(e.Tags, ",")
	}
	return s
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func (l *layout) drawArrow(b *strings.Builder, a arrow, fan int, colour string) {
	r := l.route(a.from, a.to, fan)
	fmt.Fprintf(b, `<path class="edge" data-rel="%s" d="%s" fill="none" stroke="%s" stroke-width="1.8" marker-end="url(#%s)"/>`,
		esc(a.rel), r.d, colour, markerID("arrow-", a.rel))
	l.drawLabel(b, r, a.rel, colour)
}

// drawLabel writes an arrow's label where placeLabel finds room, centred
// there.
func (l *layout) drawLabel(b *strings.Builder, r *routed, text, colour string) {
	size := 12 * l.fonts
	c := l.placeLabel(r, text, size)
	fmt.Fprintf(b, `<text class="label" x="%.1f" y="%.1f" font-size="%.1f" text-anchor="middle" fill="%s" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`+"\n",
		c.x, c.y+size*0.35, size, colour, esc(text))
}

// segmentHitsBox clips the segment against the box (Liang–Barsky).
func segmentHitsBox(x1, y1, x2, y2, cx, cy, hw, hh float64) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := x2-x1, y2-y1
	for _, pq := range [][2]float64{{-dx, x1 - (cx - hw)}, {dx, (cx + hw) - x1}, {-dy, y1 - (cy - hh)}, {dy, (cy + hh) - y1}} {
		p, q := pq[0], pq[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

func (l *layout) drawLegend(b *strings.Builder, rels []string, colours map[string]string) {
	x, y := margin, l.legendY
	for _, r := range rels {
		if len(l.x.Relations[r]) == 0 {
			continue
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2.5"/><text x="%.1f" y="%.1f" font-size="12" fill="#222">%s</text>`+"\n",
			x, y, x+22, y, colours[r], x+27, y+4, esc(r))
		x += 40 + 7*float64(len([]rune(r)))
	}
}

func esc(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			if c < 0x20 && c != '\t' && c != '\n' || c == 0xFFFE || c == 0xFFFF {
				b.WriteRune('\uFFFD') // characters XML 1.0 cannot carry
				continue
			}
			b.WriteRune(c)
		}
	}
	return b.String()
}
