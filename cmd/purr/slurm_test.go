package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// slurmShards is how many tasks the job array of the test has.
const slurmShards = 4

// TestSlurmJobArray runs the job-array recipe of docs/batches.md on a
// real single-node Slurm started here (Debian's slurm-wlm and munge:
// munged, slurmctld and slurmd with a generated slurm.conf in a
// temporary folder), on the repository's tests, and checks that the
// shards merged by scripts/merge-shards.sh print what -j 1 prints: the
// same stdout but for Time lines, the same stderr and exit status. It
// skips, saying why, where Slurm is not installed or cannot start.
func TestSlurmJobArray(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster and builds purr: not with -short")
	}
	for _, cmd := range []string{"munged", "slurmctld", "slurmd", "sbatch", "sinfo"} {
		if _, err := exec.LookPath(cmd); err != nil {
			t.Skipf("%s is not on PATH: apt-get install slurm-wlm munge (as .ci/run does) to run the job array on a real Slurm", cmd)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("slurmd launches jobs as root only: run as root to start the single-node Slurm")
	}
	recipe := slurmRecipe(t)

	// munged wants every folder above its socket open to all, and none
	// writable by others.
	dir, err := os.MkdirTemp("", "purr-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 1024)
	rand.Read(key)
	for _, sub := range []string{"state", "spool", "out", "suite", "bin"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}

	// purr, built for the job's tasks, and the suite's index.
	purr := filepath.Join(dir, "bin", "purr")
	if out, err := exec.Command("go", "build", "-o", purr, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var index strings.Builder
	for _, f := range repoTests(t) {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&index, abs)
	}
	if err := os.WriteFile(filepath.Join(dir, "suite", "index"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	conf := slurmConf(t, dir)
	env := append(os.Environ(), "SLURM_CONF="+conf, "PATH="+filepath.Dir(purr)+string(os.PathListSeparator)+os.Getenv("PATH"))
	start := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = env, dir
		log, err := os.Create(filepath.Join(dir, name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Skipf("%s cannot start: %v", name, err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill() // ours, by its process
			cmd.Wait()
			log.Close()
		})
	}
	start("munged", "--foreground", "--socket="+filepath.Join(dir, "munge.sock"), "--key-file="+filepath.Join(dir, "munge.key"),
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--log-file="+filepath.Join(dir, "munged.log"),
		"--seed-file="+filepath.Join(dir, "munged.seed"))
	waitFor(t, dir, "munged", func() bool { _, err := os.Stat(filepath.Join(dir, "munge.sock")); return err == nil })
	start("slurmctld", "-D", "-f", conf)
	start("slurmd", "-D", "-N", "purrnode", "-f", conf)
	waitFor(t, dir, "slurmctld and slurmd", func() bool {
		cmd := exec.Command("sinfo", "-h", "-N", "-o", "%t")
		cmd.Env = env
		out, err := cmd.Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})

	// The recipe, as docs/batches.md has it, but for the array's size.
	if err := os.WriteFile(filepath.Join(dir, "job.sh"), []byte(recipe), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	sbatch := exec.CommandContext(ctx, "sbatch", "--wait", "--output=/dev/null", "job.sh")
	sbatch.Env, sbatch.Dir = env, dir
	if out, err := sbatch.CombinedOutput(); err != nil {
		t.Fatalf("sbatch --wait job.sh: %v\n%s\n%s", err, out, logs(dir))
	}
	merge, err := filepath.Abs("../../scripts/merge-shards.sh")
	if err != nil {
		t.Fatal(err)
	}
	mergedOut, mergedErr, mergedStatus := runIn(t, dir, env, "bash", merge, fmt.Sprint(slurmShards), "out")
	wholeOut, wholeErr, wholeStatus := runIn(t, dir, env, purr, "-j", "1", "@suite/index")
	if maskTimes(mergedOut) != maskTimes(wholeOut) || mergedErr != wholeErr || mergedStatus != wholeStatus {
		t.Errorf("the merged shards differ from -j 1: status %d, want %d\nstdout\n%s\nwant\n%s\nstderr\n%s\nwant\n%s",
			mergedStatus, wholeStatus, mergedOut, wholeOut, mergedErr, wholeErr)
	}
	if strings.Count(wholeOut, "\nObservation ") < 20 {
		t.Errorf("-j 1 answers too few tests:\n%s", wholeOut)
	}
}

// slurmRecipe is the Slurm job array of docs/batches.md, for
// slurmShards tasks of one CPU each instead of its 32 of four.
func slurmRecipe(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/batches.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)A Slurm job array[^\n]*\n\n```bash\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/batches.md has no Slurm job array recipe")
	}
	recipe := string(m[1])
	for _, r := range [][2]string{
		{"--array=0-31", fmt.Sprintf("--array=0-%d", slurmShards-1)},
		{"--cpus-per-task=4", "--cpus-per-task=1"},
		{"N=32;", fmt.Sprintf("N=%d;", slurmShards)},
	} {
		if !strings.Contains(recipe, r[0]) {
			t.Fatalf("the recipe of docs/batches.md has no %q:\n%s", r[0], recipe)
		}
		recipe = strings.Replace(recipe, r[0], r[1], 1)
	}
	return recipe
}

// slurmConf writes the configuration of a one-node cluster into dir:
// this machine, its CPUs, free ports, no accounting, no cgroups.
func slurmConf(t *testing.T, dir string) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	ports := freePorts(t, 2)
	conf := fmt.Sprintf(`ClusterName=purrtest
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
AuthInfo=socket=%[3]s/munge.sock
CredType=cred/munge
StateSaveLocation=%[3]s/state
SlurmdSpoolDir=%[3]s/spool
SlurmctldPidFile=%[3]s/slurmctld.pid
SlurmdPidFile=%[3]s/slurmd.pid
SlurmctldLogFile=%[3]s/slurmctld.log
SlurmdLogFile=%[3]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=purrnode NodeAddr=127.0.0.1 NodeHostname=%[4]s CPUs=%[5]d State=UNKNOWN
PartitionName=purr Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, ports[0], ports[1], dir, host, runtime.NumCPU())
	path := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// freePorts are n TCP ports no one listens on now.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("no free port for Slurm: %v", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// waitFor waits up to 30 seconds for ready, and skips the test, with the
// daemons' logs, if what it waits for does not start.
func waitFor(t *testing.T, dir, what string, ready func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if ready() {
			return
		}
	}
	t.Skipf("%s did not start within 30s, so the job array cannot run here:\n%s", what, logs(dir))
}

// logs are the last lines of the daemons' logs.
func logs(dir string) string {
	var b strings.Builder
	for _, name := range []string{"munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "== %s\n%s\n", name, strings.Join(lines[max(0, len(lines)-8):], "\n"))
	}
	return b.String()
}

// runIn runs a command in dir and returns its stdout, stderr and exit
// status.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return out.String(), errb.String(), exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	}
	return out.String(), errb.String(), 0
}
