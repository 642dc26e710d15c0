package view

import (
	"flag"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/purr-mcm/purr/internal/browser"
)

var screenshot = flag.String("screenshot", "", "save the browser test's screenshot of the page to `FILE` (default: in the test's temporary folder)")

// TestPageInBrowser drives the page in a headless Chromium: it lists the
// executions, ticking a relation redraws, choosing an execution draws it,
// the switch shows the forbidden ones and back, and saving the watched
// file shows its error, then the fix.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	s, watched := newServer(t)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close) // after the browser's cleanup, which closes its connections
	p := browser.Open(t, srv.URL, 2*time.Minute, 20*time.Second)
	p.Wait("two executions listed", browser.Count("#executions li[data-index]")+" === 2")
	p.Wait("the first drawn, rf only", browser.Count(`#drawing g.execution[data-index="1"]`)+" === 1 && "+
		browser.Count(`#drawing path.edge`)+" === 1 && "+browser.Count(`#drawing path.edge[data-rel="rf"]`)+" === 1")
	p.Click(`input[value="co"]`)
	p.Wait("co drawn once ticked", browser.Count(`#drawing path.edge[data-rel="co"]`)+" === 1 && "+browser.Count(`#drawing path.edge`)+" === 2")
	p.Click(`#executions li[data-index="2"]`)
	p.Wait("the second drawn", browser.Count(`#drawing g.execution[data-index="2"]`)+" === 1")
	p.Click(`#show-forbidden`)
	p.Wait("the forbidden executions in two groups, the first drawn with its witness", browser.Count("#executions li[data-index]")+" === 3 && "+
		browser.Count("#executions li.group")+" === 2 && "+browser.Count(`#drawing g.execution[data-index="4"]`)+" === 1 && "+
		browser.Count(`#drawing g.witness[data-check="ext"] path.halo`)+" === 2")
	p.Click(`#show-allowed`)
	p.Wait("back to the allowed ones, the second still chosen", browser.Count("#executions li[data-index]")+" === 2 && "+
		browser.Count(`#drawing g.execution[data-index="2"]`)+" === 1 && "+browser.Count("#drawing g.witness")+" === 0")

	edit(t, watched, "broken")
	p.Wait("the model's error shown", `!document.getElementById("error").hidden && document.getElementById("error").textContent.includes("model.cat:3:7: unknown name foo")`)
	p.Wait("no execution left", browser.Count("#executions li[data-index]")+" === 0")
	edit(t, watched, "ok again")
	p.Wait("the executions back", browser.Count("#executions li[data-index]")+" === 2 && document.getElementById('error').hidden")
	p.Wait("the chosen execution and relations kept", browser.Count(`#drawing g.execution[data-index="2"]`)+" === 1 && "+
		browser.Count(`#drawing path.edge[data-rel="co"]`)+" === 1")

	p.Screenshot(*screenshot, "view.png")
}
