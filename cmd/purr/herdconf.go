package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/purr-mcm/purr/cat"
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/source"
)

// herd7's configuration files (-conf FILE.cfg) and the options they set.

// confFlags are the keys of a .cfg file that set purr's flag of the same
// name, unless the command line sets it.
var confFlags = []string{"model", "bell", "macros", "variant", "unroll", "speedcheck", "skipchecks", "through", "hexa", "timeout", "names", "oknames", "nonames", "excl"}

// confPictureKeys are herd7's keys that only change the pictures of
// executions, which purr does not draw: accepted, and ignored with a note.
var confPictureKeys = []string{
	"show", "graph", "squished", "showevents", "movelabel", "fontsize", "xscale", "yscale", "arrowsize",
	"showinitrf", "showfinalrf", "showinitwrites", "splines", "pad", "edgeattr", "doshow", "unshow",
	"showkind", "showthread", "showlegend", "shift", "scale", "penwidth", "dotmode", "dotcom", "condensed",
	"labelinit", "initpos", "threadstyle", "showobserved", "showfr", "showpo", "showcutoff", "mono",
	"showraw", "showflags", "symetric", "oneinit", "dumpes", "gv", "evince", "o", "view",
	"siwidth", "dsiy", "withbox", "labelbox", "edgemerge", "relabel", "fixedsize", "extrachars", "brackets",
	"initrfpos", "finalrfpos", "margin", "sep", "fontname", "edgefontsizedelta", "overlap", "ptscale",
	"boxscale", "threadposy", "tikz", "texmacros", "dotheader", "shortlegend", "noid", "classes", "cycles",
	"showflag", "nshow", "showone", "suffix", "preview", "showpoloc",
}

// applyConf reads the configuration files that --conf names, in order (as
// herd7 reads each -conf when it meets it): each sets the flags it gives
// that the command line did not, a later file overriding an earlier one
// and list keys adding up; include lines add to the include path and conf
// lines read another file in place. A file is found as given, else in an
// -I folder;
// the paths it names (model, bell, macros) as herd7 finds them, then in
// the file's folder, which also ends the include path.
func applyConf(fs *pflag.FlagSet) error {
	confs, err := fs.GetStringArray("conf")
	if err != nil || len(confs) == 0 {
		return nil
	}
	// The flags the command line set: a .cfg line does not change them,
	// but the .cfg files' own lines of a list key cumulate.
	r := confReader{fs: fs, fromCommandLine: map[string]bool{}, named: map[string]source.Pos{}}
	fs.Visit(func(f *pflag.Flag) { r.fromCommandLine[f.Name] = true })
	for _, path := range confs {
		incl, _ := fs.GetStringArray("include")
		path = findOnPath(path, incl) // as herd7: as given, else on the include path
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("-conf: %v", err)
		}
		if err := r.applyFile(path, src, nil); err != nil {
			return err
		}
	}
	return r.checkNamedFiles()
}

// confReader reads configuration files into the flags of fs.
type confReader struct {
	fs *pflag.FlagSet
	// fromCommandLine holds the flags the command line set.
	fromCommandLine map[string]bool
	// named holds, for the files a .cfg names (model, bell, macros), the
	// line that named the one in use.
	named map[string]source.Pos
}

// checkNamedFiles reports, at the line that names it, a bell or macro
// file, or a model file (.cat) that is not an embedded model, that is
// nowhere: not as given nor on the include path, whose folders are all
// known once every file is read.
func (r *confReader) checkNamedFiles() error {
	incl, _ := r.fs.GetStringArray("include")
	for _, key := range []string{"model", "bell", "macros"} {
		pos, ok := r.named[key]
		if !ok {
			continue
		}
		name := r.fs.Lookup(key).Value.String()
		if fileExists(findOnPath(name, incl)) {
			continue
		}
		if key == "model" && (!strings.HasSuffix(name, ".cat") || embeddedModel(name)) {
			continue // a model's name, which loading the model checks
		}
		return fmt.Errorf("%s: %s %s: no such file as given or in the -I folders (%s)", pos, key, name, strings.Join(incl, ", "))
	}
	return nil
}

