package view

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
	ctx := browser.New(t, 2*time.Minute)

	count := func(expr string) string { return fmt.Sprintf(`document.querySelectorAll(%q).length`, expr) }
	wait := func(what, cond string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	wait("two executions listed", count("#executions li[data-index]")+" === 2")
	wait("the first drawn, rf only", count(`#drawing g.execution[data-index="1"]`)+" === 1 && "+
		count(`#drawing path.edge`)+" === 1 && "+count(`#drawing path.edge[data-rel="rf"]`)+" === 1")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`input[value="co"]`))); err != nil {
		t.Fatal(err)
	}
	wait("co drawn once ticked", count(`#drawing path.edge[data-rel="co"]`)+" === 1 && "+count(`#drawing path.edge`)+" === 2")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#executions li[data-index="2"]`))); err != nil {
		t.Fatal(err)
	}
	wait("the second drawn", count(`#drawing g.execution[data-index="2"]`)+" === 1")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#show-forbidden`))); err != nil {
		t.Fatal(err)
	}
	wait("the forbidden executions in two groups, the first drawn with its witness", count("#executions li[data-index]")+" === 3 && "+
		count("#executions li.group")+" === 2 && "+count(`#drawing g.execution[data-index="4"]`)+" === 1 && "+
		count(`#drawing g.witness[data-check="ext"] path.halo`)+" === 2")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#show-allowed`))); err != nil {
		t.Fatal(err)
	}
	wait("back to the allowed ones, the second still chosen", count("#executions li[data-index]")+" === 2 && "+
		count(`#drawing g.execution[data-index="2"]`)+" === 1 && "+count("#drawing g.witness")+" === 0")

	edit(t, watched, "broken")
	wait("the model's error shown", `!document.getElementById("error").hidden && document.getElementById("error").textContent.includes("model.cat:3:7: unknown name foo")`)
	wait("no execution left", count("#executions li[data-index]")+" === 0")
	edit(t, watched, "ok again")
	wait("the executions back", count("#executions li[data-index]")+" === 2 && document.getElementById('error').hidden")
	wait("the chosen execution and relations kept", count(`#drawing g.execution[data-index="2"]`)+" === 1 && "+
		count(`#drawing path.edge[data-rel="co"]`)+" === 1")

	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := *screenshot
	if path == "" {
		path = filepath.Join(t.TempDir(), "view.png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
