package mcm

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/herdtest"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

var updateHerdModels = flag.Bool("update-herd-models", false, "rewrite testdata/herd-models.golden with the agreement found")

const herdModelsGolden = "testdata/herd-models.golden"

// TestHerdModels runs herd7's own libdir models (herd7 -I herd-libdir
// -model herd-libdir/M.cat) over the tests herd7 ran them on, and compares
// verdict, States and Positive/Negative with herd7's output. It logs one
// line per model, "folder model agreed/total", and fails when a model
// agrees on fewer tests than testdata/herd-models.golden records (the
// floors: what purr reached; a model purr cannot load has floor 0 and a
// reason). -update-herd-models rewrites the file.
func TestHerdModels(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 43 models over 4000 tests")
	}
	libdir := shared.Path(t, "herd-libdir")
	floors := shared.ReadFloors(t, herdModelsGolden, 2, *updateHerdModels)
	var lines []string
	for _, folder := range []string{"herd-catalogue-aarch64", "dat3m-c11"} {
		dir := shared.Path(t, filepath.Join("corpus", folder))
		refFiles, err := filepath.Glob(filepath.Join(dir, "herd-models", "*.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, refFile := range refFiles {
			model := strings.TrimSuffix(filepath.Base(refFile), ".txt")
			key := folder + " " + model
			agreed, total, note := runHerdModel(t, libdir, dir, refFile, model)
			line := fmt.Sprintf("%s %d/%d", key, agreed, total)
			if note != "" {
				line += " # " + note
			}
			t.Log(line)
			lines = append(lines, line)
			if floor, ok := floors[key]; ok && agreed < floor {
				t.Errorf("%s: %d/%d agree with herd7, fewer than the %d of %s", key, agreed, total, floor, herdModelsGolden)
			} else if !ok && !*updateHerdModels {
				t.Errorf("%s: no floor in %s (run with -update-herd-models)", key, herdModelsGolden)
			}
		}
	}
	if *updateHerdModels {
		sort.Strings(lines)
		if err := os.WriteFile(herdModelsGolden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runHerdModel checks every test of refFile under herd-libdir's model.cat;
// note says why the model could not run, or sums up the differences.
func runHerdModel(t *testing.T, libdir, dir, refFile, model string) (agreed, total int, note string) {
	refs, err := herdtest.ParseFile(refFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range refs {
		if ref.Result != nil {
			total++
		}
	}
	l := &cat.Loader{IncludeDirs: []string{libdir}, Embedded: []fs.FS{stdlib.FS, models.FS}}
	if err := CheckNames(l); err != nil {
		t.Fatal(err)
	}
	m, err := l.LoadFile(filepath.Join(libdir, model+".cat"))
	if err != nil {
		return 0, total, "load: " + firstLine(err.Error())
	}
	reasons := map[string]int{}
	for _, ref := range refs {
		if ref.Result == nil {
			continue // herd7 timed out or rejected the test
		}
		got, err := checkHerdModel(m, filepath.Join(dir, ref.Path), EngineSAT)
		if err != nil && strings.Contains(err.Error(), "use --engine explicit") {
			// What a user would do: the explicit engine lists the
			// choices the SAT engine cannot.
			reasons["explicit engine"]++
			got, err = checkHerdModel(m, filepath.Join(dir, ref.Path), EngineExplicit)
		}
		if err != nil {
			reasons[firstLine(strings.TrimPrefix(err.Error(), dir+"/"))]++
			continue
		}
		if d := herdtest.Compare(ref, got); len(d) > 0 {
			if *corpusReport {
				t.Logf("  %s %s: %s", model, ref.Path, strings.Join(d, "; "))
			}
			reasons["differs"]++
			continue
		}
		agreed++
	}
	var parts []string
	for r, n := range reasons {
		parts = append(parts, strconv.Itoa(n)+"× "+r)
	}
	sort.Strings(parts)
	if len(parts) > 4 {
		parts = append(parts[:4], "...")
	}
	return agreed, total, strings.Join(parts, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func checkHerdModel(m *cat.Model, path, engine string) (blk herdtest.Block, err error) {
	src, err := readFile(path)
	if err != nil {
		return blk, err
	}
	lt, err := litmus.Parse(path, src)
	if err != nil {
		return blk, err
	}
	// A bound, not a timing: a model that explodes on one test must not
	// stall the table (herd7 answered these tests within 60 s).
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := CheckContext(ctx, m, lt, Options{Unroll: 2, Engine: engine})
	if err != nil {
		return blk, err
	}
	r := out.Result(lt, false)
	return herdtest.Block{Path: path, Result: &r}, nil
}
