package herd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm"
	"github.com/purr-mcm/purr/models"
	"github.com/purr-mcm/purr/stdlib"
)

// Loader returns the Cat loader for the include path: the -I folders,
// then purr's embedded library and models. It refuses a model that names
// something neither it, purr's prelude nor the engines define.
func (c *Config) Loader() (*cat.Loader, error) {
	embedded := []fs.FS{stdlib.FS, models.FS}
	l := &cat.Loader{IncludeDirs: c.Includes, Embedded: embedded, Variants: c.Variants, Cache: cat.UserCache(embedded...)}
	if err := mcm.CheckNames(l); err != nil {
		return nil, err
	}
	return l, nil
}

// defaultModel names an architecture's model when -model is not given.
func defaultModel(arch string) (string, bool) {
	d, ok := litmus.LookupDialect(arch)
	return d.Model, ok && d.Model != ""
}

// ModelName names the model a test of arch runs under, for legends:
// -model as given, or the architecture's default.
func (c *Config) ModelName(arch string) string {
	if c.Model != "" {
		return c.Model
	}
	name, _ := defaultModel(arch)
	return name
}

// ModelFile is the file -model names, when it names one rather than an
// embedded model.
func (c *Config) ModelFile() (string, bool) {
	if c.Model == "" {
		return "", false
	}
	if fileExists(c.Model) {
		return c.Model, true
	}
	name := c.Model
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	for _, dir := range c.Includes {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p, true
		}
	}
	return "", false
}

// loadModel loads the model for tests of arch: -model, a file if one
// exists at that path, else a file of that name on the include path or
// among the embedded models (with or without .cat); without -model, the
// architecture's default, looked for as herd7 looks for it.
func (c *Config) loadModel(arch string) (*cat.Model, error) {
	name := c.Model
	if name == "" {
		def, ok := defaultModel(arch)
		if !ok {
			return nil, fmt.Errorf("purr: no default model for %s tests yet; choose one with -m (sc, tso, pso, or a .cat file)", arch)
		}
		name = def
	}
	if err := checkStdlib(c.Includes); err != nil {
		return nil, err
	}
	l, err := c.Loader()
	if err != nil {
		return nil, err
	}
	bell, err := c.loadBell(l)
	if err != nil {
		return nil, err
	}
	if fileExists(name) {
		m, err := l.LoadFile(name)
		return withBell(bell, m), err
	}
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	dirs := c.Includes
	if c.Model == "" {
		// herd7 looks for its default model in the current folder first.
		dirs = append([]string{"."}, dirs...)
	}
	for _, dir := range dirs {
		if p := filepath.Join(dir, name); fileExists(p) {
			m, err := l.LoadFile(p)
			return withBell(bell, m), err
		}
	}
	if c.Model == "" {
		if err := checkDefaultIncludes(arch, c.Includes); err != nil {
			return nil, err
		}
	}
	if src, err := fs.ReadFile(models.FS, name); err == nil {
		m, err := l.LoadSource(name, src)
		return withBell(bell, m), err
	}
	return nil, fmt.Errorf("purr: model %s: no such file, on the include path or among the embedded models (%s)", c.Model, embeddedModels())
}

// embeddedModel reports whether purr ships a model of that name (with or
// without .cat).
func embeddedModel(name string) bool {
	if !strings.HasSuffix(name, ".cat") {
		name += ".cat"
	}
	_, err := fs.Stat(models.FS, name)
	return err == nil
}

// embeddedModels lists the models purr ships, by name.
func embeddedModels() string {
	names, _ := fs.Glob(models.FS, "*.cat")
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".cat")
	}
	return strings.Join(names, ", ")
}

// stdlibSHA256 is the SHA-256 of herd7 7.57's stdlib.cat, the definitions
// purr's prelude provides in its stead.
const stdlibSHA256 = "46c6eb7b5eb8820760d20b557280e9399ba247e30343ab8ad7e8cb72eee93624"

// checkStdlib refuses a run in which herd7 would read another stdlib.cat
// than its own: herd7 reads the first on its path (the current folder,
// then the -I folders) before every model, and purr, whose prelude stands
// in for it, would ignore the changes.
func checkStdlib(includes []string) error {
	p := findOnPath("stdlib.cat", includes)
	src, err := os.ReadFile(p)
	if err != nil {
		return nil // herd7 reads its own
	}
	sum := sha256.Sum256(src)
	if hex.EncodeToString(sum[:]) != stdlibSHA256 {
		return fmt.Errorf("%s: herd7 would read this stdlib.cat before the model, and it is not herd7 7.57's, whose definitions purr's own prelude provides: purr cannot run it", p)
	}
	return nil
}

// checkDefaultIncludes refuses to stand purr's embedded model in for
// herd7's default one when herd7 would read one of its included files from
// the current folder or an -I folder (a changed aarch64deps.cat, say),
// which purr's model does not read.
func checkDefaultIncludes(arch string, includes []string) error {
	d, _ := litmus.LookupDialect(arch)
	for _, name := range d.HerdIncludes {
		if p := findOnPath(name, includes); fileExists(p) {
			return fmt.Errorf("%s: herd7's default %s model would include this file, which purr's embedded model does not read: give herd's %s.cat with -I (its library folder) or -m", p, arch, d.Model)
		}
	}
	return nil
}

// loadBell loads the bell file of -bell and adds its definitions to l's
// prelude, in scope of the model, as herd7 runs the bell first. The bell
// is found as herd7 finds it: as given, else on the include path.
func (c *Config) loadBell(l *cat.Loader) (*cat.Model, error) {
	if c.Bell == "" {
		return nil, nil
	}
	bell, err := l.LoadFile(findOnPath(c.Bell, c.Includes))
	if err != nil {
		return nil, err
	}
	l.Prelude = append(slices.Clip(l.Prelude), bell.Stmts...)
	return bell, nil
}

// withBell puts the bell's statements before the model's.
func withBell(bell, m *cat.Model) *cat.Model {
	if bell == nil || m == nil {
		return m
	}
	out := *m
	out.Stmts = append(slices.Clip(bell.Stmts), m.Stmts...)
	out.Files = append(slices.Clip(m.Files), bell.Files...)
	return &out
}
