package herd

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/source"
)

// herd7's configuration files (-conf FILE.cfg) and the options they set.

// confKeys are the keys of a .cfg file that set an option of Config, as
// the flag of the same name does.
var confKeys = []string{"model", "bell", "macros", "variant", "unroll", "speedcheck", "skipchecks", "through", "hexa", "timeout", "names", "oknames", "nonames", "excl"}

// IgnoredPictureKeys are herd7's keys (and options) that only change the
// pictures of executions in ways purr's pictures do not follow (Graphviz's details,
// TeX output, windows to open): accepted, and ignored with a note. The
// other picture keys (show.PictureKeys, doshow, unshow) are honoured.
var IgnoredPictureKeys = []string{
	"show", "movelabel", "showkind", "dotmode", "dotcom", "condensed",
	"labelinit", "initpos", "threadstyle", "showobserved", "showfr", "showpo", "showcutoff",
	"showraw", "showflags", "oneinit", "dumpes", "gv", "evince", "o", "view",
	"siwidth", "dsiy", "edgemerge", "relabel", "fixedsize", "extrachars", "brackets",
	"initrfpos", "finalrfpos", "margin", "sep", "fontname", "edgefontsizedelta", "overlap", "ptscale",
	"boxscale", "threadposy", "tikz", "texmacros", "dotheader", "shortlegend", "noid", "classes", "cycles",
	"showflag", "nshow", "showone", "suffix", "preview", "showpoloc",
}

// ReadConf reads herd7's configuration files into c, in order, as herd7
// reads each -conf when it meets it: each sets the options it gives but
// those of fixed (the keys the command line set, which wins: their lines
// are not read), a later file overriding an earlier one and list keys
// adding up; include lines add to the include path and conf lines read
// another file in place. A file is found as given, else in an -I folder;
// the files it names (model, bell, macros) as herd7 finds them, then in
// the file's folder, which also ends the include path. The keys that only
// change pictures are ignored with a note written to notes.
func (c *Config) ReadConf(paths []string, fixed func(key string) bool, notes io.Writer) error {
	if len(paths) == 0 {
		return nil
	}
	r := confReader{c: c, fixed: fixed, notes: notes}
	if c.Lines == nil {
		c.Lines = map[string]source.Pos{}
	}
	for _, path := range paths {
		path = findOnPath(path, c.Includes) // as herd7: as given, else on the include path
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("-conf: %v", err)
		}
		if err := r.readFile(path, src, nil); err != nil {
			return err
		}
	}
	return r.checkNamedFiles()
}

// confReader reads configuration files into a Config.
type confReader struct {
	c     *Config
	fixed func(key string) bool
	notes io.Writer
	// listed holds the list keys a file has set: the first line of a list
	// key replaces its default, later lines add to it.
	listed map[string]bool
}

