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
	const internal = "github.com/purr-mcm/purr/mcm/internal/"
	forbidDeps(t, []string{"internal/explicit", "internal/engine", "internal/eval", "internal/events", "outcome"},
		internal+"sat", internal+"satengine", "github.com/crillab/gophersat")
}

// TestOutputIndependence checks that the packages that print or draw
// results depend on no engine internals (the unfolding, the evaluator,
// the engines): an outcome is all they need.
func TestOutputIndependence(t *testing.T) {
	forbidDeps(t, []string{"outcome", "herdout", "show", "../picture", "../view"}, "github.com/purr-mcm/purr/mcm/internal")
}

// forbidDeps fails when one of pkgs (relative to mcm) depends on one of
// forbidden or a package under it.
func forbidDeps(t *testing.T, pkgs []string, forbidden ...string) {
	t.Helper()
	for _, pkg := range pkgs {
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
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
