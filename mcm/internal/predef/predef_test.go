package predef

import "testing"

// TestTableNamesOnce: a name has one kind; a repeated name would hide a
// typo or a conflict between two lists.
func TestTableNamesOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Table() {
		if seen[e.Name] {
			t.Errorf("%s is in the table twice", e.Name)
		}
		seen[e.Name] = true
	}
	if len(Kinds()) != len(Table()) {
		t.Errorf("Kinds has %d names, Table %d", len(Kinds()), len(Table()))
	}
}
