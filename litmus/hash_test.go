package litmus

import (
	"testing"
)

// TestHashParts checks the initial state and observed locations as herd7
// prints them for its hash: values as written, registers (by thread, then
// name) before memory, array cells of the condition after every other
// location.
func TestHashParts(t *testing.T) {
	src := "TEST T\n{ int64_t 0:X0; 0:X2=v; int64_t v[2]={22,44}; x=0x10; 0:X5=x; uint64_t *0:X3=y; *p=x; _Atomic int z=-1; }\n" +
		"P0 ;\nlocations [x;u;v[0];]\nexists (0:X4=-1 /\\ u[0]=1 /\\ 0:X4=2)\n"
	lt, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	wantInit := "int64_t 0:X0=0; 0:X2=v; uint64_t *0:X3=y; 0:X5=x; *p=x; int64_t v[2]; x=0x10; _Atomic int z=-1"
	if lt.hashInit != wantInit {
		t.Errorf("init printed %q, want %q", lt.hashInit, wantInit)
	}
	wantObserved := "0:X4; u; x; u[0]; v[0]"
	if lt.hashObserved != wantObserved {
		t.Errorf("observed printed %q, want %q", lt.hashObserved, wantObserved)
	}
}

// TestHashKeepsItsOwn checks herd7's rule: a test whose metadata carries a
// Hash (the key in any case) keeps it.
func TestHashKeepsItsOwn(t *testing.T) {
	for _, key := range []string{"Hash", "hash"} {
		src := "TEST T\n" + key + "=0123456789abcdef0123456789abcdef\n{ }\nP0 ;\nexists (0:X0=0)\n"
		lt, err := Parse("t.litmus", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		lt.HashCode = [][]string{{"NOP"}}
		if got := lt.Hash(); got != "0123456789abcdef0123456789abcdef" {
			t.Errorf("%s=...: Hash() = %q, want the test's own", key, got)
		}
	}
}

func TestHashWithoutCode(t *testing.T) {
	lt, err := Parse("t.litmus", []byte("TEST T\n{ }\nP0 ;\nexists (0:X0=0)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := lt.Hash(); got != "" {
		t.Errorf("Hash() = %q without canonical code, want \"\"", got)
	}
}

func TestProgramColumns(t *testing.T) {
	got := ProgramColumns([][]string{{"MOV W0,#1", "STR W0,[X1]"}, {"LDR W0,[X1]"}})
	want := " MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] |             ;\n"
	if got != want {
		t.Errorf("ProgramColumns = %q, want %q", got, want)
	}
}
