package asm

import (
	"testing"

	"github.com/purr-mcm/purr/source"
	"github.com/purr-mcm/purr/xcfa"
)

// TestFlowUndefinedLabel: of the labels jumped to and never defined, the
// error names the first in the code, whatever the map's order.
func TestFlowUndefinedLabel(t *testing.T) {
	for range 20 {
		f := NewFlow(xcfa.NewProcess(0))
		f.Jump("later", source.Pos{File: "t", Line: 5, Col: 3}, source.Pos{File: "t", Line: 5, Col: 7})
		f.Branch("first", xcfa.Reg{Name: "r"}, source.Pos{File: "t", Line: 4, Col: 3}, source.Pos{File: "t", Line: 4, Col: 9})
		if err := f.Define("defined", source.Pos{File: "t", Line: 6, Col: 1}); err != nil {
			t.Fatal(err)
		}
		err := f.Finish()
		if err == nil || err.Error() != "t:4:9: label first is not defined in P0" {
			t.Fatalf("got %v", err)
		}
	}
}

// TestFlowLabelTwice: a label defined twice is refused at the second.
func TestFlowLabelTwice(t *testing.T) {
	f := NewFlow(xcfa.NewProcess(1))
	if err := f.Define("L", source.Pos{File: "t", Line: 1, Col: 1}); err != nil {
		t.Fatal(err)
	}
	if err := f.Define("L", source.Pos{File: "t", Line: 2, Col: 1}); err == nil || err.Error() != "t:2:1: label L is defined twice in P1" {
		t.Fatalf("got %v", err)
	}
}
