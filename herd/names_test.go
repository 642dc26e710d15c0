package herd

import (
	"path/filepath"
	"testing"
)

// TestSelects chooses tests by name as herd7 does: -names and -oknames
// keep only those they name, -excl and -nonames leave out those they name,
// and a names file is read up to each line's first space (a kinds file).
func TestSelects(t *testing.T) {
	dir := writeFiles(t, map[string]string{"names.txt": "MP Allowed\nSB\n", "excl.txt": "SB Forbidden\n"})
	names, excl := filepath.Join(dir, "names.txt"), filepath.Join(dir, "excl.txt")
	for _, c := range []struct {
		name string
		cfg  Config
		want map[string]bool
	}{
		{"every test", Config{}, map[string]bool{"MP": true, "LB": true}},
		{"-oknames", Config{OKNames: []string{"MP", "LB"}}, map[string]bool{"MP": true, "LB": true, "SB": false}},
		{"-nonames", Config{NoNames: []string{"MP"}}, map[string]bool{"MP": false, "LB": true}},
		{"-names", Config{Names: []string{names}}, map[string]bool{"MP": true, "SB": true, "LB": false, "Allowed": false}},
		{"-names and -oknames", Config{Names: []string{names}, OKNames: []string{"LB"}}, map[string]bool{"MP": true, "LB": true, "WRC": false}},
		{"-excl", Config{Excl: []string{excl}}, map[string]bool{"SB": false, "MP": true}},
		{"-excl wins", Config{Names: []string{names}, Excl: []string{excl}}, map[string]bool{"SB": false, "MP": true}},
		{"a file that cannot be read names none", Config{Names: []string{filepath.Join(dir, "none")}}, map[string]bool{"MP": false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := nameFiles{}
			for test, want := range c.want {
				if got := c.cfg.selects(test, files); got != want {
					t.Errorf("selects(%s) = %v, want %v", test, got, want)
				}
			}
		})
	}
}

func TestCheckNameFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{"names.txt": "MP\n"})
	for _, c := range []struct {
		cfg Config
		err string
	}{
		{Config{Names: []string{filepath.Join(dir, "names.txt")}}, ""},
		{Config{Names: []string{"MP,LB"}}, "-names MP,LB: no such file or directory"},
		{Config{Excl: []string{dir}}, "-excl " + dir + ": is a directory"},
	} {
		err := c.cfg.CheckNameFiles()
		if (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("%+v: error %v, want %q", c.cfg, err, c.err)
		}
	}
}
