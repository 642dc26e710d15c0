package herdout

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/internal/shared"
)

// hashParts reads the parts of a simple AArch64 litmus test that Hash
// needs, taking instructions as written (herd7's canonical syntax for the
// simple catalogue tests). It is a test helper, not a litmus parser.
func hashParts(t *testing.T, text string) (init []InitItem, threads [][]string, observed []string) {
	t.Helper()
	open, end := strings.IndexByte(text, '{'), strings.IndexByte(text, '}')
	for _, entry := range strings.Split(text[open+1:end], ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		loc, val, _ := strings.Cut(entry, "=")
		loc, val = strings.TrimSpace(loc), strings.TrimSpace(val)
		init = append(init, InitItem{Loc: loc, Text: loc + "=" + val})
	}
	lines := strings.Split(text[end+1:], "\n")
	var cond string
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "exists") || strings.HasPrefix(line, "~exists") || strings.HasPrefix(line, "forall") {
			cond = strings.Join(lines[i:], " ")
			break
		}
		cells := strings.Split(strings.TrimSuffix(line, ";"), "|")
		if threads == nil {
			threads = make([][]string, len(cells)) // the P0 | P1 header
			continue
		}
		for k, c := range cells {
			if c = strings.TrimSpace(c); c != "" {
				threads[k] = append(threads[k], c)
			}
		}
	}
	for _, m := range regexp.MustCompile(`(\d+:\w+|\[\w+\]|\w+)\s*=`).FindAllStringSubmatch(cond, -1) {
		observed = append(observed, strings.Trim(m[1], "[]"))
	}
	return init, threads, observed
}

func TestHashOfCatalogueTests(t *testing.T) {
	dir := shared.Path(t, "corpus/herd-catalogue-aarch64")
	blocks, err := ParseFile(filepath.Join(dir, "herd-7.57.txt"))
	if err != nil {
		t.Fatal(err)
	}
	matched := map[string]bool{}
	for _, b := range blocks {
		if b.Result == nil || b.Result.Hash == "" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, b.Path))
		if err != nil {
			t.Fatal(err)
		}
		init, threads, observed := hashParts(t, string(src))
		if Hash(init, threads, observed) == b.Result.Hash {
			matched[b.Path] = true
		} else if testing.Verbose() {
			t.Logf("differs: %s", b.Path)
		}
	}
	// Tests without labels or non-canonical spellings must match.
	for _, name := range []string{"MP.litmus", "SB.litmus", "LB.litmus", "2+2W.litmus", "MP+dmb.sy+po.litmus", "CoRR.litmus", "S.litmus", "R.litmus"} {
		if !matched[name] {
			t.Errorf("%s: computed hash differs from herd7's", name)
		}
	}
	t.Logf("hash computed as herd7 does for %d of %d catalogue tests (instructions taken as written)", len(matched), len(blocks))
}

func TestProgramColumns(t *testing.T) {
	got := ProgramColumns([][]string{{"MOV W0,#1", "STR W0,[X1]"}, {"LDR W0,[X1]"}})
	want := " MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] |             ;\n"
	if got != want {
		t.Errorf("ProgramColumns = %q, want %q", got, want)
	}
}
