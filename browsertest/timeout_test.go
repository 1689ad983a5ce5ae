package browsertest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/web"
	"github.com/prerel/prerel/web/playground"
)

// slowHCL is a policy that admits no version, after most of the 20,000
// steps of an evaluation's budget for each version (a product of 1,050
// pairs: 1,125 go over it): on the most versions the page judges, its
// evaluation takes tens of seconds, far past the time limit of
// TestPlaygroundStopsALongPolicy.
const slowHCL = `policy "slow" {
  admit = length([for p in setproduct(range(70), range(15)) : p[0] + p[1] + version.minor]) < 0
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
	// The Policies list still offers the policy, chosen and marked.
	checkPolicyList(t, readPolicyList(t, ctx), []string{"slow"}, []string{"slow"}, "slow")

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

// quickHCL is a policy that answers at once, next to slowHCL.
const quickHCL = `policy "quick" {
  admit = !version.is_prerelease
}
`

// fragileHCL is a policy that fails on every version as it runs: a
// release has no prerelease identifier to index, and a prerelease's is
// not a number.
const fragileHCL = `policy "fragile" {
  admit = tonumber(version.prerelease[0]) > 0
}
`

// TestPlaygroundLeavesOutAStoppedPolicy follows the advice of the page
// that stopped an HCL policy: under Policies, which still lists the
// pasted policies, the stopped one marked, the user unchecks it, and the
// page answers with the others.
func TestPlaygroundLeavesOutAStoppedPolicy(t *testing.T) {
	ctx, _ := playgroundTab(t)
	srv := httptest.NewServer(web.Handler(os.DirFS(playgroundSite(t)), web.Options{CallTimeout: 3 * time.Second}))
	defer srv.Close()

	// slow takes many times the limit on these versions; quick and
	// strict a small part of it.
	versions := make([]string, 2000)
	for i := range versions {
		versions[i] = fmt.Sprintf("1.%d.0", i)
	}
	state := url.Values{"c": {">= 1.0"}, "v": {strings.Join(versions, "\n")}, "p": {"strict,quick,slow"}, "x": {quickHCL + slowHCL}}
	openPlayground(t, ctx, srv.URL+"/#"+state.Encode())
	if v := readView(t, ctx); !strings.HasPrefix(v.Summary, `The HCL policy "slow" ran longer than 3 s`) {
		t.Fatalf("the page says %q, want that slow was stopped", v.Summary)
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#policies-box > summary`))); err != nil {
		t.Fatal(err)
	}
	checkPolicyList(t, readPolicyList(t, ctx), []string{"quick", "slow"}, []string{"strict", "quick", "slow"}, "slow")
	// Scrolled, as a user would, to the pasted policies at its end.
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(`#policies input[value="slow"]`))); err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, ctx, `body`, "playground-timeout.png")

	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#policies input[value="slow"]`)),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#verdicts thead th.policy').length > 0 && `+settled, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the page does not answer once slow is left out: %v (it says %q)", err, readView(t, ctx).Summary)
	}
	view := readView(t, ctx)
	var columns []string
	for _, c := range view.Cells {
		if !slices.Contains(columns, c.Policy) {
			columns = append(columns, c.Policy)
		}
	}
	judged, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#verdicts').dataset.versions`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(columns, []string{"strict", "quick"}) || judged != "2000" || strings.Contains(view.Summary, "stopped") {
		t.Errorf("with slow left out, the page shows the verdicts of %q on %s versions and says %q; want strict and quick on 2000", columns, judged, view.Summary)
	}
	checkPolicyList(t, readPolicyList(t, ctx), []string{"quick", "slow"}, []string{"strict", "quick"}, "")
}

