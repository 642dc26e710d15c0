package picture

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/shared"
	_ "github.com/purr-mcm/purr/litmus/dialects"
	"github.com/purr-mcm/purr/mcm/outcome"
	"github.com/purr-mcm/purr/mcm/show"
)

// drawing is what a reader of an SVG document sees, read back from it:
// the event boxes, the arrows' paths sampled as points, and the boxes of
// the arrows' labels and of the other words (title, threads' names).
type drawing struct {
	boxes  []rect
	arrows [][]pt
	labels []labelBox
	words  []rect
}

type labelBox struct {
	text string
	rect
}

// readDrawing reads back an SVG document of purr's: it knows the classes
// purr gives its elements, and measures text as Helvetica's widest
// average letter (0.55 of the font size), independently of the layout's
// own estimate.
func readDrawing(t *testing.T, doc []byte) []drawing {
	t.Helper()
	var out []drawing
	var cur *drawing
	dy := 0.0
	inEvent, eventRect := false, false
	d := xml.NewDecoder(bytes.NewReader(doc))
	attrs := func(se xml.StartElement) map[string]string {
		m := map[string]string{}
		for _, a := range se.Attr {
			m[a.Name.Local] = a.Value
		}
		return m
	}
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("a number: %q", s)
		}
		return f
	}
	var text *xml.StartElement
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			a := attrs(tok)
			switch {
			case tok.Name.Local == "g" && a["class"] == "execution":
				out = append(out, drawing{})
				cur = &out[len(out)-1]
				fmt.Sscanf(a["transform"], "translate(0,%g)", &dy)
			case tok.Name.Local == "g" && a["class"] == "event":
				inEvent, eventRect = true, false
			case tok.Name.Local == "rect" && inEvent && !eventRect:
				eventRect = true
				x, y := num(a["x"]), num(a["y"])+dy
				cur.boxes = append(cur.boxes, rect{x, y, x + num(a["width"]), y + num(a["height"])})
			case tok.Name.Local == "path" && (a["class"] == "edge" || a["class"] == "witness-arrow"):
				cur.arrows = append(cur.arrows, samplePath(t, a["d"], dy))
			case tok.Name.Local == "text" && !inEvent && cur != nil:
				se := tok.Copy()
				text = &se
			}
		case xml.CharData:
			if text == nil {
				continue
			}
			a := attrs(*text)
			size, x, y := num(a["font-size"]), num(a["x"]), num(a["y"])+dy
			w := 0.55 * size * float64(len([]rune(string(tok))))
			if a["text-anchor"] == "middle" {
				x -= w / 2
			}
			r := rect{x, y - 0.75*size, x + w, y + 0.2*size}
			if a["paint-order"] == "stroke" { // arrows' labels, on a white outline
				cur.labels = append(cur.labels, labelBox{string(tok), r})
			} else if a["font-weight"] == "bold" {
				cur.words = append(cur.words, r)
			}
			text = nil
		case xml.EndElement:
			if tok.Name.Local == "g" {
				inEvent = false
			}
			if tok.Name.Local == "text" {
				text = nil
			}
		}
	}
}

// samplePath samples an SVG path of M, L, Q and C commands, absolute.
func samplePath(t *testing.T, d string, dy float64) []pt {
	t.Helper()
	fields := strings.FieldsFunc(d, func(r rune) bool { return r == ' ' || r == ',' })
	var pts []pt
	var cur pt
	var nums []float64
	cmd := byte(0)
	flush := func() {
		p := func(i int) pt { return pt{nums[2*i], nums[2*i+1] + dy} }
		switch cmd {
		case 'M':
			cur = p(0)
			pts = append(pts, cur)
		case 'L':
			end := p(0)
			for i := 1; i <= 20; i++ {
				f := float64(i) / 20
				pts = append(pts, pt{cur.x + (end.x-cur.x)*f, cur.y + (end.y-cur.y)*f})
			}
			cur = end
		case 'Q':
			c, end := p(0), p(1)
			for i := 1; i <= 30; i++ {
				f := float64(i) / 30
				a, b, e := (1-f)*(1-f), 2*f*(1-f), f*f
				pts = append(pts, pt{a*cur.x + b*c.x + e*end.x, a*cur.y + b*c.y + e*end.y})
			}
			cur = end
		case 'C':
			c1, c2, end := p(0), p(1), p(2)
			for i := 1; i <= 30; i++ {
				f := float64(i) / 30
				a, b, c, e := (1-f)*(1-f)*(1-f), 3*f*(1-f)*(1-f), 3*f*f*(1-f), f*f*f
				pts = append(pts, pt{a*cur.x + b*c1.x + c*c2.x + e*end.x, a*cur.y + b*c1.y + c*c2.y + e*end.y})
			}
			cur = end
		}
		nums = nums[:0]
	}
	for _, f := range fields {
		if c := f[0]; c == 'M' || c == 'L' || c == 'Q' || c == 'C' {
			flush()
			cmd = c
			f = f[1:]
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("path %q: %v", d, err)
		}
		nums = append(nums, v)
	}
	flush()
	return pts
}

