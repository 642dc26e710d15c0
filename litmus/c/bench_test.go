package c

import (
	"os"
	"strings"
	"testing"
)

func BenchmarkTranslate(b *testing.B) {
	src, err := os.ReadFile("testdata/cas.litmus")
	if err != nil {
		b.Fatal(err)
	}
	prog := src[strings.Index(string(src), "P0"):strings.Index(string(src), "exists")]
	for b.Loop() {
		if _, err := TranslateSource("cas", prog, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnbalanced parses deeply nested broken input, which must stay
// linear: the parser stops at the first error instead of resynchronising at
// every level.
func BenchmarkUnbalanced(b *testing.B) {
	for _, open := range []string{"(", "{", "a("} {
		src := []byte("P0(int *x) { " + strings.Repeat(open, 4000) + " }")
		b.Run(open, func(b *testing.B) {
			for b.Loop() {
				if _, err := TranslateSource("deep", src, nil); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}
