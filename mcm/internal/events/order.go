package events

import "github.com/purr-mcm/purr/xcfa"

// MayCoexist tells whether two events can be in one execution: events of
// one thread on different branches cannot.
func MayCoexist(a, b *Event) bool {
	if a.Thread < 0 || b.Thread < 0 || a.Thread != b.Thread {
		return true
	}
	return onOnePath(a, b) || onOnePath(b, a)
}

// onOnePath tells whether b's path passes through a (or a is b).
func onOnePath(a, b *Event) bool {
	if a.Depth > b.Depth {
		return false
	}
	for s := b.Seg; s != nil; s = s.Parent {
		if s == a.Seg {
			return true
		}
	}
	return false
}

// SameInstruction tells whether two events come from one instruction
// instance.
func SameInstruction(a, b *Event) bool {
	return a.Thread >= 0 && a.Thread == b.Thread && a.Instr == b.Instr && (onOnePath(a, b) || onOnePath(b, a))
}

// POOrdered tells whether a comes before b in program order: b's path
// passes through a, and they are not parallel parts of one instruction
// (InParallel).
func POOrdered(a, b *Event) bool {
	if a.Thread < 0 || a.Thread != b.Thread || a.Depth >= b.Depth || InParallel(a, b) {
		return false
	}
	for s := b.Seg; s != nil; s = s.Parent {
		if s == a.Seg {
			return true
		}
	}
	return false
}

// InParallel tells whether two events of one path are parallel parts of
// one instruction instance (Event.Par, xcfa.Parallel, in one pass:
// Event.ParRun): program order does not relate them.
func InParallel(a, b *Event) bool { return a.ParRun == b.ParRun && xcfa.Parallel(a.Par, b.Par) }
