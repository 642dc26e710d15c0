package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/purr-mcm/purr/internal/browser"
	"github.com/purr-mcm/purr/internal/family"
	"github.com/purr-mcm/purr/view"
)

var largeScreenshot = flag.String("large-screenshot", "", "save the screenshot of purr view on Writers-7 to `FILE` (docs/view-large.png is made so)")

// writersTest writes the Writers family's test of size n into a folder of
// the test's.
func writersTest(t *testing.T, n int) string {
	t.Helper()
	fam, _ := family.Lookup("Writers")
	path := filepath.Join(t.TempDir(), fmt.Sprintf("Writers-%d.litmus", n))
	if err := os.WriteFile(path, []byte(fam.Test(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startView runs purr view in a process of its own, in folder dir, so
// that its memory can be measured, and returns its address and process.
func startView(t *testing.T, dir string, args ...string) (string, *os.Process) {
	t.Helper()
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"view", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PURR_TEST_AS_PURR=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`on (http://\S+/)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("purr view said %q (%v), not where it serves", line, err)
	}
	return m[1], cmd.Process
}

// peakRSS is a process's peak resident memory, in bytes (Linux).
func peakRSS(t *testing.T, p *os.Process) int {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/%d/status", p.Pid)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return kb << 10
}

// panelsInView is the JavaScript condition that the list, the drawing and
// the side panels all lie inside the window, and the page does not scroll.
const panelsInView = `(() => {
  const inside = (e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1 && r.height > 0; };
  const panels = ["#executions", "#drawing", "#relations", "#sets", "#summary"].map(s => document.querySelector(s).closest("section, nav, article, ol, div#drawing"));
  return panels.every(inside) && document.scrollingElement.scrollHeight <= innerHeight + 1;
})()`

// TestViewLargeInBrowser opens Writers-7 (181,440 executions) in purr view
// in a headless Chromium: the first execution is drawn while the check
// enumerates, fitted to its pane; the list ends in 57 groups by final
// state, the filter and the other groupings narrow them, the keyboard
// steps through the executions, every panel stays in the window, and the
// server's peak memory stays under 200 MB.
func TestViewLargeInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is not short")
	}
	test := writersTest(t, 7)
	addr, server := startView(t, filepath.Dir(test), filepath.Base(test)) // the heading names the test only
	ctx := browser.New(t, 3*time.Minute)
	p := browser.Page{T: t, Ctx: ctx, Timeout: 90 * time.Second}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(addr)); err != nil {
		t.Fatal(err)
	}
	p.Wait("the first execution drawn", browser.Count(`#drawing g.execution[data-index="1"]`)+" === 1")
	t.Logf("the first drawing after %v", time.Since(start).Round(time.Millisecond))
	p.Wait("fitted to its pane", `document.querySelector("#drawing svg").getBoundingClientRect().width <= document.getElementById("drawing").clientWidth`)
	p.Wait("every panel in the window", panelsInView)
	p.Wait("all 181,440 executions counted, in 57 groups by final state", `document.getElementById("allowed-count").textContent === "(181,440)" && `+
		browser.Count("#executions > li.group")+" === 57")
	t.Logf("enumerated after %v", time.Since(start).Round(time.Millisecond))
	p.Wait("the first group open, listing its first executions, the others closed", browser.Count("#executions > li.group:first-child > ol:not([hidden]) > li[data-index]")+" === 100 && "+
		browser.Count("#executions > li.group > ol[hidden]")+" === 56")

	p.Click(`#executions > li.group:nth-child(2) > button`)
	p.Wait("a group opened", browser.Count("#executions > li.group:nth-child(2) > ol:not([hidden]) > li[data-index]")+" > 0")
	p.Click(`#executions > li.group:nth-child(2) > button`)
	p.Wait("and closed", browser.Count("#executions > li.group:nth-child(2) > ol[hidden]")+" === 1")

	key := func(k string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.dispatchEvent(new KeyboardEvent("keydown", {key: %q, bubbles: true}))`, k))); err != nil {
			t.Fatal(err)
		}
	}
	second := `document.querySelectorAll("#executions li[data-index]")[1].dataset.index`
	key("j")
	p.Wait("j draws the next execution", `document.querySelector("#drawing g.execution").dataset.index === `+second+` && document.querySelector("#executions li.selected").dataset.index === `+second)
	key("k")
	p.Wait("k the one before", `document.querySelector("#drawing g.execution").dataset.index === "1"`)
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`Number(document.querySelector("#drawing svg").dataset.scale)`))
	if err != nil || fit <= 0 || fit >= 1 {
		t.Fatalf("the drawing fitted at scale %v (%v), want under 1: Writers-7 is wider than its pane", fit, err)
	}
	key("+")
	p.Wait("+ zooms in", fmt.Sprintf(`Number(document.querySelector("#drawing svg").dataset.scale) > %v`, fit*1.2))
	key("0")
	p.Wait("0 fits again", `document.getElementById("zoom-level").textContent.endsWith("(fit)")`)

	set := func(sel, value, event string) {
		t.Helper()
		js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event(%q)); })()`, sel, value, event)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
			t.Fatal(err)
		}
	}
	set("#filter", "7:X0=7 7:X2=1", "input")
	p.Wait("the filter keeps the witnesses: one state", browser.Count("#executions > li.group")+" === 1 && "+
		`document.getElementById("count").textContent === "(2,520 kept by the filter)"`)
	set("#group-by", "rf", "change")
	p.Wait("grouped by rf: one rf", browser.Count("#executions > li.group")+" === 1 && "+
		`document.querySelector("#executions > li.group .label").textContent === "rf: b->j h->i"`)
	set("#filter", "", "input")
	p.Wait("by rf without the filter: the 57 rf that give the 57 states", browser.Count("#executions > li.group")+" === 57")
	set("#group-by", "cond", "change")
	p.Wait("by the condition: two groups", browser.Count("#executions > li.group")+" === 2 && "+
		`document.querySelector("#executions > li.group .n").textContent === "(2,520)"`)
	p.Wait("every panel still in the window", panelsInView)
	set("#group-by", "state", "change")
	set("#filter", "7:X0=7", "input")
	p.Wait("the filter keeps seven states", browser.Count("#executions > li.group")+" === 7 && "+browser.Count("#drawing g.execution")+" === 1")
	p.Screenshot(*largeScreenshot, "view-large.png")

	if rss := peakRSS(t, server); rss > 200<<20 {
		t.Errorf("purr view's peak memory: %d MB, want under 200 MB", rss>>20)
	} else {
		t.Logf("purr view's peak memory: %d MB", rss>>20)
	}
}

// TestViewCut says on the page that --max-executions cut the counts.
func TestViewCut(t *testing.T) {
	cfg := viewConfig("aarch64")
	cfg.MaxExecutions = 100
	st := fetchState(t, newViewServer(cfg, writersTest(t, 5), nil))
	if !strings.Contains(st.Cut, "stopped after 100 executions (--max-executions 100)") || st.Lists[view.ListAllowed].Count != 100 {
		t.Errorf("cut at 100: %+v", st)
	}
}

// BenchmarkViewFirstDrawing measures how long purr view takes, from a
// fresh server, to draw the first execution of Writers-7 (181,440
// executions): the page's first drawing, less the browser.
func BenchmarkViewFirstDrawing(b *testing.B) {
	fam, _ := family.Lookup("Writers")
	path := filepath.Join(b.TempDir(), "Writers-7.litmus")
	if err := os.WriteFile(path, []byte(fam.Test(7)), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s := newViewServer(viewConfig(""), path, nil)
		for serve(s, "/svg?x=1&rel=rf").Code != 200 {
			time.Sleep(time.Millisecond)
		}
		s.Close() // its check would go on enumerating
	}
}
