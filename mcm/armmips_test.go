package mcm

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// TestARMSuite and TestMIPSSuite check the classic shapes of
// testdata/arm and testdata/mips (no public ARMv7 or MIPS corpus is at
// hand) against the answers their expected.txt derives from the models:
// under purr's embedded arm (or mips), by both engines alike, and under
// herd's own arm.cat (mips.cat) from ../shared/herd-libdir, unmodified,
// whose full result must equal the embedded model's.
func TestARMSuite(t *testing.T)  { checkSuite(t, "arm", "arm.cat") }
func TestMIPSSuite(t *testing.T) { checkSuite(t, "mips", "mips.cat") }

// suiteAnswer is a line of a suite's expected.txt: a test's name, its
// Observation and its two counts; the rest of the line says why.
type suiteAnswer struct{ observation, holds, fails string }

func checkSuite(t *testing.T, arch, herdFile string) {
	dir := filepath.Join("..", "testdata", arch)
	want := readSuiteAnswers(t, filepath.Join(dir, "expected.txt"))
	files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests: %v", err)
	}
	if len(files) != len(want) {
		t.Errorf("%d tests, %d answers in expected.txt", len(files), len(want))
	}
	own := embeddedModel(t, arch)
	var herds *cat.Model
	if d := shared.Dir(); d != "" {
		libdir := filepath.Join(d, "herd-libdir")
		l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
		if herds, err = l.LoadFile(filepath.Join(libdir, herdFile)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".litmus")
		t.Run(name, func(t *testing.T) {
			lt := parseTestFile(t, f)
			w, ok := want[lt.Name]
			if !ok {
				t.Fatalf("no answer for %s in expected.txt", lt.Name)
			}
			out, diff := compareEngines(own, lt)
			if diff != nil {
				t.Fatalf("the engines differ under %s: %v", arch, diff)
			}
			r := out.Result(lt, false)
			holds, fails := r.Counts()
			if got := (suiteAnswer{fmt.Sprint(r.Observation), fmt.Sprint(holds), fmt.Sprint(fails)}); got != w {
				t.Errorf("under %s: %v, want %v", arch, got, w)
			}
			if herds == nil {
				return
			}
			hout, diff := compareEngines(herds, lt)
			if diff != nil {
				t.Fatalf("the engines differ under %s: %v", herdFile, diff)
			}
			hr := hout.Result(lt, false)
			r.Time, hr.Time = 0, 0
			if r.String() != hr.String() {
				t.Errorf("%s and %s differ:\n%s\n%s", arch, herdFile, r.String(), hr.String())
			}
		})
	}
}

func readSuiteAnswers(t *testing.T, path string) map[string]suiteAnswer {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	answers := map[string]suiteAnswer{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) < 4 {
			t.Fatalf("%s: want NAME OBSERVATION HOLDS FAILS WHY, found %q", path, sc.Text())
		}
		answers[fields[0]] = suiteAnswer{fields[1], fields[2], fields[3]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return answers
}