// applyFile applies the lines of the configuration file path (its
// contents src); reading lists the files whose conf lines led to it, to
// refuse a file that reads itself again (herd7 would not stop).
func (r *confReader) applyFile(path string, src []byte, reading []string) error {
	fs, fromCommandLine := r.fs, r.fromCommandLine
	reading = append(slices.Clip(reading), path)
	dir := filepath.Dir(path)
	var ignored []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "//") {
			continue
		}
		col := strings.Index(text, trimmed) + 1
		key, value := confKeyValue(trimmed)
		pos := source.Pos{File: path, Line: line, Col: col}
		if key == "cat" {
			key = "model" // herd7's other name for the key
		}
		switch {
		case key == "include":
			// herd7 adds the folder, as given, to the end of its include
			// path when it reads the line.
			if value == "" {
				return fmt.Errorf("%s: include needs a folder", pos)
			}
			if err := fs.Set("include", value); err != nil {
				return fmt.Errorf("%s: include %s: %v", pos, value, err)
			}
		case key == "conf":
			// herd7 reads the named file there and then, found as given,
			// else on the include path, its lines applying as if written
			// here.
			if value == "" {
				return fmt.Errorf("%s: conf needs a file", pos)
			}
			incl, _ := fs.GetStringArray("include")
			inner := findOnPath(value, incl)
			if slices.ContainsFunc(reading, func(p string) bool { return sameFile(p, inner) }) {
				return fmt.Errorf("%s: conf %s: the file is already being read (herd7 would read it again without end)", pos, value)
			}
			innerSrc, err := os.ReadFile(inner)
			if err != nil {
				return fmt.Errorf("%s: conf %s: no such file as given or in the -I folders (%s)", pos, value, strings.Join(incl, ", "))
			}
			if err := r.applyFile(inner, innerSrc, reading); err != nil {
				return err
			}
		case slices.Contains(confPictureKeys, key):
			if !slices.Contains(ignored, key) {
				ignored = append(ignored, key)
			}
		case slices.Contains(confFlags, key) || key == "initwrites":
			if fromCommandLine[key] {
				continue // the command line wins
			}
			if value == "" {
				return fmt.Errorf("%s: %s needs a value", pos, key)
			}
			if key == "variant" {
				for _, v := range strings.Split(value, ",") {
					if err := checkHerdVariant(strings.TrimSpace(v)); err != nil {
						return fmt.Errorf("%s: %v", pos, err)
					}
				}
			}
			if key == "initwrites" {
				if value != "true" {
					return fmt.Errorf("%s: initwrites %s: herd7 then leaves out the initial writes, which purr's executions always have", pos, value)
				}
				continue // purr's executions have them, as herd7's by default
			}
			if key == "model" || key == "bell" || key == "macros" {
				// herd7 looks for them as given, then in the -I folders;
				// the .cfg's folder ends the path.
				incl, _ := fs.GetStringArray("include")
				value = findOnPath(value, append(slices.Clip(incl), dir))
			}
			if key == "speedcheck" {
				value = speedcheckValue(value)
			}
			if err := fs.Set(key, value); err != nil {
				return fmt.Errorf("%s: %s %s: %v", pos, key, value, err)
			}
			r.named[key] = pos
		default:
			return fmt.Errorf("%s: unknown or unsupported herd7 configuration key %q", pos, key)
		}
	}
	if incl, _ := fs.GetStringArray("include"); !slices.Contains(incl, dir) {
		if err := fs.Set("include", dir); err != nil {
			return err
		}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(fs.Output(), "purr: note: %s: ignoring what only changes pictures of executions (%s)\n", path, strings.Join(ignored, ", "))
	}
	return nil
}

