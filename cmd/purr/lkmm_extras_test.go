package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
)

// TestLKMMAsHerdPrintsThem runs the Dat3M LKMM tests that compare two
// registers in their condition and filter (C-seqctr) or compute addresses
// with an integer (C-basic-02, C-lb+deref-addr-o+deref-addr-o) on both
// engines: each block, Hash and Condition lines included, must be herd7's
// byte for byte (the Time line aside). herd7 rejects
// C-atomic-fetch-simple-06 as mixed-size; purr must refuse it with the
// position of the access.
func TestLKMMAsHerdPrintsThem(t *testing.T) {
	t.Chdir(shared.Path(t, "lkmm/model"))
	refs, err := herdtest.ParseFile("../dat3m/herd-7.57.txt")
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]herdtest.Block{}
	for _, r := range refs {
		byPath[r.Path] = r
	}
	dropTime := func(text string) string {
		var keep []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, "Time ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, rel := range []string{"manual/kernel/C-seqctr.litmus", "dart/C-basic-02.litmus", "manual/extra/C-lb+deref-addr-o+deref-addr-o.litmus"} {
		ref, ok := byPath[rel]
		if !ok || ref.Result == nil || !strings.Contains(ref.Text, "\nHash=") {
			t.Fatalf("%s: no herd7 answer in the log", rel)
		}
		for _, engine := range []string{"sat", "explicit"} {
			got := runLKMM(filepath.Join("../dat3m", rel), "--engine", engine)
			if got.Result == nil {
				t.Errorf("%s, %s: %s", rel, engine, got.Error)
				continue
			}
			if a, b := dropTime(ref.Text), dropTime(got.Text); a != b {
				t.Errorf("%s, %s: got\n%s\nwant herd7's\n%s", rel, engine, b, a)
			}
		}
	}
	rel := "dart/C-atomic-fetch-simple-06.litmus"
	if ref := byPath[rel]; !strings.Contains(ref.Error, "mixed-size test rejected") {
		t.Fatalf("%s: herd7's log says %q", rel, ref.Error)
	}
	got := runLKMM(filepath.Join("../dat3m", rel))
	want := regexp.MustCompile(`^\.\./dat3m/dart/C-atomic-fetch-simple-06\.litmus:10:8: mixed-size accesses to x: `)
	if got.Result != nil || !want.MatchString(got.Error) {
		t.Errorf("%s: got %v %q, want a refusal matching %s", rel, got.Result != nil, got.Error, want)
	}
}
