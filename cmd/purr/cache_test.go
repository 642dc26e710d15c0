package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/purr-mcm/purr/cat"
)

// cacheModel writes a model that includes a second file, and returns the
// model's path.
func cacheModel(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"main.cat": "\"cache test\"\ninclude \"part.cat\"\nacyclic po | com as sc\n",
		"part.cat": "let com = rf | co | fr\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "main.cat")
}

// TestCacheNeverChangesAnAnswer runs a model from a cache whose entries are
// damaged in every way, and from one that two purr processes fill at once:
// the answer is the one purr gives without a cache.
func TestCacheNeverChangesAnAnswer(t *testing.T) {
	model := cacheModel(t)
	t.Setenv(cat.CacheEnv, "off")
	want, errs, status := runPurr("-m", model, mp)
	if status != 0 {
		t.Fatalf("exit status %d: %s", status, errs)
	}
	dir := t.TempDir()
	t.Setenv(cat.CacheEnv, dir)
	if got, _, _ := runPurr("-m", model, mp); withoutTime(got) != withoutTime(want) {
		t.Fatalf("filling the cache: got\n%s\nwant\n%s", got, want)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(entries) != 2 {
		t.Fatalf("%d cache entries, want 2 (the model and its include)", len(entries))
	}
	damage := map[string]func([]byte) []byte{
		"emptied":   func([]byte) []byte { return nil },
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"flipped":   func(b []byte) []byte { b[len(b)-3] ^= 1; return b },
		"extended":  func(b []byte) []byte { return append(b, 7) },
	}
	for how, f := range damage {
		for _, e := range entries {
			data, err := os.ReadFile(e)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(e, f(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, _, _ := runPurr("-m", model, mp); withoutTime(got) != withoutTime(want) {
			t.Errorf("entries %s: got\n%s\nwant\n%s", how, got, want)
		}
	}

	fresh := t.TempDir()
	var cmds []*exec.Cmd
	for range 2 {
		cmd := exec.Command(os.Args[0], "-m", model, mp)
		cmd.Env = append(os.Environ(), "PURR_TEST_AS_PURR=1", cat.CacheEnv+"="+fresh)
		cmds = append(cmds, cmd)
	}
	outs := make(chan []byte, len(cmds))
	for _, cmd := range cmds {
		go func() {
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("purr: %v", err)
			}
			outs <- out
		}()
	}
	for range cmds {
		if got := string(<-outs); withoutTime(got) != withoutTime(want) {
			t.Errorf("filling the cache at once: got\n%s\nwant\n%s", got, want)
		}
	}
	t.Setenv(cat.CacheEnv, fresh)
	if got, _, _ := runPurr("-m", model, mp); withoutTime(got) != withoutTime(want) {
		t.Errorf("after two processes filled it: got\n%s\nwant\n%s", got, want)
	}
}