// TestPlaygroundListsPoliciesOnFailures checks the Policies list through
// the other ways an evaluation goes wrong: an HCL policy that fails as
// it runs is listed and says invalid; an evaluation refused (too many
// versions) and no policy chosen keep the pasted policies listed, to be
// chosen; HCL text that does not load lists prerel's policies alone,
// and the choice of a pasted policy comes back with the text fixed.
func TestPlaygroundListsPoliciesOnFailures(t *testing.T) {
	ctx, u := playgroundTab(t)
	hcl := quickHCL + fragileHCL
	state := url.Values{"c": {">= 1.0"}, "v": {"1.0.0\n1.1.0-beta\n"}, "p": {"strict,quick,fragile"}, "x": {hcl}}
	openPlayground(t, ctx, u+"#"+state.Encode())
	ours := []string{"quick", "fragile"}

	// An HCL policy that fails as it runs.
	view := readView(t, ctx)
	var fragile int
	for _, c := range view.Cells {
		if c.Policy == "fragile" {
			fragile++
			if c.Verdict != "invalid" || !strings.Contains(c.Reason, "pasted.hcl:5:") {
				t.Errorf("fragile says %s on %s (%q), want invalid with the place of its error", c.Verdict, c.Version, c.Reason)
			}
		}
	}
	if fragile != 2 {
		t.Errorf("the page shows %d verdicts of fragile, want 2", fragile)
	}
	checkPolicyList(t, readPolicyList(t, ctx), ours, []string{"strict", "quick", "fragile"}, "")

	// No policy chosen: every policy is still offered; one clicked answers.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#policies-box > summary`)), chromedp.Click(chromedp.ID("no-policies"))); err != nil {
		t.Fatal(err)
	}
	if err := waitSummary(ctx, `No policy is chosen`); err != nil {
		t.Fatal(err)
	}
	checkPolicyList(t, readPolicyList(t, ctx), ours, nil, "")
	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#policies input[value="quick"]`)),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#verdicts td.verdict[data-policy="quick"]').length === 2 && `+settled, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("choosing quick: %v (the page says %q)", err, readView(t, ctx).Summary)
	}
	checkPolicyList(t, readPolicyList(t, ctx), ours, []string{"quick"}, "")

	// An evaluation refused: the pasted policies are still offered.
	tooMany := strings.Repeat("1.0.0\n", 5001)
	if err := setField(ctx, "#versions", tooMany); err != nil {
		t.Fatal(err)
	}
	if err := waitSummary(ctx, `5001 versions are given, more than the 5000`); err != nil {
		t.Fatal(err)
	}
	checkPolicyList(t, readPolicyList(t, ctx), ours, []string{"quick"}, "")
	if err := setField(ctx, "#versions", "1.0.0\n1.1.0-beta\n"); err != nil {
		t.Fatal(err)
	}

	// HCL that does not load: prerel's policies alone, the error shown;
	// fixed, quick is back and chosen.
	if err := setField(ctx, "#hcl", quickHCL+`policy "broken" { admit = versoin.is_prerelease }`); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#hcl-errors').textContent.includes('pasted.hcl:4:') && `+settled, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("the HCL error is not shown: %v", err)
	}
	checkPolicyList(t, readPolicyList(t, ctx), nil, nil, "")
	if err := setField(ctx, "#hcl", hcl); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#verdicts td.verdict[data-policy="quick"]').length === 2 && `+settled, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		t.Fatalf("quick does not answer once the HCL text is fixed: %v (the page says %q)", err, readView(t, ctx).Summary)
	}
	checkPolicyList(t, readPolicyList(t, ctx), ours, []string{"quick"}, "")
}

// waitSummary waits until the page's summary, shown as an error, holds
// text and the page has settled.
func waitSummary(ctx context.Context, text string) error {
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`document.querySelector('#summary').classList.contains('error') && document.querySelector('#summary').textContent.includes(`+jsString(text)+`) && `+settled,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		summary, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("summary")))
		return fmt.Errorf("waiting for the page to say %q: %v (it says %q)", text, err, summary)
	}
	return nil
}

// policyList is what the Policies list shows.
type policyList struct {
	// Labels are the labels of the checkboxes, in order, but for their
	// rules.
	Labels []string `json:"labels"`
	// Chosen are the names of the checked boxes, in order.
	Chosen []string `json:"chosen"`
	// Count is the count next to "Policies:".
	Count string `json:"count"`
	// Stopped are the names of the policies marked as stopped.
	Stopped []string `json:"stopped"`
}

const policyListJS = `(() => {
	const labels = Array.from(document.querySelectorAll('#policies label'));
	return {
		labels: labels.map((l) => Array.from(l.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim()),
		chosen: labels.map((l) => l.querySelector('input')).filter((b) => b.checked).map((b) => b.value),
		count: document.querySelector('#policies-count').textContent,
		stopped: labels.filter((l) => l.querySelector('.stopped') !== null).map((l) => l.querySelector('input').value),
	};
})()`

func readPolicyList(t *testing.T, ctx context.Context) policyList {
	t.Helper()
	l, err := chromedp.Run(ctx, chromedp.Evaluate[policyList](policyListJS))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// checkPolicyList checks that the list offers prerel's policies, then
// the HCL policies ours, labelled as such; that chosen are checked and
// counted; and that stopped alone (none when "") is marked as stopped.
func checkPolicyList(t *testing.T, got policyList, ours, chosen []string, stopped string) {
	t.Helper()
	want := catalogue.New().Names()
	for _, name := range ours {
		want = append(want, name+" (HCL)")
	}
	wantStopped := []string{}
	if stopped != "" {
		wantStopped = append(wantStopped, stopped)
	}
	wantCount := fmt.Sprintf("%d of %d chosen", len(chosen), len(want))
	if !slices.Equal(got.Labels, want) || !slices.Equal(got.Chosen, chosen) || got.Count != wantCount || !slices.Equal(got.Stopped, wantStopped) {
		t.Errorf("the Policies list shows %q, %q chosen (%q), %q marked stopped;\nwant %q, %q chosen (%q), %q marked stopped",
			got.Labels, got.Chosen, got.Count, got.Stopped, want, chosen, wantCount, wantStopped)
	}
}
