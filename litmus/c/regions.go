package c

import "strings"

// withoutRegions blanks a "regions: ..." clause that ends the program part
// (herd's memory-region declarations, e.g. "regions: x:PROP"), which the
// shared splitter leaves in the program. Line and column numbers of the rest
// are unchanged. The clause changes nothing that purr models.
func withoutRegions(text string) string {
	i := 0
	for i < len(text) {
		j := strings.IndexByte(text[i:], '\n')
		line := text[i:]
		if j >= 0 {
			line = text[i : i+j]
		}
		rest := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(rest, "regions") && strings.HasPrefix(strings.TrimLeft(rest[len("regions"):], " \t"), ":") {
			var b strings.Builder
			b.WriteString(text[:i])
			for _, r := range text[i:] {
				if r == '\n' {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
			}
			return b.String()
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return text
}
