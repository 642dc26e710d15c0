package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/internal/shared"
)

// BenchmarkColdStart runs purr as herd7's users often do, one process per
// test, and reports the CPU time (user and system) of each process beside
// the wall time: MP.litmus under its default model, and a kernel test
// under the kernel's configuration (when ../shared is there). purr is
// built as scripts/bench-cold.sh builds it, with CGO_ENABLED=0; the parse
// cache is warm after the first process.
func BenchmarkColdStart(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "purr")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cache := filepath.Join(dir, "cache")
	run := func(b *testing.B, wd string, args ...string) {
		var cpu time.Duration
		for b.Loop() {
			cmd := exec.Command(bin, args...)
			cmd.Dir = wd
			cmd.Env = append(os.Environ(), cat.CacheEnv+"="+cache)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("purr: %v\n%s", err, out)
			}
			if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				cpu += time.Duration(u.Utime.Nano() + u.Stime.Nano())
			}
		}
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
	wd, _ := os.Getwd()
	b.Run("MP", func(b *testing.B) { run(b, wd, filepath.Join(wd, mp)) })
	b.Run("kernel", func(b *testing.B) {
		model := shared.Path(b, "lkmm/model")
		test := shared.Path(b, "lkmm/kernel-tests/MP+pooncerelease+poacquireonce.litmus")
		run(b, model, "-conf", "linux-kernel.cfg", test)
	})
}
