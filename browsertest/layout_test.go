package browsertest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/prerel/prerel/catalogue"
)

// manyListed are the versions the fake registry lists for
// hashicorp/many: 239 releases, then the 2 prereleases on which the
// policies disagree under >= 1.0.0, last.
func manyListed() []string {
	var vs []string
	for i := range 239 {
		vs = append(vs, fmt.Sprintf("1.%d.%d", i/10, i%10))
	}
	return append(vs, "2.0.0-rc.1", "2.1.0-beta.1")
}

// rect is an element's box in the viewport, and the viewport's size.
type rect struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	ViewW  float64 `json:"vw"`
	ViewH  float64 `json:"vh"`
}

// box returns the box of the element sel.
func box(t *testing.T, ctx context.Context, sel string) rect {
	t.Helper()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[rect](`(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect();
		return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, vw: document.documentElement.clientWidth, vh: window.innerHeight}; })()`))
	if err != nil {
		t.Fatalf("the box of %s: %v", sel, err)
	}
	return r
}

// inView reports whether r shows in the viewport: its top within it.
func (r rect) inView() bool { return r.Top >= 0 && r.Top < r.ViewH && r.Height > 0 }

// explainAndCheckInView clicks the verdict of policy on version and checks
// that its explanation shows in the viewport without scrolling.
func explainAndCheckInView(t *testing.T, ctx context.Context, policy, version string) {
	t.Helper()
	sel := `#verdicts td.verdict[data-policy=` + jsString(policy) + `][data-version=` + jsString(version) + `]`
	err := chromedp.Do(ctx,
		chromedp.ScrollIntoView(chromedp.CSS(sel)),
		chromedp.Click(chromedp.CSS(sel)),
		chromedp.Poll[chromedp.Void](`document.querySelector('#explain').dataset.policy === `+jsString(policy)+` && document.querySelector('#explain').dataset.version === `+jsString(version)+` && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		t.Fatalf("explaining %s on %s: %v", policy, version, err)
	}
	if r := box(t, ctx, "#explain"); !r.inView() {
		t.Errorf("after a click on %s %s, the explanation is at %.0f px, outside the %.0f px viewport", policy, version, r.Top, r.ViewH)
	}
}

// TestPlaygroundDisagreeFirst looks up 241 versions, the 2 the policies
// disagree on last, and checks that the table groups them with those 2
// first, that it stays within the screen, that every version shows on
// request, and that a verdict's explanation shows where the reader
// looks.
func TestPlaygroundDisagreeFirst(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID("address")),
		chromedp.SendKeys(chromedp.ID("address"), "hashicorp/many"),
		chromedp.Click(chromedp.ID("lookup-button")),
		chromedp.Poll[chromedp.Void](`document.querySelector('#lookup-status').dataset.state === 'done' && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		t.Fatalf("looking hashicorp/many up: %v", err)
	}
	pasteConstraint(t, ctx, ">= 1.0.0")
	type row struct {
		Version  string `json:"version"`
		Disagree bool   `json:"disagree"`
		Range    bool   `json:"range"`
	}
	rowsJS := `Array.from(document.querySelectorAll('#verdicts tbody tr[data-version]')).map(tr => ({version: tr.dataset.version, disagree: tr.dataset.disagree === 'true', range: tr.dataset.range === 'true'}))`
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]row](rowsJS))
	if err != nil {
		t.Fatal(err)
	}
	listed := manyListed()
	// The two prereleases, then one row for the 239 releases every
	// policy allows.
	want := []row{{"2.0.0-rc.1", true, false}, {"2.1.0-beta.1", true, false}, {listed[0], false, true}}
	if !slices.Equal(rows, want) {
		t.Errorf("the table shows the rows %+v; want %+v: the 2 the policies disagree on first, then one for the versions they agree on", rows, want)
	}
	if r := box(t, ctx, "#verdicts-box"); r.Height > r.ViewH {
		t.Errorf("the verdict table is %.0f px high, more than the %.0f px screen", r.Height, r.ViewH)
	}
	explainAndCheckInView(t, ctx, catalogue.TodayPolicies()[0], "2.1.0-beta.1")
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.ID("all-rows"))); err != nil {
		t.Fatal(err)
	}
	showAllRows(t, ctx)
	rows, err = chromedp.Run(ctx, chromedp.Evaluate[[]row](rowsJS))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Version)
	}
	if !slices.Equal(got, listed) {
		t.Errorf("every version: the table shows %d rows, want the %d listed in their order", len(got), len(listed))
	}
	if r := box(t, ctx, "#verdicts-box"); r.Height > r.ViewH {
		t.Errorf("every version: the verdict table is %.0f px high, more than the %.0f px screen", r.Height, r.ViewH)
	}
	// The last row, at the bottom of the table's own scroll.
	explainAndCheckInView(t, ctx, "linear", "2.1.0-beta.1")
	explainAndCheckInView(t, ctx, catalogue.TodayPolicies()[0], listed[0])
}

