package herd

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/purr-mcm/purr/mcm/show"
	"github.com/purr-mcm/purr/source"
)

// writeFiles writes files (name → contents) into a new folder and returns
// it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestConfKeyValue(t *testing.T) {
	for _, c := range []struct{ line, key, value string }{
		{"model sc.cat", "model", "sc.cat"},
		{"skipchecks = sc", "skipchecks", "sc"},
		{"model\tsc.cat", "model", "sc.cat"},
		{"hexa=true", "hexa", "true"},
		{"-unroll 3", "unroll", "3"},
		{"graph", "graph", ""},
		{"variant a, b \r", "variant", "a, b"},
	} {
		if key, value := confKeyValue(c.line); key != c.key || value != c.value {
			t.Errorf("confKeyValue(%q) = %q, %q; want %q, %q", c.line, key, value, c.key, c.value)
		}
	}
}

// TestReadConf reads .cfg files into a Config: the keys the command line
// fixed are left alone (their lines unread, even wrong ones), list keys add
// up over lines and files, a later file overrides an earlier one, files
// are found on the include path, which the files' folders end, and errors
// carry the line's position.
func TestReadConf(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"sc.cfg":        "# herd's sc\nmodel sc.cat\n  graph columns\nfontsize 8\nunroll 3\ndotmode plain\n",
		"lists.cfg":     "variant a\nvariant b,c\nnonames MP\nnonames SB\n",
		"later.cfg":     "unroll 5\nhexa = true\nspeedcheck fast\ntimeout 1.5\n",
		"bad-key.cfg":   "model sc\n  nosuchkey 1\n",
		"bad-int.cfg":   "unroll three\n",
		"deps.cfg":      "model sc\n\nvariant deps\n",
		"no-init.cfg":   "initwrites false\n",
		"loop.cfg":      "model sc\nconf loop.cfg\n",
		"outer.cfg":     "include lib\nconf inner.cfg\n",
		"lib/inner.cfg": "cat m.cat\n",
		"lib/m.cat":     "\"m\"\n",
		"bell.cfg":      "bell no-such.bell\n",
		"empty.cfg":     "bell\n",
		"through.cfg":   "through all\n",
		"pictures.cfg": "doshow bob,DSB-ob\ndoshow ets-ob\nunshow dmb.sy\nedgeattr po,color,lightgray\nedgeattr rmw,color,indigo\n" +
			"symetric sm\nsymetric si\nshowinitwrites false\nshowevents noregs\n",
		"bad-picture.cfg": "graph rows\n",
	})
	t.Chdir(dir) // herd7 finds relative paths from the current folder
	for _, c := range []struct {
		name     string
		files    []string
		fixed    []string // the keys the command line set
		start    func(*Config)
		want     func(*Config) // the fields of Default() the files change
		lines    map[string]int
		includes []string // the include path after reading (nil: the current folder, where the files are)
		err      string
		notes    string
	}{
		{name: "model, unroll, picture keys and ignored ones", files: []string{"sc.cfg"},
			want:  func(c *Config) { c.Model, c.Unroll, c.Picture.Graph, c.Picture.FontSize = "sc.cat", 3, "columns", 8 },
			lines: map[string]int{"model": 2, "graph": 3, "fontsize": 4, "unroll": 5},
			notes: "purr: note: " + "sc.cfg" + ": ignoring what only changes pictures of executions (dotmode)\n"},
		{name: "the command line wins", files: []string{"sc.cfg"}, fixed: []string{"model", "unroll", "graph"},
			start: func(c *Config) { c.Model, c.Unroll, c.Picture.Graph = "tso", 1, "free" },
			want:  func(c *Config) { c.Model, c.Unroll, c.Picture.Graph, c.Picture.FontSize = "tso", 1, "free", 8 }},
		{name: "picture lists add up, doshow and unshow", files: []string{"pictures.cfg"},
			want: func(c *Config) {
				c.DoShow, c.UnShow = []string{"bob", "DSB-ob", "ets-ob"}, []string{"dmb.sy"}
				c.Picture.EdgeAttrs = []show.EdgeAttr{{Rel: "po", Attr: "color", Value: "lightgray"}, {Rel: "rmw", Attr: "color", Value: "indigo"}}
				c.Picture.Symmetric, c.Picture.HideInitWrites, c.Picture.ShowEvents = []string{"sm", "si"}, true, "noregs"
			}},
		{name: "a bad picture value", files: []string{"bad-picture.cfg"}, err: "bad-picture.cfg:1:1: graph takes cluster, free, columns, not \"rows\""},
		{name: "list keys add up", files: []string{"lists.cfg"},
			want: func(c *Config) { c.Variants, c.NoNames = []string{"a", "b", "c"}, []string{"MP", "SB"} }},
		{name: "a list the command line set is left alone", files: []string{"lists.cfg"}, fixed: []string{"variant"},
			start: func(c *Config) { c.Variants = []string{"x"} },
			want:  func(c *Config) { c.Variants, c.NoNames = []string{"x"}, []string{"MP", "SB"} }},
		{name: "a later file overrides an earlier one", files: []string{"sc.cfg", "later.cfg"},
			want: func(c *Config) {
				c.Model, c.Unroll, c.Hexa, c.Speedcheck, c.Timeout = "sc.cat", 5, true, true, 1500*time.Millisecond
				c.Picture.Graph, c.Picture.FontSize = "columns", 8
			}},
		{name: "include and conf lines", files: []string{"outer.cfg"},
			want: func(c *Config) { c.Model = "lib/m.cat" }, includes: []string{"lib", "."},
			lines: map[string]int{"model": 1}},
		{name: "unknown key", files: []string{"bad-key.cfg"}, err: "bad-key.cfg" + ":2:3: unknown or unsupported herd7 configuration key \"nosuchkey\""},
		{name: "a value of the wrong type", files: []string{"bad-int.cfg"},
			err: "bad-int.cfg" + `:1:1: unroll three: invalid argument "three" for "--unroll" flag: strconv.ParseInt: parsing "three": invalid syntax`},
		{name: "a wrong line the command line overrides", files: []string{"bad-int.cfg"}, fixed: []string{"unroll"}},
		{name: "a semantic variant", files: []string{"deps.cfg"}, err: "deps.cfg" + ":3:1: variant deps makes herd7 model the speculative execution"},
		{name: "initwrites false", files: []string{"no-init.cfg"}, err: "no-init.cfg" + ":1:1: initwrites false: herd7 then leaves out the initial writes"},
		{name: "a file reading itself", files: []string{"loop.cfg"}, err: "loop.cfg" + ":2:1: conf loop.cfg: the file is already being read"},
		{name: "a bell that is nowhere", files: []string{"bell.cfg"}, err: "bell.cfg:1:1: bell no-such.bell: no such file as given or in the -I folders (.)"},
		{name: "a key without its value", files: []string{"empty.cfg"}, err: "empty.cfg" + ":1:1: bell needs a value"},
		{name: "no such file", files: []string{"none.cfg"}, err: "-conf: open none.cfg: no such file or directory"},
		{name: "found on the include path", files: []string{"inner.cfg"},
			start: func(c *Config) { c.Includes = []string{"lib"} },
			want:  func(c *Config) { c.Model = "lib/m.cat" }, includes: []string{"lib"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Default()
			if c.start != nil {
				c.start(&cfg)
			}
			var notes strings.Builder
			fixed := func(key string) bool { return strings.Contains(" "+strings.Join(c.fixed, " ")+" ", " "+key+" ") }
			err := cfg.ReadConf(c.files, fixed, &notes)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := Default()
			if c.start != nil {
				c.start(&want)
			}
			if c.want != nil {
				c.want(&want)
			}
			want.Includes = c.includes
			if want.Includes == nil {
				want.Includes = []string{"."} // the file's folder ends the include path
			}
			lines := cfg.Lines
			cfg.Lines, want.Lines = nil, nil
			if !reflect.DeepEqual(cfg, want) {
				t.Errorf("got  %+v\nwant %+v", cfg, want)
			}
			for key, line := range c.lines {
				if pos := lines[key]; pos.Line != line || pos == (source.Pos{}) {
					t.Errorf("%s set at %v, want line %d", key, pos, line)
				}
			}
			if c.notes != "" && notes.String() != c.notes {
				t.Errorf("notes %q, want %q", notes.String(), c.notes)
			}
		})
	}
}

func TestParseTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"10", 10 * time.Second, ""},
		{"0.5", 500 * time.Millisecond, ""},
		{"2m", 2 * time.Minute, ""},
		{"none", 0, ""},
		{"-1", 0, `negative timeout "-1"`},
		{"soon", 0, `"soon" is not a duration (10s, 1m) or a number of seconds`},
	} {
		got, err := ParseTimeout(c.in)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("ParseTimeout(%q) = %v, %v; want %v, %q", c.in, got, err, c.want, c.err)
		}
	}
}
