package mcm

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIndependence checks, on the import graph, that the explicit engine
// and what it shares with the SAT engine depend on nothing of the SAT
// side: the differential tests compare two independent meanings.
func TestIndependence(t *testing.T) {
	const module = "github.com/purr-mcm/purr/mcm/internal/"
	forbidden := []string{module + "sat", module + "satengine", "github.com/crillab/gophersat"}
	for _, pkg := range []string{"internal/explicit", "internal/engine", "internal/eval", "internal/events", "outcome"} {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps ./%s lists %q", pkg, deps)
		}
		for _, dep := range deps {
			for _, f := range forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") {
					t.Errorf("mcm/%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
