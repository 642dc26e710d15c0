package picture

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Routing: an arrow is the first of these that passes through no event's
// box: a straight line (the first arrow between two events), a curve
// bent further and further to either side, then a path along the free
// lanes between the columns and rows (the gutters and channels). Labels
// go where they cover no event, no thread's name and no other label.

// pt is a point on the page.
type pt struct{ x, y float64 }

// rect is a box on the page: its left, top, right and bottom.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) overlaps(s rect) bool {
	return r.x0 < s.x1 && s.x0 < r.x1 && r.y0 < s.y1 && s.y0 < r.y1
}

// box is an event's box, grown by pad on each side.
func (l *layout) box(n *node, pad float64) rect {
	return rect{n.x - nodeW/2 - pad, n.y - l.nodeH/2 - pad, n.x + nodeW/2 + pad, n.y + l.nodeH/2 + pad}
}

// routed is an arrow's path: its SVG path data and the polyline that
// follows it, along which its label is placed.
type routed struct {
	d   string
	pts []pt
}

type routeKey struct{ from, to, fan int }

// clearance is how far an arrow keeps from the events it passes.
const clearance = 5.0

// route is the path of the fan-th arrow between two events (see draw),
// the same each time it is asked for, so that a witness's halo lies
// along its arrow.
func (l *layout) route(from, to *node, fan int) *routed {
	key := routeKey{from.ev.ID, to.ev.ID, fan}
	if r, ok := l.routes[key]; ok {
		return r
	}
	r := l.findRoute(from, to, fan)
	l.routes[key] = r
	return r
}

func (l *layout) findRoute(from, to *node, fan int) *routed {
	if from == to {
		return l.loop(from, fan)
	}
	pair := pairKey(from, to)
	// Bends are measured to the left of the pair's lower-numbered event
	// to the other, so that arrows both ways between two events share one
	// list of the bends taken.
	sign := 1.0
	if from.ev.ID > to.ev.ID {
		sign = -1
	}
	taken := l.bends[pair]
	free := func(b float64) bool {
		for _, t := range taken {
			if math.Abs(t-b*sign) < 24 {
				return false
			}
		}
		return true
	}
	var bends []float64
	if fan == 0 {
		bends = append(bends, 0)
	}
	for _, b := range []float64{34, 55, 80, 110, 145, 185, 230, 280} {
		bends = append(bends, b, -b)
	}
	for _, b := range bends {
		if !free(b) {
			continue
		}
		r := l.curve(from, to, b)
		if l.clear(r.pts, from, to) {
			l.bends[pair] = append(l.bends[pair], b*sign)
			return r
		}
	}
	if r := l.lanes(from, to); r != nil {
		return r
	}
	// No lane is free (a page too crowded): the widest curve.
	return l.curve(from, to, 280)
}

// curve is the quadratic arrow between two events bent by bend to the
// left of the way from one to the other (a straight line for 0).
func (l *layout) curve(from, to *node, bend float64) *routed {
	x1, y1, x2, y2 := from.x, from.y, to.x, to.y
	dx, dy := x2-x1, y2-y1
	dist := math.Hypot(dx, dy)
	nx, ny := -dy/dist, dx/dist
	cx, cy := (x1+x2)/2+nx*bend, (y1+y2)/2+ny*bend
	sx, sy := l.boxExit(from, cx, cy)
	ex, ey := l.boxExit(to, cx, cy)
	if bend == 0 {
		return &routed{fmt.Sprintf("M%.1f,%.1f L%.1f,%.1f", sx, sy, ex, ey), []pt{{sx, sy}, {ex, ey}}}
	}
	var pts []pt
	for i := 0; i <= 24; i++ {
		t := float64(i) / 24
		a, b, c := (1-t)*(1-t), 2*t*(1-t), t*t
		pts = append(pts, pt{a*sx + b*cx + c*ex, a*sy + b*cy + c*ey})
	}
	return &routed{fmt.Sprintf("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", sx, sy, cx, cy, ex, ey), pts}
}

// loop is the fan-th arrow from an event to itself: a loop on the
// box's right side, outside the others.
func (l *layout) loop(n *node, fan int) *routed {
	x, y, k := n.x+nodeW/2, n.y, float64(fan)
	r, h := 34+18*k, 8+5*k
	var pts []pt
	for i := 0; i <= 16; i++ {
		t := float64(i) / 16
		a, b, c, d := (1-t)*(1-t)*(1-t), 3*t*(1-t)*(1-t), 3*t*t*(1-t), t*t*t
		pts = append(pts, pt{a*x + b*(x+r) + c*(x+r) + d*x, a*(y-h) + b*(y-22-h) + c*(y+22+h) + d*(y+h)})
	}
	return &routed{fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x, y-h, x+r, y-22-h, x+r, y+22+h, x, y+h), pts}
}