// overlaps counts what makes a drawing hard to read: points of arrows
// inside an event's box other than their own two (or inside their own
// away from their ends), and labels that overlap an event's box, a word
// or another label.
func (dr drawing) overlaps() (through int, labels []string) {
	inside := func(p pt, r rect) bool {
		return p.x > r.x0+1 && p.x < r.x1-1 && p.y > r.y0+1 && p.y < r.y1-1
	}
	near := func(p pt, r rect) bool {
		return p.x >= r.x0-4 && p.x <= r.x1+4 && p.y >= r.y0-4 && p.y <= r.y1+4
	}
	for _, a := range dr.arrows {
		first, last := a[0], a[len(a)-1]
		hit := false
		for _, b := range dr.boxes {
			own := near(first, b) || near(last, b)
			for i, p := range a {
				if own && (i < len(a)/10 || i > len(a)-len(a)/10-1) {
					continue
				}
				if inside(p, b) {
					hit = true
				}
			}
		}
		if hit {
			through++
		}
	}
	shrink := func(r rect) rect { return rect{r.x0 + 0.5, r.y0 + 0.5, r.x1 - 0.5, r.y1 - 0.5} }
	for i, l := range dr.labels {
		for _, b := range dr.boxes {
			if shrink(l.rect).overlaps(b) {
				labels = append(labels, fmt.Sprintf("label %q on an event", l.text))
			}
		}
		for _, w := range dr.words {
			if shrink(l.rect).overlaps(w) {
				labels = append(labels, fmt.Sprintf("label %q on a title or thread name", l.text))
			}
		}
		for _, m := range dr.labels[i+1:] {
			if shrink(l.rect).overlaps(shrink(m.rect)) {
				labels = append(labels, fmt.Sprintf("labels %q and %q overlap", l.text, m.text))
			}
		}
	}
	return through, labels
}

// TestCatalogueOverlaps draws every execution of the AArch64 catalogue
// (../shared/corpus/herd-catalogue-aarch64, -show all) and counts what
// makes a picture hard to read: no arrow may pass through an event's box,
// no label cover an event, a thread's name or another label. It draws
// the relations --svg draws, then more of the model's (ob and its parts,
// as -doshow adds them), then the executions -through all lets through,
// with their witnesses' own arrows.
func TestCatalogueOverlaps(t *testing.T) {
	dir := shared.Path(t, "corpus/herd-catalogue-aarch64")
	tests, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("no tests in %s: %v", dir, err)
	}
	for _, c := range []struct {
		name    string
		through string
		doshow  []string
	}{
		{"shown", "none", nil},
		{"doshow", "none", []string{"ob", "dob", "bob", "aob", "lob"}},
		{"through", "all", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := herd.Default()
			cfg.Show, cfg.Capture, cfg.Through = outcome.ShowAll, c.doshow, c.through
			checker := herd.NewChecker(cfg)
			executions, arrows, labels := 0, 0, 0
			var through, covered int
			for _, path := range tests {
				res, err := checker.Check(context.Background(), path)
				if err != nil {
					continue // a test purr refuses draws nothing
				}
				rels := show.Relations(res.Outcome.Shown, c.doshow, nil)
				for _, x := range res.Outcome.Executions {
					var buf bytes.Buffer
					if err := SVG(&buf, x, Options{Relations: rels}); err != nil {
						t.Fatal(err)
					}
					for _, dr := range readDrawing(t, buf.Bytes()) {
						executions++
						arrows += len(dr.arrows)
						labels += len(dr.labels)
						n, bad := dr.overlaps()
						through += n
						covered += len(bad)
						if n > 0 || len(bad) > 0 {
							t.Errorf("%s, execution %d: %d arrows through events; %s", filepath.Base(path), x.Index, n, strings.Join(bad, "; "))
						}
					}
				}
			}
			if executions == 0 {
				t.Fatal("no executions drawn")
			}
			t.Logf("%d executions of %d tests: %d arrows, %d through events; %d labels, %d overlaps", executions, len(tests), arrows, through, labels, covered)
		})
	}
}

