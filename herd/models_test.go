package herd

import (
	"path/filepath"
	"testing"
)

// TestModelNames names the model of a run as legends and JSON do, and
// finds the file -model names, when it names one.
func TestModelNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{"my.cat": "\"my\"\n"})
	for _, c := range []struct {
		name      string
		cfg       Config
		arch      string
		modelName string
		file      string // "": an embedded model or the default
	}{
		{"the AArch64 default", Config{}, "AArch64", "aarch64", ""},
		{"the X86_64 default", Config{}, "X86_64", "x86tso-mixed", ""},
		{"the C default", Config{}, "C", "rc11", ""},
		{"an unknown architecture", Config{}, "Z80", "", ""},
		{"an embedded model", Config{Model: "sc"}, "AArch64", "sc", ""},
		{"a file", Config{Model: filepath.Join(dir, "my.cat")}, "AArch64", filepath.Join(dir, "my.cat"), filepath.Join(dir, "my.cat")},
		{"a file on the include path", Config{Model: "my", Includes: []string{dir}}, "C", "my", filepath.Join(dir, "my.cat")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.cfg.ModelName(c.arch); got != c.modelName {
				t.Errorf("ModelName(%s) = %q, want %q", c.arch, got, c.modelName)
			}
			if got, ok := c.cfg.ModelFile(); got != c.file || ok != (c.file != "") {
				t.Errorf("ModelFile() = %q, %v; want %q", got, ok, c.file)
			}
		})
	}
}