// confKeyValue splits a .cfg line as herd7's LexConf_herd does: the key,
// then blanks (spaces, tabs), an equals sign or both, then the value
// ("skipchecks = sc", "model\tsc.cat" and "hexa=true" are herd7's too).
func confKeyValue(line string) (key, value string) {
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return strings.TrimPrefix(line, "-"), ""
	}
	key, rest := strings.TrimPrefix(line[:i], "-"), strings.TrimLeft(line[i:], " \t\r")
	if strings.HasPrefix(rest, "=") {
		rest = rest[1:]
	}
	return key, strings.Trim(rest, " \t\r")
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(sa, sb)
}

// findOnPath finds a file named in herd7's configuration or on its command
// line as herd7 does: as given when it exists, else in the first folder of
// dirs that holds it; else it returns the name as given (opening it then
// reports the error).
func findOnPath(name string, dirs []string) string {
	if fileExists(name) || filepath.IsAbs(name) {
		return name
	}
	for _, d := range dirs {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
	}
	return name
}

// herdStdlibSHA256 is the SHA-256 of herd7 7.57's stdlib.cat, the
// definitions purr's prelude provides in its stead.
const herdStdlibSHA256 = "46c6eb7b5eb8820760d20b557280e9399ba247e30343ab8ad7e8cb72eee93624"

// checkHerdStdlib refuses a run in which herd7 would read another
// stdlib.cat than its own: herd7 reads the first on its path (the current
// folder, then the -I folders) before every model, and purr, whose prelude
// stands in for it, would ignore the changes.
func checkHerdStdlib(includes []string) error {
	p := findOnPath("stdlib.cat", includes)
	src, err := os.ReadFile(p)
	if err != nil {
		return nil // herd7 reads its own
	}
	sum := sha256.Sum256(src)
	if hex.EncodeToString(sum[:]) != herdStdlibSHA256 {
		return fmt.Errorf("%s: herd7 would read this stdlib.cat before the model, and it is not herd7 7.57's, whose definitions purr's own prelude provides: purr cannot run it", p)
	}
	return nil
}

// checkHerdDefaultIncludes refuses to stand purr's embedded model in for
// herd7's default one when herd7 would read one of its included files from
// the current folder or an -I folder (a changed aarch64deps.cat, say), which
// purr's model does not read.
func checkHerdDefaultIncludes(arch string, includes []string) error {
	d, _ := litmus.LookupDialect(arch)
	for _, name := range d.HerdIncludes {
		if p := findOnPath(name, includes); fileExists(p) {
			return fmt.Errorf("%s: herd7's default %s model would include this file, which purr's embedded model does not read: give herd's %s.cat with -I (its library folder) or -m", p, arch, d.Model)
		}
	}
	return nil
}

// speedcheckValue maps herd7's -speedcheck values (true, false, fast) onto
// purr's boolean flag: fast, like true, stops once the condition is
// decided.
func speedcheckValue(v string) string {
	if v == "fast" {
		return "true"
	}
	return v
}

// checkThrough accepts herd7's -through none (the default); all and
// invalid let executions that fail the model through, for pictures.
func checkThrough(fs *pflag.FlagSet) error {
	if f := fs.Lookup("through"); f != nil {
		switch v := f.Value.String(); v {
		case "", "none":
		default:
			return fmt.Errorf("-through %s is not supported: it lets executions the model forbids through, for drawing them, which purr does not do", v)
		}
	}
	return nil
}

// loadBell loads the bell file of --bell and returns the loader to load
// the model with: the bell's definitions are in scope of the model, as
// herd7 runs the bell first. The bell is found as herd7 finds it: as
// given, else on the include path. withBell puts them before the model's.
func (o *options) loadBell(l *cat.Loader) (*cat.Model, error) {
	if o.bell == "" {
		return nil, nil
	}
	bell, err := l.LoadFile(findOnPath(o.bell, o.includes))
	if err != nil {
		return nil, err
	}
	l.Prelude = append(slices.Clip(l.Prelude), bell.Stmts...)
	return bell, nil
}

func withBell(bell, m *cat.Model) *cat.Model {
	if bell == nil || m == nil {
		return m
	}
	out := *m
	out.Stmts = append(slices.Clip(bell.Stmts), m.Stmts...)
	out.Files = append(slices.Clip(m.Files), bell.Files...)
	return &out
}
