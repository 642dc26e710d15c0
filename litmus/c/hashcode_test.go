package c

import (
	"slices"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestHashCode checks herd7's printing of a C thread for the test hash:
// parameter types without their outer pointer in herd7's type syntax, the
// body as written between the braces.
func TestHashCode(t *testing.T) {
	src := "C T\n{ x=1; }\n\nP0 (atomic_int* x, volatile int* y,const int *z) {\n  int r0 = *z; // read\n  *y = 1;\n}\n\n" +
		"void P1(int* x, _Atomic int* w) {\n\tatomic_store_explicit(w, 1, memory_order_release);\n}\n\nexists (0:r0=1)\n"
	lt, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"P0(_Atomic int* x, volatile int* y, int const* z) {\n\n  int r0 = *z; // read\n  *y = 1;\n\n}\n"},
		{"P1(int* x, _Atomic int* w) {\n\n\tatomic_store_explicit(w, 1, memory_order_release);\n\n}\n"},
	}
	if !slices.EqualFunc(lt.HashCode, want, slices.Equal) {
		t.Errorf("printed %q,\nwant %q", lt.HashCode, want)
	}
}
