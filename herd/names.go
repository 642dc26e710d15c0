package herd

import (
	"os"
	"slices"
	"strings"
)

// herd7 chooses the tests of a batch by their names (lib/checkName.ml):
// -names and -oknames keep only those they name, -excl and -nonames leave
// out those they name.

// nameFiles holds the files of names a Checker has read, each once.
type nameFiles map[string]map[string]bool

// readNamesFile reads a file of test names as herd7 does
// (lib/readNames.ml): on each line, the name is what comes before the
// first space, so that a kinds file (NAME KIND) is one too.
func readNamesFile(path string) (map[string]bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
		name, _, _ := strings.Cut(line, " ")
		names[name] = true
	}
	return names, nil
}

// names tells whether one of the files names the test; a file that cannot
// be read names none (Config.CheckNameFiles reports it).
func (n nameFiles) names(files []string, name string) bool {
	for _, f := range files {
		names, ok := n[f]
		if !ok {
			names, _ = readNamesFile(f)
			n[f] = names
		}
		if names[name] {
			return true
		}
	}
	return false
}

// selects reports whether the test of that name is among those -names'
// files and -oknames list, when they are given, and neither among -excl's
// files nor -nonames' list, as herd7 chooses.
func (c *Config) selects(name string, files nameFiles) bool {
	if slices.Contains(c.NoNames, name) || files.names(c.Excl, name) {
		return false
	}
	if len(c.OKNames) == 0 && len(c.Names) == 0 {
		return true
	}
	return slices.Contains(c.OKNames, name) || files.names(c.Names, name)
}
