package show

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/mcm/outcome"
)

// Picture holds herd7's options that change the pictures of executions
// (-graph, -showevents, -squished, ..., as herd7's manual and its
// catalogue's .cfg files set them). Its zero value is herd7's defaults,
// hence the negated names of the options herd7 turns on by default.
type Picture struct {
	// Graph is how threads are laid out: "cluster" (herd7's default: a
	// cluster per thread, Graphviz places them), "free" (no clusters) or
	// "columns" (each event pinned at its thread's column and its place in
	// program order, thread 0 leftmost).
	Graph string
	// ShowEvents selects the events drawn: "all" (the default), "mem"
	// (memory accesses: no fences), "noregs" or "memfence" (purr's
	// executions have no register events: both draw all).
	ShowEvents string
	// Squished draws an event as its name and action alone, without its
	// instruction, in a borderless node.
	Squished bool
	// HideInitWrites leaves the initial writes out (-showinitwrites false);
	// ShowInitRF then draws a dot for each read of an initial value, with
	// its rf arrow, and ShowFinalRF an rf arrow from each write that ends
	// in memory.
	HideInitWrites, ShowInitRF, ShowFinalRF bool
	// HideLegend leaves the picture's title out (-showlegend false).
	HideLegend bool
	// HideThread leaves the threads' names out (-showthread false).
	HideThread bool
	// FontSize is the font size of events, threads, edges and title (0:
	// purr's default).
	FontSize int
	// Scale, XScale and YScale stretch a -graph columns layout (0: 1).
	Scale, XScale, YScale float64
	// ArrowSize and PenWidth are every edge's Graphviz attributes (0:
	// Graphviz's default).
	ArrowSize, PenWidth float64
	// Splines and Pad are the graph's Graphviz attributes ("": spline, 0).
	Splines string
	Pad     float64
	// WithBox draws a box around each instruction's events (with
	// -showevents all), labelled with the instruction if LabelBox.
	WithBox, LabelBox bool
	// Mono draws in black and white.
	Mono bool
	// EdgeAttrs are Graphviz attributes of one relation's edges
	// (-edgeattr rel,attr,value), later ones winning.
	EdgeAttrs []EdgeAttr
	// Symmetric lists relations drawn as one headless edge per pair
	// (herd7's -symetric).
	Symmetric []string
	// Shift moves thread i's events down by Shift[i] rows (-graph columns).
	Shift []float64
}

// EdgeAttr is a Graphviz attribute of a relation's edges.
type EdgeAttr struct{ Rel, Attr, Value string }

// GraphModes and EventModes are the values -graph and -showevents take.
var (
	GraphModes = []string{"cluster", "free", "columns"}
	EventModes = []string{"all", "mem", "memory", "noregs", "memfence"}
)