// clear tells whether a path between two events stays off every other
// event's box, off its own events' boxes but at its ends, and on the page.
func (l *layout) clear(pts []pt, from, to *node) bool {
	for _, p := range pts {
		if p.x < 2 || p.x > l.w-2 || p.y < l.top || p.y > l.h {
			return false
		}
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		for _, n := range l.order {
			pad := clearance
			if n == from || n == to {
				// The path leaves its events' boxes at its ends and must
				// not come back in.
				if i == 1 || i == len(pts)-1 {
					continue
				}
				pad = 0
			}
			r := l.box(n, pad)
			if segmentHitsRect(a, b, r) {
				return false
			}
		}
	}
	return true
}

// lanes routes an arrow along the free lanes: from its event sideways
// or upwards into a gutter between columns or a channel between rows,
// along those, into the other event: the shortest such path with the
// fewest turns, each arrow on lanes of its own a few pixels apart.
func (l *layout) lanes(from, to *node) *routed {
	lane := []float64{0, 7, -7, 14, -14}[l.laneUses%5]
	l.laneUses++
	xs := []float64{from.x, to.x}
	for _, g := range l.gutters {
		xs = append(xs, g+lane)
	}
	ys := []float64{from.y, to.y}
	for _, c := range l.channels {
		ys = append(ys, c+lane)
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	slices.Sort(ys)
	ys = slices.Compact(ys)
	at := func(p pt) (int, int) { return slices.Index(xs, p.x), slices.Index(ys, p.y) }
	// A grid point is usable if it is in no box, but for the arrow's
	// events' centres.
	usable := func(i, j int) bool {
		p := pt{xs[i], ys[j]}
		if p == (pt{from.x, from.y}) || p == (pt{to.x, to.y}) {
			return true
		}
		for _, n := range l.order {
			pad := clearance
			if n == from || n == to {
				pad = 0
			}
			r := l.box(n, pad)
			if p.x > r.x0 && p.x < r.x1 && p.y > r.y0 && p.y < r.y1 {
				return false
			}
		}
		return p.x >= 2 && p.x <= l.w-2 && p.y >= l.top && p.y <= l.h
	}
	step := func(a, b pt) bool {
		for _, n := range l.order {
			if n == from || n == to {
				continue
			}
			if segmentHitsRect(a, b, l.box(n, clearance)) {
				return false
			}
		}
		return true
	}
	si, sj := at(pt{from.x, from.y})
	ti, tj := at(pt{to.x, to.y})
	// Dijkstra over (point, heading): a turn costs as much as 60 pixels.
	type state struct{ i, j, dir int }
	dist := map[state]float64{}
	prev := map[state]state{}
	q := &queue{}
	start := state{si, sj, -1}
	dist[start] = 0
	heap.Push(q, item{start, 0})
	moves := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	var end *state
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		s := it.s.(state)
		if it.cost > dist[s] {
			continue
		}
		if s.i == ti && s.j == tj {
			end = &s
			break
		}
		for dir, m := range moves {
			i, j := s.i+m[0], s.j+m[1]
			if i < 0 || j < 0 || i >= len(xs) || j >= len(ys) || !usable(i, j) {
				continue
			}
			a, b := pt{xs[s.i], ys[s.j]}, pt{xs[i], ys[j]}
			if !step(a, b) {
				continue
			}
			cost := it.cost + math.Abs(b.x-a.x) + math.Abs(b.y-a.y)
			if s.dir >= 0 && s.dir != dir {
				cost += 60
			}
			ns := state{i, j, dir}
			if d, ok := dist[ns]; !ok || cost < d {
				dist[ns] = cost
				prev[ns] = s
				heap.Push(q, item{ns, cost})
			}
		}
	}
	if end == nil {
		return nil
	}
	var corners []pt
	for s := *end; ; s = prev[s] {
		p := pt{xs[s.i], ys[s.j]}
		// Only the turns: points along a straight run are dropped.
		if n := len(corners); n >= 2 && collinear(corners[n-2], corners[n-1], p) {
			corners[n-1] = p
		} else {
			corners = append(corners, p)
		}
		if s == start {
			break
		}
	}
	slices.Reverse(corners)
	if len(corners) < 2 {
		return nil
	}
	// The ends leave and enter the boxes at their sides.
	corners[0].x, corners[0].y = l.boxExit(from, corners[1].x, corners[1].y)
	n := len(corners)
	corners[n-1].x, corners[n-1].y = l.boxExit(to, corners[n-2].x, corners[n-2].y)
	var d strings.Builder
	fmt.Fprintf(&d, "M%.1f,%.1f", corners[0].x, corners[0].y)
	for _, c := range corners[1:] {
		fmt.Fprintf(&d, " L%.1f,%.1f", c.x, c.y)
	}
	return &routed{d.String(), corners}
}

