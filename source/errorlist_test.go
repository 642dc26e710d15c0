package source

import "testing"

// TestErrorList sorts, drops repeats and prints a list as Cat's front end
// does: one error a line, in the order of their positions.
func TestErrorList(t *testing.T) {
	var l ErrorList
	l.Add(Pos{File: "b.cat", Line: 1, Col: 1}, "second file")
	l.Add(Pos{File: "a.cat", Line: 2, Col: 5}, "later")
	l.Add(Pos{File: "a.cat", Line: 2, Col: 3}, "earlier")
	l.Add(Pos{File: "b.cat", Line: 1, Col: 1}, "second file")
	l = l.Unique()
	l.Sort()
	want := "a.cat:2:3: earlier\na.cat:2:5: later\nb.cat:1:1: second file"
	if got := l.Err().Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, one := l[:1].Err().(*Error); !one {
		t.Error("a list of one: not its error")
	}
	if ErrorList(nil).Err() != nil {
		t.Error("an empty list is an error")
	}
}
