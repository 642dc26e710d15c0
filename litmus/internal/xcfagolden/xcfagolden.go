package xcfagolden

import (
	"bytes"
	"os"
	"testing"

	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/xcfa"
)

// Check parses the litmus test in file (its dialect must be registered)
// and compares what it translates to with golden, or writes golden when
// update is set.
func Check(t *testing.T, file, golden string, update bool) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	test, err := litmus.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.WriteString("// " + test.ConditionString() + "\n")
	if err := xcfa.WriteDOT(&buf, test.Program); err != nil {
		t.Fatal(err)
	}
	Compare(t, buf.Bytes(), golden, update)
}

// Compare compares got with the golden file, or writes it when update is
// set.
func Compare(t *testing.T, got []byte, golden string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the translation:\n%s", golden, got)
	}
}
