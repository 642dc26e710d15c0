package herd

import (
	"os"
	"path/filepath"
)

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

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
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