// TestPlaygroundColumns opens the playground at 1280 and 768 px wide,
// with a pasted HCL policy, and checks that the verdict table fits the
// screen, that its columns are grouped as package catalogue groups the
// policies, and that today's rule is marked and on screen. With
// -screenshots it writes playground-1280.png and playground-768.png.
func TestPlaygroundColumns(t *testing.T) {
	ctx, u := playgroundTab(t)
	for _, width := range []int64{1280, 768} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
				t.Fatal(err)
			}
			openPlayground(t, ctx, u)
			if err := setField(ctx, "#hcl", `policy "mine" { admit = !version.is_prerelease }`); err != nil {
				t.Fatal(err)
			}
			err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#verdicts th[data-policy="mine"]') !== null && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
			if err != nil {
				t.Fatal(err)
			}
			type head struct {
				Policy string `json:"policy"`
				Group  string `json:"group"`
				Today  bool   `json:"today"`
			}
			heads, err := chromedp.Run(ctx, chromedp.Evaluate[[]head](`Array.from(document.querySelectorAll('#verdicts th.policy')).map(th => ({policy: th.dataset.policy, group: th.dataset.group, today: th.classList.contains('today')}))`))
			if err != nil {
				t.Fatal(err)
			}
			groups, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#verdicts th.group')).map(th => th.dataset.group)`))
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			today := 0
			for _, h := range heads {
				want := catalogue.Group(h.Policy)
				if h.Group != want {
					t.Errorf("%s is in group %q, catalogue.Group says %q", h.Policy, h.Group, want)
				}
				if len(seen) == 0 || seen[len(seen)-1] != h.Group {
					if slices.Contains(seen, h.Group) {
						t.Errorf("the columns of group %q are not together", h.Group)
					}
					seen = append(seen, h.Group)
				}
				if h.Today {
					today++
					if catalogue.Today(h.Policy) == "" {
						t.Errorf("%s is marked today's rule, want one of %q", h.Policy, catalogue.TodayPolicies())
					}
				}
			}
			if today != len(catalogue.TodayPolicies()) {
				t.Errorf("%d columns are marked today's rule, want %d", today, len(catalogue.TodayPolicies()))
			}
			if !slices.Equal(groups, seen) || !slices.IsSortedFunc(seen, func(a, b string) int {
				return slices.Index(catalogue.Groups(), a) - slices.Index(catalogue.Groups(), b)
			}) || seen[len(seen)-1] != catalogue.GroupOwn {
				t.Errorf("the group headings are %q over columns in groups %q; want catalogue.Groups' order, the pasted policy's last", groups, seen)
			}
			fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.querySelector('#verdicts-box'); return b.scrollWidth <= b.clientWidth; })()`))
			if err != nil {
				t.Fatal(err)
			}
			if !fits {
				t.Errorf("at %d px the verdict table is cut at the right", width)
			}
			if r := box(t, ctx, "#verdicts-box"); r.Right > r.ViewW {
				t.Errorf("at %d px the verdict table ends at %.0f px, past the screen", width, r.Right)
			}
			if r := box(t, ctx, `#verdicts th.today`); r.Left < 0 || r.Right > r.ViewW {
				t.Errorf("at %d px today's rule is at %.0f-%.0f px, off the screen", width, r.Left, r.Right)
			}
			explainAndCheckInView(t, ctx, catalogue.TodayPolicies()[0], "1.2.0-rc.1")
			if *screenshots {
				if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.ID("results"))); err != nil {
					t.Fatal(err)
				}
				saveScreenshot(t, ctx, "#results", fmt.Sprintf("playground-%d.png", width))
			}
		})
	}
}