// checkNamedFiles reports, at the line that names it, a bell or macro
// file, or a model file (.cat) that is not an embedded model, that is
// nowhere: not as given nor on the include path, whose folders are all
// known once every file is read.
func (r *confReader) checkNamedFiles() error {
	incl := r.c.Includes
	for _, key := range []string{"model", "bell", "macros"} {
		pos, ok := r.c.Lines[key]
		if !ok {
			continue
		}
		name := map[string]string{"model": r.c.Model, "bell": r.c.Bell, "macros": r.c.Macros}[key]
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

// readFile applies the lines of the configuration file path (its
// contents src); reading lists the files whose conf lines led to it, to
// refuse a file that reads itself again (herd7 would not stop).
func (r *confReader) readFile(path string, src []byte, reading []string) error {
	c := r.c
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
			c.Includes = append(c.Includes, value)
		case key == "conf":
			// herd7 reads the named file there and then, found as given,
			// else on the include path, its lines applying as if written
			// here.
			if value == "" {
				return fmt.Errorf("%s: conf needs a file", pos)
			}
			inner := findOnPath(value, c.Includes)
			if slices.ContainsFunc(reading, func(p string) bool { return sameFile(p, inner) }) {
				return fmt.Errorf("%s: conf %s: the file is already being read (herd7 would read it again without end)", pos, value)
			}
			innerSrc, err := os.ReadFile(inner)
			if err != nil {
				return fmt.Errorf("%s: conf %s: no such file as given or in the -I folders (%s)", pos, value, strings.Join(c.Includes, ", "))
			}
			if err := r.readFile(inner, innerSrc, reading); err != nil {
				return err
			}
		case slices.Contains(show.PictureKeys, key) || key == "doshow" || key == "unshow":
			if r.fixed != nil && r.fixed(key) {
				continue // the command line wins
			}
			if err := r.setPicture(key, value); err != nil {
				return fmt.Errorf("%s: %v", pos, err)
			}
			c.Lines[key] = pos
		case slices.Contains(IgnoredPictureKeys, key):
			if !slices.Contains(ignored, key) {
				ignored = append(ignored, key)
			}
		case slices.Contains(confKeys, key) || key == "initwrites":
			if r.fixed != nil && r.fixed(key) {
				continue // the command line wins
			}
			if value == "" {
				return fmt.Errorf("%s: %s needs a value", pos, key)
			}
			if key == "variant" {
				for _, v := range strings.Split(value, ",") {
					if err := checkVariant(strings.TrimSpace(v)); err != nil {
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
				value = findOnPath(value, append(slices.Clip(c.Includes), dir))
			}
			if key == "speedcheck" {
				value = SpeedcheckValue(value)
			}
			if err := r.set(key, value); err != nil {
				return fmt.Errorf("%s: %s %s: %v", pos, key, value, err)
			}
			c.Lines[key] = pos
		default:
			return fmt.Errorf("%s: unknown or unsupported herd7 configuration key %q", pos, key)
		}
	}
	if !slices.Contains(c.Includes, dir) {
		c.Includes = append(c.Includes, dir)
	}
	if len(ignored) > 0 && r.notes != nil {
		fmt.Fprintf(r.notes, "purr: note: %s: ignoring what only changes pictures of executions (%s)\n", path, strings.Join(ignored, ", "))
	}
	return nil
}

// set sets the option of key to a .cfg line's value, read as the command
// line's flag of that name reads it: a list key's first line replaces its
// value, later lines add to it.
func (r *confReader) set(key, value string) error {
	c := r.c
	switch key {
	case "model":
		c.Model = value
	case "bell":
		c.Bell = value
	case "macros":
		c.Macros = value
	case "through":
		c.Through = value
	case "names":
		c.Names = r.appendList(key, c.Names, value)
	case "excl":
		c.Excl = r.appendList(key, c.Excl, value)
	case "unroll":
		n, err := ParseUnroll(value)
		if err != nil {
			return invalidValue(key, value, err)
		}
		c.Unroll = n
	case "speedcheck", "hexa":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return invalidValue(key, value, err)
		}
		if key == "hexa" {
			c.Hexa = b
		} else {
			c.Speedcheck = b
		}
	case "timeout":
		d, err := ParseTimeout(value)
		if err != nil {
			return invalidValue(key, value, err)
		}
		c.Timeout = d
	case "variant", "skipchecks", "oknames", "nonames":
		// A comma-separated list, as the flags read it.
		items, err := csv.NewReader(strings.NewReader(value)).Read()
		if err != nil {
			return invalidValue(key, value, err)
		}
		list := map[string]*[]string{"variant": &c.Variants, "skipchecks": &c.SkipChecks, "oknames": &c.OKNames, "nonames": &c.NoNames}[key]
		*list = r.appendList(key, *list, items...)
	}
	return nil
}

// setPicture sets a picture option to a .cfg line's value: doshow and
// unshow add up as the other list keys do, as do edgeattr and symetric
// lines, as herd7 reads them.
func (r *confReader) setPicture(key, value string) error {
	c := r.c
	switch key {
	case "doshow", "unshow":
		var items []string
		for _, v := range strings.Split(value, ",") {
			if v = strings.TrimSpace(v); v != "" {
				items = append(items, v)
			}
		}
		list := map[string]*[]string{"doshow": &c.DoShow, "unshow": &c.UnShow}[key]
		*list = r.appendList(key, *list, items...)
		return nil
	case "edgeattr", "symetric":
		if r.listed == nil {
			r.listed = map[string]bool{}
		}
		if !r.listed[key] {
			r.listed[key] = true
			if key == "edgeattr" {
				c.Picture.EdgeAttrs = nil
			} else {
				c.Picture.Symmetric = nil
			}
		}
	}
	_, err := c.Picture.Set(key, value)
	return err
}

// appendList adds items to the list of key, replacing its value at the
// key's first line.
func (r *confReader) appendList(key string, list []string, items ...string) []string {
	if r.listed == nil {
		r.listed = map[string]bool{}
	}
	if !r.listed[key] {
		r.listed[key] = true
		list = nil
	}
	return append(list, items...)
}

// invalidValue words a value a key cannot take as the command line's
// flags do.
func invalidValue(key, value string, err error) error {
	return fmt.Errorf("invalid argument %q for %q flag: %v", value, "--"+key, err)
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