// Set sets the option named as herd7 names it (a .cfg key or flag
// without its dash) to value, read as herd7 reads it; it returns false
// for a name that is no picture option this type holds.
func (p *Picture) Set(name, value string) (bool, error) {
	boolean := func(dst *bool, negated bool) error {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s takes true or false, not %q", name, value)
		}
		*dst = b != negated
		return nil
	}
	float := func(dst *float64) error {
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || f < 0 {
			return fmt.Errorf("%s takes a number of at least 0, not %q", name, value)
		}
		*dst = f
		return nil
	}
	var err error
	switch name {
	case "graph":
		if !slices.Contains(GraphModes, value) {
			return true, fmt.Errorf("graph takes %s, not %q", strings.Join(GraphModes, ", "), value)
		}
		p.Graph = value
	case "showevents":
		if !slices.Contains(EventModes, value) {
			return true, fmt.Errorf("showevents takes %s, not %q", strings.Join(EventModes, ", "), value)
		}
		p.ShowEvents = value
	case "squished":
		err = boolean(&p.Squished, false)
	case "showinitwrites":
		err = boolean(&p.HideInitWrites, true)
	case "showinitrf":
		err = boolean(&p.ShowInitRF, false)
	case "showfinalrf":
		err = boolean(&p.ShowFinalRF, false)
	case "showlegend":
		err = boolean(&p.HideLegend, true)
	case "showthread":
		err = boolean(&p.HideThread, true)
	case "withbox":
		err = boolean(&p.WithBox, false)
	case "labelbox":
		err = boolean(&p.LabelBox, false)
	case "mono":
		err = boolean(&p.Mono, false)
	case "fontsize":
		n, perr := strconv.Atoi(value)
		if perr != nil || n <= 0 {
			return true, fmt.Errorf("fontsize takes a whole number above 0, not %q", value)
		}
		p.FontSize = n
	case "scale":
		err = float(&p.Scale)
	case "xscale":
		err = float(&p.XScale)
	case "yscale":
		err = float(&p.YScale)
	case "arrowsize":
		err = float(&p.ArrowSize)
	case "penwidth":
		err = float(&p.PenWidth)
	case "pad":
		err = float(&p.Pad)
	case "splines":
		p.Splines = value
	case "edgeattr":
		parts := strings.Split(value, ",")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
			return true, fmt.Errorf("edgeattr takes rel,attribute,value, not %q", value)
		}
		p.EdgeAttrs = append(p.EdgeAttrs, EdgeAttr{parts[0], parts[1], parts[2]})
	case "symetric":
		for _, r := range strings.Split(value, ",") {
			if r = strings.TrimSpace(r); r != "" {
				p.Symmetric = append(p.Symmetric, r)
			}
		}
	case "shift":
		p.Shift = nil
		for _, s := range strings.Split(value, ",") {
			f, perr := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if perr != nil {
				return true, fmt.Errorf("shift takes numbers a,b,..., not %q", value)
			}
			p.Shift = append(p.Shift, f)
		}
	default:
		return false, nil
	}
	return true, err
}

// PictureKeys are the names Picture.Set takes.
var PictureKeys = []string{"graph", "showevents", "squished", "showinitwrites", "showinitrf", "showfinalrf",
	"showlegend", "showthread", "withbox", "labelbox", "mono", "fontsize", "scale", "xscale", "yscale",
	"arrowsize", "penwidth", "pad", "splines", "edgeattr", "symetric", "shift"}

// scale is one of the scales, 1 when unset.
func scale(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

// Shown tells whether the picture draws the event: -showevents mem
// leaves fences out, -showinitwrites false the initial writes.
func (p *Picture) Shown(e outcome.Event) bool {
	if e.Thread < 0 && p.HideInitWrites {
		return false
	}
	return !(e.Kind == "F" && (p.ShowEvents == "mem" || p.ShowEvents == "memory"))
}

// Select is the execution as the picture draws it: its relations and
// sets among the events Shown keeps (its events stay, indexed by ID, for
// callers to skip those Shown leaves out).
func (p *Picture) Select(x outcome.Execution) outcome.Execution {
	keep := map[int]bool{}
	all := true
	for _, e := range x.Events {
		keep[e.ID] = p.Shown(e)
		all = all && keep[e.ID]
	}
	if all {
		return x
	}
	y := x
	y.Relations = map[string][]outcome.Edge{}
	for name, es := range x.Relations {
		if name == "po" {
			// po steps over the events left out, as herd7's does.
			y.Relations[name] = outcome.Reduce(keepEdges(closure(es), keep))
			continue
		}
		y.Relations[name] = keepEdges(es, keep)
	}
	y.Sets = map[string][]int{}
	for name, ids := range x.Sets {
		y.Sets[name] = slices.DeleteFunc(slices.Clone(ids), func(id int) bool { return !keep[id] })
	}
	return y
}

func keepEdges(es []outcome.Edge, keep map[int]bool) []outcome.Edge {
	out := []outcome.Edge{}
	for _, e := range es {
		if keep[e.From] && keep[e.To] {
			out = append(out, e)
		}
	}
	return out
}

// closure is the transitive closure of a relation.
func closure(es []outcome.Edge) []outcome.Edge {
	has := map[outcome.Edge]bool{}
	out := slices.Clone(es)
	for _, e := range es {
		has[e] = true
	}
	for changed := true; changed; {
		changed = false
		for _, a := range out {
			for _, b := range out {
				if a.To == b.From && !has[outcome.Edge{From: a.From, To: b.To}] {
					e := outcome.Edge{From: a.From, To: b.To}
					has[e] = true
					out = append(out, e)
					changed = true
				}
			}
		}
	}
	return out
}