// TestFitsWide checks that a six-thread execution is drawn to fit
// FitWidth, scaled, rather than at its layout's width.
func TestFitsWide(t *testing.T) {
	x := outcome.Execution{Index: 1, Relations: map[string][]outcome.Edge{}}
	for i := 0; i < 6; i++ {
		x.Events = append(x.Events, outcome.Event{ID: i, Label: outcome.Label(i), Thread: i, Kind: "W", Loc: "x", Value: strconv.Itoa(i + 1)})
	}
	var buf bytes.Buffer
	if err := SVG(&buf, x, Options{}); err != nil {
		t.Fatal(err)
	}
	var w, h, vw, vh float64
	head := buf.String()[:strings.Index(buf.String(), ">")]
	if _, err := fmt.Sscanf(head[strings.Index(head, "width="):], `width="%g" height="%g" viewBox="0 0 %g %g"`, &w, &h, &vw, &vh); err != nil {
		t.Fatalf("%v: %s", err, head)
	}
	if w > FitWidth || math.Abs(w/h-vw/vh) > 0.01 || vw <= FitWidth {
		t.Errorf("six threads: %gx%g px of a %gx%g layout, want at most %g px wide, in proportion", w, h, vw, vh, FitWidth)
	}
}

// TestHerdOptions checks the herd7 options purr's drawings follow:
// -showevents mem leaves fences out, -showinitwrites false the initial
// writes, -showlegend false the title and legend, -squished the
// instructions, and -scale the document's size.
func TestHerdOptions(t *testing.T) {
	x := chain()
	draw := func(p show.Picture) string {
		var buf bytes.Buffer
		if err := SVG(&buf, x, Options{Relations: []string{"po", "co"}, Herd: p}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	plain := draw(show.Picture{})
	for _, c := range []struct {
		name      string
		p         show.Picture
		gone      string // what plain draws and p does not
		events    int    // the events drawn
		sizeRatio float64
	}{
		{"showevents mem", show.Picture{ShowEvents: "mem"}, "f: F DMB.SY", 5, 1},
		{"showinitwrites false", show.Picture{HideInitWrites: true}, "a: W[x]=0", 5, 1},
		{"showlegend false", show.Picture{HideLegend: true}, "Execution 1", 6, 1},
		{"squished", show.Picture{Squished: true}, `monospace">DMB SY<`, 6, 1},
		{"scale 2", show.Picture{Scale: 2}, "", 6, 2},
	} {
		got := draw(c.p)
		if c.gone != "" && (!strings.Contains(plain, c.gone) || strings.Contains(got, c.gone)) {
			t.Errorf("%s: %q still drawn", c.name, c.gone)
		}
		if n := strings.Count(got, `class="event"`); n != c.events {
			t.Errorf("%s: %d events drawn, want %d", c.name, n, c.events)
		}
		var w0, w1 float64
		fmt.Sscanf(plain[strings.Index(plain, "width="):], `width="%g"`, &w0)
		fmt.Sscanf(got[strings.Index(got, "width="):], `width="%g"`, &w1)
		if math.Abs(w1/w0-c.sizeRatio) > 0.01 {
			t.Errorf("%s: %g px wide against %g, want %g times", c.name, w1, w0, c.sizeRatio)
		}
	}
	if n := strings.Count(draw(show.Picture{ShowEvents: "mem"}), `data-rel="po"`); n != 3 {
		t.Errorf("showevents mem: %d po arrows, want 3 (b, c, d, e in a row)", n)
	}
}
