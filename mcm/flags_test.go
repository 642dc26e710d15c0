package mcm_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/purr-mcm/purr/herd"
	"github.com/purr-mcm/purr/internal/shared"
	"github.com/purr-mcm/purr/mcm"
)

// TestFlagsSilentSound holds eval.FlagsSilent to executions: on every
// test of the suites for which it says that no flag of the model can be
// raised (so --unroll none keeps no retry for flags), no execution at
// a bound raises one. The counts keep it from passing vacuously: RC11's
// data races are silent in all-atomic programs and loud with a plain
// access; the kernel's model, whose flags its bell's sets decide, counts
// too, and herd's own C11 models.
func TestFlagsSilentSound(t *testing.T) {
	suites := []struct {
		model, dir         string
		unroll             int
		every              int // the share of the suite under -short
		minSilent, minLoud int
	}{
		{"rc11", "testdata/loops", 1, 1, 10, 0},
		{"rc11", "corpus/dat3m-c11", 2, 2, 20, 5},
		{"rc11", "corpus/random-c", 2, 16, 10, 10},
		{"lkmm", "lkmm/kernel-tests", 2, 1, 0, 5},
		{"herd-libdir/rc11.cat", "corpus/dat3m-c11", 2, 2, 20, 5},
		{"herd-libdir/c11_partialSC.cat", "corpus/dat3m-c11", 2, 2, 0, 5},
	}
	for _, s := range suites {
		t.Run(s.model+"/"+s.dir, func(t *testing.T) {
			dir := filepath.Join("..", s.dir)
			if s.dir != "testdata/loops" {
				dir = shared.Path(t, s.dir)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.litmus"))
			sub, _ := filepath.Glob(filepath.Join(dir, "*", "*.litmus"))
			files = append(files, sub...)
			cfg := herd.Default()
			cfg.Unroll = s.unroll
			if s.model == "lkmm" {
				conf := filepath.Join(shared.Path(t, "lkmm/model"), "linux-kernel.cfg")
				if err := cfg.ReadConf([]string{conf}, func(string) bool { return false }, io.Discard); err != nil {
					t.Fatal(err)
				}
			} else if strings.HasPrefix(s.model, "herd-libdir/") {
				libdir := shared.Path(t, "herd-libdir")
				cfg.Model, cfg.Includes = filepath.Join(libdir, filepath.Base(s.model)), []string{libdir}
			} else {
				cfg.Model = s.model
			}
			checker := herd.NewChecker(cfg)
			silent, loud := 0, 0
			for i, f := range files {
				if testing.Short() && i%s.every != 0 {
					continue
				}
				res, err := checker.Check(context.Background(), f)
				if err != nil || res.Outcome == nil {
					continue
				}
				m, err := checker.Model(res.Test.Arch)
				if err != nil {
					t.Fatal(err)
				}
				if mcm.MayRaiseFlags(m, res.Test) {
					loud++
					continue
				}
				silent++
				if len(res.Outcome.Flags) > 0 {
					t.Errorf("%s: flags %v raised, which FlagsSilent says no execution raises", f, res.Outcome.Flags)
				}
			}
			t.Logf("%d tests silent, %d loud", silent, loud)
			if silent < s.minSilent || loud < s.minLoud {
				t.Errorf("%d tests silent, %d loud, want at least %d and %d", silent, loud, s.minSilent, s.minLoud)
			}
		})
	}
}