func collinear(a, b, c pt) bool {
	return (a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)
}

// queue is Dijkstra's priority queue.
type item struct {
	s    any
	cost float64
}
type queue []item

func (q queue) Len() int           { return len(q) }
func (q queue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q queue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)        { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// segmentHitsRect tells whether the segment from a to b meets the
// rectangle's inside.
func segmentHitsRect(a, b pt, r rect) bool {
	return segmentHitsBox(a.x, a.y, b.x, b.y, (r.x0+r.x1)/2, (r.y0+r.y1)/2, (r.x1-r.x0)/2, (r.y1-r.y0)/2)
}

// boxExit is where the ray from an event's centre towards (tx,ty) leaves
// its box.
func (l *layout) boxExit(n *node, tx, ty float64) (float64, float64) {
	x, y := n.x, n.y
	dx, dy := tx-x, ty-y
	if dx == 0 && dy == 0 {
		return x, y
	}
	s := math.Inf(1)
	if dx != 0 {
		s = min(s, (nodeW/2+2)/math.Abs(dx))
	}
	if dy != 0 {
		s = min(s, (l.nodeH/2+2)/math.Abs(dy))
	}
	return x + dx*s, y + dy*s
}

// labelSize is the box a label of the font size takes, as wide as its
// characters at 0.6 of the size each (Helvetica's average is below that).
func labelSize(text string, size float64) (w, h float64) {
	return 0.6*size*float64(len([]rune(text))) + 4, size + 3
}

// placeLabel finds a place for an arrow's label along its path, where it
// covers no event, thread name, title or other label: the middle first,
// then further along either way, beside the path or on it. It returns the
// label's centre and takes the place.
func (l *layout) placeLabel(r *routed, text string, size float64) pt {
	w, h := labelSize(text, size)
	ts := []float64{0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85, 0.1, 0.9}
	offsets := []float64{0, 1, -1, 2, -2, 3, -3}
	var fallback *pt
	for _, off := range offsets {
		for _, t := range ts {
			p, nx, ny := along(r.pts, t)
			// Beside the path by about half the label's extent across it.
			shift := off * (math.Abs(nx)*w/2 + math.Abs(ny)*h/2 + 3)
			c := pt{p.x + nx*shift, p.y + ny*shift}
			box := rect{c.x - w/2, c.y - h/2, c.x + w/2, c.y + h/2}
			if fallback == nil {
				fallback = &c
			}
			if l.labelFree(box) {
				l.taken = append(l.taken, box)
				return c
			}
		}
	}
	c := *fallback
	l.taken = append(l.taken, rect{c.x - w/2, c.y - h/2, c.x + w/2, c.y + h/2})
	return c
}

// labelFree tells whether a label's box lies on the page and covers no
// event, no thread's name or title, and no label placed before.
func (l *layout) labelFree(b rect) bool {
	if b.x0 < 1 || b.x1 > l.w-1 || b.y0 < l.top || b.y1 > l.legendY-12 {
		return false
	}
	for _, n := range l.order {
		if b.overlaps(l.box(n, 1)) {
			return false
		}
	}
	for _, t := range l.taken {
		if b.overlaps(t) {
			return false
		}
	}
	return true
}

// along is the point at the fraction t of a polyline's length and the
// left normal of its way there.
func along(pts []pt, t float64) (pt, float64, float64) {
	total := 0.0
	for i := 1; i < len(pts); i++ {
		total += math.Hypot(pts[i].x-pts[i-1].x, pts[i].y-pts[i-1].y)
	}
	want := t * total
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		if seg == 0 {
			continue
		}
		if want <= seg || i == len(pts)-1 {
			f := min(want/seg, 1)
			return pt{a.x + (b.x-a.x)*f, a.y + (b.y-a.y)*f}, -(b.y - a.y) / seg, (b.x - a.x) / seg
		}
		want -= seg
	}
	return pts[0], 0, -1
}
