package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// link is a Markdown link or image: [text](target).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinks checks that every relative link of the README and of the
// documents here names a file that exists and, after a #, a heading of
// that file, so that moving a section between documents cannot leave a
// dangling link.
func TestLinks(t *testing.T) {
	guides, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{"../README.md"}, guides...)
	anchors := map[string]map[string]bool{} // file → its headings' anchors
	links := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(outsideCode(string(src))), "\n") {
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				links++
				where := fmt.Sprintf("%s:%d", file, i+1)
				path, anchor, _ := strings.Cut(target, "#")
				if path == "" {
					path = file
				} else {
					path = filepath.Join(filepath.Dir(file), path)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link to %s: %v", where, target, err)
					continue
				}
				if anchor == "" {
					continue
				}
				if anchors[path] == nil {
					anchors[path], err = headingAnchors(path)
					if err != nil {
						t.Fatal(err)
					}
				}
				if !anchors[path][anchor] {
					t.Errorf("%s: link to %s: %s has no heading with that anchor", where, target, path)
				}
			}
		}
	}
	if links < 20 {
		t.Errorf("found %d relative links: the test does not see them", links)
	}
}

// fence opens or closes a fenced code block.
var fence = regexp.MustCompile("^ *```")

// outsideCode blanks the lines of fenced code blocks, keeping the line
// count: neither their links nor their # lines are Markdown's.
func outsideCode(src string) string {
	lines := strings.Split(src, "\n")
	inside := false
	for i, line := range lines {
		if fence.MatchString(line) {
			inside = !inside
			lines[i] = ""
		} else if inside {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// headingAnchors lists the anchors GitHub gives a Markdown file's
// headings: lower case, punctuation dropped, blanks as hyphens, and -1,
// -2, ... after a repeated one.
func headingAnchors(path string) (map[string]bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(outsideCode(string(src)), "\n") {
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", anchor, n)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors, nil
}
