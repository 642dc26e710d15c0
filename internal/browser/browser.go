package browser

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Path finds Chromium: $PURR_CHROMIUM, then the usual names on $PATH.
func Path() (string, bool) {
	if p := os.Getenv("PURR_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// New starts a headless Chromium with a fresh profile and returns a
// context for chromedp's actions, cancelled with the test; the whole test
// gets at most timeout. It skips the test when no Chromium is found.
func New(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	path, ok := Path()
	if !ok {
		t.Skip("no Chromium found (install Debian's chromium, or set PURR_CHROMIUM to its path): the browser test is skipped")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelTimeout()
	})
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// Open starts a browser as New does, shows url in it and returns its
// page, whose waits last at most wait.
func Open(t *testing.T, url string, timeout, wait time.Duration) Page {
	t.Helper()
	ctx := New(t, timeout)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return Page{T: t, Ctx: ctx, Timeout: wait}
}

// Count is the JavaScript expression that counts the elements a CSS
// selector selects, for Page.Wait's conditions.
func Count(sel string) string { return fmt.Sprintf(`document.querySelectorAll(%q).length`, sel) }

// Page drives the page of a browser context in a test.
type Page struct {
	T       *testing.T
	Ctx     context.Context
	Timeout time.Duration // how long Wait waits for a condition
}

// Wait waits until the JavaScript condition holds; the test fails with
// what when it does not in time.
func (p Page) Wait(what, cond string) {
	p.T.Helper()
	if _, err := chromedp.Run(p.Ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(p.Timeout))); err != nil {
		p.T.Fatalf("%s: %v", what, err)
	}
}

// Click clicks the element a CSS selector selects.
func (p Page) Click(sel string) {
	p.T.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.T.Fatalf("click %s: %v", sel, err)
	}
}

// Screenshot saves the whole page as a PNG at path, or under name in a
// temporary folder when path is "".
func (p Page) Screenshot(path, name string) {
	p.T.Helper()
	png, err := chromedp.Run(p.Ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.T.Fatal(err)
	}
	if path == "" {
		path = filepath.Join(p.T.TempDir(), name)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.T.Fatal(err)
	}
	p.T.Logf("screenshot: %s", path)
}
