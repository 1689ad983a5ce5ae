package browsertest

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/prerel/prerel/web"
	"github.com/prerel/prerel/web/playground"
)

// slowHCL is a policy that admits no version, after about 16,000 of the
// 20,000 steps of an evaluation's budget for each version: on the most
// versions the page judges, its evaluation takes tens of seconds, far
// past the time limit of TestPlaygroundStopsALongPolicy.
const slowHCL = `policy "slow" {
  admit = length([for p in setproduct(range(100), range(15)) : p[0] + p[1] + version.minor]) < 0
}
`

// TestPlaygroundStopsALongPolicy opens a view whose HCL policy runs far
// longer than the page's time limit, set to 3 s by the server
// (web.Options.CallTimeout) rather than the page's 15 s: the page stops
// its worker and says which policy ran too long, and the next
// evaluation, after a change, is answered by a new worker.
func TestPlaygroundStopsALongPolicy(t *testing.T) {
	const limit = 3 * time.Second
	ctx, _ := playgroundTab(t)
	srv := httptest.NewServer(web.Handler(os.DirFS(playgroundSite(t)), web.Options{CallTimeout: limit}))
	defer srv.Close()

	versions := make([]string, playground.MaxVersions)
	for i := range versions {
		versions[i] = fmt.Sprintf("1.%d.0", i)
	}
	state := url.Values{"c": {">= 1.0"}, "v": {strings.Join(versions, "\n")}, "p": {"slow"}, "x": {slowHCL}}
	openPlayground(t, ctx, srv.URL+"/#"+state.Encode())
	view := readView(t, ctx)
	failed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#summary').classList.contains('error')`))
	if err != nil {
		t.Fatal(err)
	}
	want := `The HCL policy "slow" ran longer than 3 s: prerel was stopped. Simplify that policy, or leave it out under Policies.`
	if view.Summary != want || !failed || len(view.Cells) != 0 {
		t.Errorf("the page says %q (shown as an error: %v) with %d verdicts; want %q and none", view.Summary, failed, len(view.Cells), want)
	}
	saveScreenshot(t, ctx, `body`, "playground-timeout.png")

	// A change is answered, by a new worker that reads the policy again.
	if err := setField(ctx, "#versions", "1.0.0\n2.0.0-beta\n"); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`document.querySelectorAll('#verdicts td.verdict').length === 2 && `+settled, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the page does not answer after stopping its worker: %v (it says %q)", err, readView(t, ctx).Summary)
	}
	view = readView(t, ctx)
	for _, c := range view.Cells {
		if c.Policy != "slow" || c.Verdict != "reject" {
			t.Errorf("after the worker was stopped: %s says %s on %s, want slow reject", c.Policy, c.Verdict, c.Version)
		}
	}
	if strings.Contains(view.Summary, "stopped") {
		t.Errorf("the summary still says %q", view.Summary)
	}
}
