package aarch64_test

import (
	"os"
	"testing"

	"github.com/purr-mcm/purr/litmus"
)

// TestHashOfMP checks the whole hash on the repository's MP test: herd7
// 7.57 prints Hash=211d5b298572012a0869d4ded6a40b7f for it.
func TestHashOfMP(t *testing.T) {
	src, err := os.ReadFile("../../testdata/MP.litmus")
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse("MP.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lt.Hash(), "211d5b298572012a0869d4ded6a40b7f"; got != want {
		t.Errorf("Hash() = %s, want herd7's %s", got, want)
	}
}
