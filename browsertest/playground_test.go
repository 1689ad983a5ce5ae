package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/registry"
	"github.com/prerel/prerel/web"
)

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error
)

// playgroundSite returns the directory of the playground built from this
// module, once per test binary; TestMain removes it. It skips the test
// when there is no Chromium, before building anything.
func playgroundSite(t *testing.T) string {
	t.Helper()
	findChromium(t)
	siteOnce.Do(func() {
		siteDir, siteErr = os.MkdirTemp("", "prerel-playground-")
		if siteErr != nil {
			return
		}
		start := time.Now()
		siteErr = web.Build(context.Background(), siteDir, web.BuildOptions{ModuleDir: ".."})
		t.Logf("built the playground in %v", time.Since(start).Round(time.Millisecond))
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return siteDir
}

// The Chromium, the server and the fake registry the playground tests
// share, so that each test opens a tab rather than a browser and the page
// comes from the browser's cache; TestMain stops them.
var (
	shared       sync.Once
	sharedErr    error
	sharedTab    context.Context // the browser's first tab
	sharedURL    string          // the playground, served as prerel serve serves it
	sharedCloser []func()
)

// listed are the versions the fake registry lists for hashicorp/demo.
var listed = []string{"2.0.0", "2.1.0-rc.1", "2.1.0", "3.0.0-beta.1", hostile}

// startShared starts the shared browser, registry and server.
func startShared(t *testing.T) {
	t.Helper()
	exe := findChromium(t)
	site := playgroundSite(t)
	shared.Do(func() {
		reg := httptest.NewServer(fakeRegistry(listed))
		sharedCloser = append(sharedCloser, reg.Close)
		srv := httptest.NewServer(web.Handler(os.DirFS(site), web.Options{Versions: func() (registry.Source, error) {
			return &registry.Client{BaseURL: reg.URL, Timeout: 5 * time.Second, Retries: -1}, nil
		}}))
		sharedCloser = append(sharedCloser, srv.Close)
		sharedURL = srv.URL + "/"
		actx, acancel := chromedp.NewExecAllocator(context.Background(), browserOptions(exe)...)
		bctx, bcancel := chromedp.NewContext(actx)
		sharedCloser = append(sharedCloser, acancel, bcancel)
		sharedTab = bctx
		sharedErr = chromedp.Do(bctx)
	})
	if sharedErr != nil {
		t.Fatalf("starting %s: %v", exe, sharedErr)
	}
}

// stopShared stops what startShared started.
func stopShared() {
	for i := len(sharedCloser) - 1; i >= 0; i-- {
		sharedCloser[i]()
	}
}

// playgroundTab opens a new tab in the shared browser, closed when the
// test ends, and returns its context and the playground's URL. Any
// JavaScript dialog that opens in it fails the test.
func playgroundTab(t *testing.T) (context.Context, string) {
	t.Helper()
	startShared(t)
	tab, cancel := chromedp.NewContext(sharedTab)
	t.Cleanup(cancel)
	ctx, tcancel := context.WithTimeout(tab, testTimeout)
	t.Cleanup(tcancel)
	failOnDialogs(t, ctx, "a tab")
	return ctx, sharedURL
}

// settled is true once the page has started and has drawn and linked its
// last change.
const settled = `document.body.dataset.ready === 'true' && document.body.dataset.state === 'idle'`

// openPlayground opens u in the tab of ctx and waits until the page has
// drawn its view.
func openPlayground(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(u),
		chromedp.Poll[chromedp.Void](settled+` || document.body.dataset.state === 'failed'`, chromedp.WithPollingTimeout(30*time.Second)),
	)
	if err != nil {
		t.Fatalf("opening the playground at %s: %v", u, err)
	}
	if failed, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.dataset.state === 'failed'`)); failed {
		status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("status")))
		t.Fatalf("the playground did not start: %s", status)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// setField sets the value of the input or textarea sel, as pasting does,
// and tells the page.
func setField(ctx context.Context, sel, value string) error {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`(() => { const e = document.querySelector(%s); e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); })()`,
		jsString(sel), jsString(value))))
	return err
}

// typeConstraint empties the constraint field and types constraint into
// it, key by key, then waits until the page shows its verdicts.
func typeConstraint(t *testing.T, ctx context.Context, constraint string) {
	t.Helper()
	err := setField(ctx, "#constraint", "")
	if err == nil && constraint != "" {
		err = chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("constraint"), constraint))
	}
	if err == nil {
		err = waitFor(ctx, constraint)
	}
	if err != nil {
		t.Fatalf("typing the constraint %q: %v", constraint, err)
	}
}

// pasteConstraint sets the constraint field at once, as pasting does,
// then waits until the page shows its verdicts: on a large view, each
// key typed would start an answer.
func pasteConstraint(t *testing.T, ctx context.Context, constraint string) {
	t.Helper()
	err := setField(ctx, "#constraint", constraint)
	if err == nil {
		err = waitFor(ctx, constraint)
	}
	if err != nil {
		t.Fatalf("typing the constraint %q: %v", constraint, err)
	}
}

// waitFor waits until the page has drawn the verdicts of constraint and
// linked its view.
func waitFor(ctx context.Context, constraint string) error {
	return chromedp.Do(ctx, chromedp.Poll[chromedp.Void](
		`document.querySelector('#verdicts').dataset.constraint === `+jsString(constraint)+` && `+settled,
		chromedp.WithPollingTimeout(20*time.Second)))
}

// pageCell is one verdict of the page's table.
type pageCell struct {
	Policy  string `json:"policy"`
	Version string `json:"version"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// pageSelect is one row of the page's selections.
type pageSelect struct {
	Policy   string `json:"policy"`
	Selected string `json:"selected"`
	Found    bool   `json:"found"`
}

// pageView is what the page shows, for comparing two views.
type pageView struct {
	Constraint string       `json:"constraint"`
	Versions   string       `json:"versions"`
	History    string       `json:"history"`
	HCL        string       `json:"hcl"`
	Chosen     []string     `json:"chosen"`
	Summary    string       `json:"summary"`
	Cells      []pageCell   `json:"cells"`
	Selects    []pageSelect `json:"selects"`
	Marks      int          `json:"marks"`
	Explain    string       `json:"explain"`
	ExplainFor string       `json:"explain_for"`
}

const viewJS = `(() => ({
	constraint: document.querySelector('#constraint').value,
	versions: document.querySelector('#versions').value,
	history: document.querySelector('#history').value,
	hcl: document.querySelector('#hcl').value,
	chosen: Array.from(document.querySelectorAll('#policies input:checked')).map(b => b.value),
	summary: document.querySelector('#summary').textContent,
	cells: Array.from(document.querySelectorAll('#verdicts td.verdict')).map(td => ({policy: td.dataset.policy, version: td.dataset.version, verdict: td.dataset.verdict, reason: td.dataset.reason})),
	selects: Array.from(document.querySelectorAll('#selects tr[data-select-policy]')).map(tr => ({policy: tr.dataset.selectPolicy, selected: tr.dataset.selected, found: tr.dataset.found === 'true'})),
	marks: document.querySelectorAll('#timeline svg [data-verdict]').length,
	explain: document.querySelector('#explain').textContent,
	explain_for: (document.querySelector('#explain').dataset.policy || '') + ' ' + (document.querySelector('#explain').dataset.version || ''),
}))()`

func readView(t *testing.T, ctx context.Context) pageView {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](viewJS))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// writeVersions writes versions one a line to a new file for
// --versions-file and returns its path.
func writeVersions(t *testing.T, versions string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "versions.txt")
	if err := os.WriteFile(path, []byte(versions), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkAgainstCLI compares the page's view with prerel check --format
// json and prerel select --format json for the same constraint and
// versions (policyFiles given as --policy-file): every verdict, in the
// same order, each reason (but those of HCL policies, which name their
// file), and what each policy selects.
func checkAgainstCLI(t *testing.T, view pageView, constraint, versionsFile string, policyFiles ...string) {
	t.Helper()
	var extra []string
	for _, f := range policyFiles {
		extra = append(extra, "--policy-file", f)
	}
	var check report.CheckReport
	args := append(append([]string{"check", "--format", "json", "--versions-file", versionsFile}, extra...), "--", constraint)
	if err := json.Unmarshal(run(t, "", args...), &check); err != nil {
		t.Fatal(err)
	}
	var sel report.SelectReport
	args = append(append([]string{"select", "--format", "json", "--versions-file", versionsFile}, extra...), "--", constraint)
	if err := json.Unmarshal(run(t, "", args...), &sel); err != nil {
		t.Fatal(err)
	}
	// The page groups the columns (catalogue.Groups, each group's
	// policies in prerel check's order).
	order := columnOrder(check.Policies)
	var want []pageCell
	for _, row := range check.Versions {
		for _, j := range order {
			r := row.Results[j]
			want = append(want, pageCell{Policy: r.Policy, Version: row.Version, Verdict: r.Verdict.String(), Reason: r.Reason})
		}
	}
	if len(view.Cells) != len(want) {
		t.Errorf("constraint %q: the page shows %d verdicts, prerel check %d (%d policies x %d versions)",
			constraint, len(view.Cells), len(want), len(check.Policies), len(check.Versions))
	}
	for i := range min(len(view.Cells), len(want)) {
		got, w := view.Cells[i], want[i]
		if got.Policy != w.Policy || got.Version != w.Version || got.Verdict != w.Verdict {
			t.Errorf("constraint %q: cell %d: the page says %s %s %q, prerel check %s %s %q",
				constraint, i, got.Policy, got.Verdict, got.Version, w.Policy, w.Verdict, w.Version)
			continue
		}
		if got.Reason != w.Reason && !strings.Contains(w.Reason, ".hcl:") {
			t.Errorf("constraint %q: %s on %q: the page's reason %q, prerel check's %q", constraint, w.Policy, w.Version, got.Reason, w.Reason)
		}
	}
	if len(view.Selects) != len(sel.Policies) {
		t.Errorf("constraint %q: the page shows %d selections, prerel select %d", constraint, len(view.Selects), len(sel.Policies))
	}
	for i := range min(len(view.Selects), len(sel.Policies)) {
		got, w := view.Selects[i], sel.Policies[i]
		wantSel := ""
		if w.Selected != nil {
			wantSel = *w.Selected
		}
		if got.Policy != w.Policy || got.Found != (w.Selected != nil) || got.Selected != wantSel {
			t.Errorf("constraint %q: the page says %s selects %q (found %v), prerel select %s %q", constraint, got.Policy, got.Selected, got.Found, w.Policy, wantSel)
		}
	}
}

// columnOrder returns the indexes of policies in the order of the page's
// columns: by group of catalogue.Groups, each group in the order given.
func columnOrder(policies []string) []int {
	rank := func(name string) int { return slices.Index(catalogue.Groups(), catalogue.Group(name)) }
	order := make([]int, len(policies))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(policies[a]) - rank(policies[b]) })
	return order
}

// showAllRows asks the page of ctx for every version in the order given,
// rather than grouped, so that its table compares with prerel check's,
// and waits until it has drawn them.
func showAllRows(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`(() => { const b = document.querySelector('#all-rows'); if (!b.checked) b.click(); })()`))
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#verdicts').dataset.grouped === undefined && document.querySelector('#verdicts').dataset.rows === document.querySelector('#verdicts').dataset.versions && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err != nil {
		t.Fatalf("showing every version: %v", err)
	}
}

// playgroundCases are typed into the playground one after the other and
// compared with prerel check. A case with a history takes the versions
// of that corpus history, picked in the page, and its constraint is
// pasted.
var playgroundCases = []struct {
	constraint, versions, history string
	slow                          bool
}{
	{constraint: ">= 1.0.0-alpha, < 2.0.0, != 1.2.0", versions: "0.9.0\n1.0.0-alpha\n1.0.0-rc.1\n1.0.0\n1.1.0-beta.2\n1.2.0\n1.5.0\n2.0.0-beta\n2.0.0\n"},
	{constraint: "~> 1.2.0-rc1", versions: "1.2.0-beta\n1.2.0-rc1\n1.2.0-rc2\n1.2.0\n1.2.5\n1.3.0-rc1\nv1.2.1\n"},
	{constraint: "= 2.0.0-rc1", versions: "# pinned\n2.0.0-rc1\n2.0.0\n\n  2.0.0-rc2  \n"},
	{constraint: "~> 1", versions: "0.9.9\n1.0.0\n1.9.0-beta\n1.9.0\n2.0.0-alpha\n2.0.0\n1.0\nnot-a-version\n"},
	{constraint: "", versions: "1.0.0\n1.1.0-beta\n2.0.0\n"},
	{constraint: "~> 1.6.0-beta1", history: "terraform"},
	{constraint: ">= 5.0.0-beta1, < 6.0.0", history: "terraform-provider-google", slow: true},
}

// TestPlaygroundMatchesCheck types constraints into the playground and
// checks that every verdict and selection is prerel check's and prerel
// select's for the same inputs, starting with the page's default view.
func TestPlaygroundMatchesCheck(t *testing.T) {
	ctx, u := playgroundTab(t)
	start := time.Now()
	openPlayground(t, ctx, u)
	wall := time.Since(start)
	loadMS, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.prerelPlaygroundLoadMS`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the playground opened in %v (ready %.0f ms after navigation started)", wall.Round(time.Millisecond), loadMS)
	showAllRows(t, ctx)

	// The default view.
	view := readView(t, ctx)
	if view.Constraint == "" || view.Versions == "" || len(view.Cells) == 0 {
		t.Fatalf("the default view shows nothing: %+v", view)
	}
	checkAgainstCLI(t, view, view.Constraint, writeVersions(t, view.Versions))

	for _, tc := range playgroundCases {
		if tc.slow && (testing.Short() || raceEnabled) {
			continue
		}
		versionsFile := ""
		if tc.history != "" {
			versionsFile = filepath.Join("..", "testdata", "corpus", "versions", tc.history+".txt")
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
				`(() => { const s = document.querySelector('#history'); s.value = %s; s.dispatchEvent(new Event('change')); })()`, jsString(tc.history)))); err != nil {
				t.Fatal(err)
			}
		} else {
			versionsFile = writeVersions(t, tc.versions)
			if err := setField(ctx, "#versions", tc.versions); err != nil {
				t.Fatal(err)
			}
		}
		if tc.history != "" {
			pasteConstraint(t, ctx, tc.constraint)
		} else {
			typeConstraint(t, ctx, tc.constraint)
		}
		view := readView(t, ctx)
		if tc.history != "" && view.History != tc.history {
			t.Errorf("the history picked is %q, want %q", view.History, tc.history)
		}
		checkAgainstCLI(t, view, tc.constraint, versionsFile)
	}
}

// TestPlaygroundLinkRestoresView sets a view (versions from a history,
// a constraint, some policies, an explained cell; then custom versions
// and HCL long enough to be compressed), opens its link in a new tab and
// checks that the tab shows the same view.
func TestPlaygroundLinkRestoresView(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)

	t.Run("history, policies and explanation", func(t *testing.T) {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](
			`(() => { const s = document.querySelector('#history'); s.value = 'opentofu'; s.dispatchEvent(new Event('change')); })()`))
		if err != nil {
			t.Fatal(err)
		}
		typeConstraint(t, ctx, "~> 1.7.0-beta1")
		// Keep three policies.
		_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
			for (const b of document.querySelectorAll('#policies input')) {
				if (['cargo', 'linear', 'terraform-module'].includes(b.value) !== b.checked) b.click();
			}
		})()`))
		if err == nil {
			err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#verdicts thead th.policy').length === 3 && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
		}
		if err == nil {
			err = chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(`#verdicts td.verdict[data-policy="linear"][data-version="v1.7.0-rc1"]`)),
				chromedp.Poll[chromedp.Void](`document.querySelector('#explain').dataset.policy === 'linear' && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
			)
		}
		if err != nil {
			t.Fatal(err)
		}
		restoreInNewTab(t, ctx, "", func(v pageView) {
			if v.History != "opentofu" || v.Constraint != "~> 1.7.0-beta1" || len(v.Chosen) != 3 || v.ExplainFor != "linear v1.7.0-rc1" {
				t.Errorf("the view is not the one set: history %q, constraint %q, policies %q, explained %q", v.History, v.Constraint, v.Chosen, v.ExplainFor)
			}
		})
	})

	t.Run("compressed", func(t *testing.T) {
		var versions strings.Builder
		for i := range 180 {
			fmt.Fprintf(&versions, "%d.%d.0-rc.%d\n%d.%d.0\n", i/20, i%20, i%3, i/20, i%20)
		}
		if err := setField(ctx, "#versions", versions.String()); err != nil {
			t.Fatal(err)
		}
		hclText, err := os.ReadFile(filepath.Join("..", "testdata", "designs", "hcl-linear.hcl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := setField(ctx, "#hcl", string(hclText)); err != nil {
			t.Fatal(err)
		}
		// The pasted policy too.
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#policies input[value="hcl-linear"]') !== null && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
		if err == nil {
			_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#policies input[value="hcl-linear"]').click()`))
		}
		if err != nil {
			t.Fatal(err)
		}
		pasteConstraint(t, ctx, ">= 3.5.0-rc.1, < 7.0.0")
		restoreInNewTab(t, ctx, "#z=", func(v pageView) {
			if !slices.Contains(v.Chosen, "hcl-linear") {
				t.Errorf("the pasted policy is not chosen: %q", v.Chosen)
			}
		})
	})
}

// restoreInNewTab reads the view and link of the tab ctx, opens the link
// in a new tab and checks that it shows the same view; the link must
// contain want. check looks at the restored view further.
func restoreInNewTab(t *testing.T, ctx context.Context, want string, check func(pageView)) {
	t.Helper()
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Value(chromedp.ID("link")))
	if err != nil {
		t.Fatal(err)
	}
	if shown != link {
		t.Errorf("the page offers the link %q, but its address is %q", shown, link)
	}
	if !strings.Contains(link, want) {
		t.Errorf("the link %.120q does not contain %q", link, want)
	}
	before := readView(t, ctx)
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	failOnDialogs(t, tab, "a new tab")
	openPlayground(t, tab, link)
	after := readView(t, tab)
	if after.Constraint != before.Constraint || after.Versions != before.Versions || after.History != before.History || after.HCL != before.HCL {
		t.Errorf("the inputs differ: constraint %q versions %d bytes history %q hcl %d bytes; before: %q, %d bytes, %q, %d bytes",
			after.Constraint, len(after.Versions), after.History, len(after.HCL), before.Constraint, len(before.Versions), before.History, len(before.HCL))
	}
	if !slices.Equal(after.Chosen, before.Chosen) {
		t.Errorf("the chosen policies differ: %q, before %q", after.Chosen, before.Chosen)
	}
	if after.Summary != before.Summary || !slices.Equal(after.Cells, before.Cells) || !slices.Equal(after.Selects, before.Selects) || after.Marks != before.Marks {
		t.Errorf("the view differs: %q with %d cells, %d selections, %d marks; before: %q with %d, %d, %d",
			after.Summary, len(after.Cells), len(after.Selects), after.Marks, before.Summary, len(before.Cells), len(before.Selects), before.Marks)
	}
	if after.Explain != before.Explain || after.ExplainFor != before.ExplainFor {
		t.Errorf("the explanation differs: %q for %q; before %q for %q", after.Explain, after.ExplainFor, before.Explain, before.ExplainFor)
	}
	check(after)
}

// TestPlaygroundHostileText types constraints, versions and HCL that
// would run script if they became markup, and checks that the page shows
// them as text, also when its link is opened again. browser fails the
// test on any dialog.
func TestPlaygroundHostileText(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	versions := "1.0.0\n<script>alert(2)</script>\n" + hostile + "\n"
	hclText := `policy "evil" {
  rule  = "<img src=x onerror=alert(4)>"
  admit = version.text != "<script>alert(5)</script>"
}`
	if err := setField(ctx, "#versions", versions); err != nil {
		t.Fatal(err)
	}
	if err := setField(ctx, "#hcl", hclText); err != nil {
		t.Fatal(err)
	}
	pasteConstraint(t, ctx, hostile)
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	check := func(ctx context.Context) {
		t.Helper()
		err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)) // time for an injected handler to fire
		var text string
		var imgs, scripts int
		if err == nil {
			text, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.textContent + ' ' + document.querySelector('#constraint').value`))
		}
		if err == nil {
			imgs, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('img').length`))
		}
		if err == nil {
			scripts, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('script').length`))
		}
		if err != nil {
			t.Fatal(err)
		}
		if imgs != 0 || scripts != 1 {
			t.Errorf("the page has %d <img> and %d <script> elements (its own are 0 and 1): hostile text became markup", imgs, scripts)
		}
		for _, s := range []string{hostile, "<script>alert(2)</script>", "<img src=x onerror=alert(4)>", "The engine cannot parse this constraint"} {
			if !strings.Contains(text, s) {
				t.Errorf("the page's text lacks %q", s)
			}
		}
		v := readView(t, ctx)
		if !slices.ContainsFunc(v.Cells, func(c pageCell) bool { return c.Policy == "evil" && c.Version == "<script>alert(2)</script>" }) {
			t.Errorf("no verdict of the pasted policy on the hostile version")
		}
	}
	check(ctx)
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	failOnDialogs(t, tab, "a new tab")
	openPlayground(t, tab, link)
	check(tab)
}

// TestPlaygroundHCLMatchesPolicyFile pastes two policy files of
// testdata/designs and checks the verdicts against prerel check
// --policy-file with both.
func TestPlaygroundHCLMatchesPolicyFile(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	files := []string{
		filepath.Join("..", "testdata", "designs", "hcl-cargo.hcl"),
		filepath.Join("..", "testdata", "designs", "hcl-fallback.hcl"),
	}
	var text strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(data)
		text.WriteString("\n")
	}
	if err := setField(ctx, "#hcl", text.String()); err != nil {
		t.Fatal(err)
	}
	versions := "1.0.0-beta\n1.0.0\n1.1.0-rc.1\n1.1.0\n2.0.0-alpha.1\n2.0.0\n"
	if err := setField(ctx, "#versions", versions); err != nil {
		t.Fatal(err)
	}
	for _, constraint := range []string{">= 1.0.0-beta, < 2.0.0", "~> 1.1.0-rc.1", "!= 1.1.0"} {
		typeConstraint(t, ctx, constraint)
		view := readView(t, ctx)
		for _, name := range []string{"hcl-cargo", "hcl-fallback"} {
			if !slices.ContainsFunc(view.Cells, func(c pageCell) bool { return c.Policy == name }) {
				t.Fatalf("the page shows no verdict of %s", name)
			}
		}
		checkAgainstCLI(t, view, constraint, writeVersions(t, versions), files...)
	}
	// A mistake is shown, and the other policies still answer.
	if err := setField(ctx, "#hcl", `policy "broken" { admit = versoin.is_prerelease }`); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#hcl-errors').textContent.includes('pasted.hcl:1:') && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("the HCL error is not shown: %v", err)
	}
	if v := readView(t, ctx); len(v.Cells) == 0 {
		t.Error("no verdicts while the HCL has an error")
	}
}

// fakeRegistry serves the registry protocol for the provider
// hashicorp/demo, which has the given versions.
func fakeRegistry(versions []string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"providers.v1":"/v1/providers/"}`)
	})
	serve := func(versions []string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var body struct {
				Versions []map[string]string `json:"versions"`
			}
			for _, v := range versions {
				body.Versions = append(body.Versions, map[string]string{"version": v})
			}
			json.NewEncoder(w).Encode(body)
		}
	}
	mux.HandleFunc("/v1/providers/hashicorp/demo/versions", serve(versions))
	mux.HandleFunc("/v1/providers/hashicorp/bidi/versions", serve(bidiListed))
	mux.HandleFunc("/v1/providers/hashicorp/many/versions", serve(manyListed()))
	return mux
}

// bidiListed are the versions the fake registry lists for
// hashicorp/bidi: one whose U+202E would show 1.0.0-\u202eevil as
// 1.0.0-live, and control characters.
var bidiListed = []string{"1.0.0", "1.0.0-\u202eevil", "1.1.0-\u2066rc\u2069.1", "2.0.0\x1b[31m"}

// TestPlaygroundRegistryLookup looks versions up through the server, as
// prerel serve answers them, from a fake registry, and checks the
// verdicts on them; a static site offers no lookup and says so.
func TestPlaygroundRegistryLookup(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID("address")),
		chromedp.SendKeys(chromedp.ID("address"), "hashicorp/demo"),
		chromedp.Click(chromedp.ID("lookup-button")),
		chromedp.Poll[chromedp.Void](`document.querySelector('#lookup-status').dataset.state === 'done' && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("lookup-status")))
		t.Fatalf("looking hashicorp/demo up: %v (%s)", err, status)
	}
	typeConstraint(t, ctx, "~> 2.1.0-rc.1")
	view := readView(t, ctx)
	if view.Versions != strings.Join(listed, "\n") {
		t.Errorf("the versions box holds %q, want the registry's %q", view.Versions, listed)
	}
	checkAgainstCLI(t, view, "~> 2.1.0-rc.1", writeVersions(t, strings.Join(listed, "\n")))

	// An address the registry does not know: the error is shown.
	err = setField(ctx, "#address", "hashicorp/none")
	if err == nil {
		err = chromedp.Do(ctx,
			chromedp.Click(chromedp.ID("lookup-button")),
			chromedp.Poll[chromedp.Void](`document.querySelector('#lookup-status').dataset.state === 'failed'`, chromedp.WithPollingTimeout(10*time.Second)),
		)
	}
	if err != nil {
		t.Fatalf("looking hashicorp/none up: %v", err)
	}

	// A static host, which serves the directory under a path: no
	// lookup, and a note that says so.
	mux := http.NewServeMux()
	mux.Handle("/prerel/", http.StripPrefix("/prerel/", http.FileServer(http.Dir(playgroundSite(t)))))
	static := httptest.NewServer(mux)
	defer static.Close()
	openPlayground(t, ctx, static.URL+"/prerel/")
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#lookup').hidden`))
	var note string
	if err == nil {
		note, err = chromedp.Run(ctx, chromedp.Text(chromedp.ID("source-note")))
	}
	if err != nil {
		t.Fatal(err)
	}
	if !hidden || !strings.Contains(note, "corpus") {
		t.Errorf("a static site: the lookup is hidden: %v; the note: %q", hidden, note)
	}
	if v := readView(t, ctx); len(v.Cells) == 0 {
		t.Error("a static site shows no verdicts")
	}
}

// TestPlaygroundScreenshot writes testdata/screenshots/playground.png
// with -screenshots: the default view with one verdict explained.
func TestPlaygroundScreenshot(t *testing.T) {
	if !*screenshots {
		t.Skip("writes testdata/screenshots/playground.png with -screenshots")
	}
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#verdicts td.verdict[data-policy="linear"][data-version="1.2.0-rc.1"]`)),
		chromedp.Poll[chromedp.Void](`document.querySelector('#explain').dataset.policy === 'linear' && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, ctx, `body`, "playground.png")
}

// TestPlaygroundFromFile opens the built page as a file, where browsers
// run no worker: it says what to do instead.
func TestPlaygroundFromFile(t *testing.T) {
	ctx, _ := playgroundTab(t)
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(playgroundSite(t), web.IndexFile))}).String()
	err := chromedp.Do(ctx,
		chromedp.Navigate(u),
		chromedp.Poll[chromedp.Void](`document.body.dataset.state === 'failed'`, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		t.Fatalf("opening %s: %v", u, err)
	}
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("status")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status, `run "prerel serve"`) {
		t.Errorf("the page opened as a file says %q", status)
	}
}

// TestPlaygroundEscapesFormatCharacters looks up versions that hold a
// bidirectional override and control characters, and opens a link that
// holds them: the versions box, the tables and the explanation show them
// escaped, as prerel check prints them, and the page's text holds none.
func TestPlaygroundEscapesFormatCharacters(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID("address")),
		chromedp.SendKeys(chromedp.ID("address"), "hashicorp/bidi"),
		chromedp.Click(chromedp.ID("lookup-button")),
		chromedp.Poll[chromedp.Void](`document.querySelector('#lookup-status').dataset.state === 'done' && `+settled, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil {
		t.Fatalf("looking hashicorp/bidi up: %v", err)
	}
	var escaped []string
	for _, v := range bidiListed {
		escaped = append(escaped, printable.String(v))
	}
	check := func(ctx context.Context, how string) {
		t.Helper()
		err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#verdicts td.verdict[data-policy="strict"][data-version=`+jsString(escaped[1])+`]`)),
			chromedp.Poll[chromedp.Void](`document.querySelector('#explain').dataset.policy === 'strict' && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil {
			t.Fatalf("%s: explaining %s: %v", how, escaped[1], err)
		}
		v := readView(t, ctx)
		if v.Versions != strings.Join(escaped, "\n") {
			t.Errorf("%s: the versions box holds %q, want %q", how, v.Versions, escaped)
		}
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#verdicts td.version')).map(td => td.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(shown, escaped) {
			t.Errorf("%s: the table shows the versions %q, want %q", how, shown, escaped)
		}
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.textContent + Array.from(document.querySelectorAll('[title]')).map(e => e.title).join(' ')`))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range text {
			if r == '\u202e' || r == '\u2066' || r == '\u2069' || r == '\x1b' {
				t.Errorf("%s: the page's text holds %U", how, r)
				break
			}
		}
		if !strings.Contains(text, `1.0.0-\u202eevil`) {
			t.Errorf("%s: the page's text lacks the escaped version", how)
		}
	}
	check(ctx, "looked up")
	// HCL whose text reads otherwise than it runs is flagged.
	if err := setField(ctx, "#hcl", "policy \"sneaky\" {\n  admit = true /* \u202e } \u2066 */\n}\n"); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#notes').textContent.includes('first on line 2') && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		notes, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("notes")))
		t.Errorf("HCL with a bidirectional override: no note (%v): %q", err, notes)
	}
	if err := setField(ctx, "#hcl", ""); err != nil {
		t.Fatal(err)
	}
	// A link that holds the raw characters.
	link := u + "#" + url.Values{"c": {">= 1.0.0-a"}, "v": {strings.Join(bidiListed, "\n")}}.Encode()
	openPlayground(t, ctx, link)
	check(ctx, "from a link")
}

// TestPlaygroundWasmCompressed checks that prerel.wasm reaches the page
// gzip-compressed, and says how long the page took to load.
func TestPlaygroundWasmCompressed(t *testing.T) {
	ctx, u := playgroundTab(t)
	start := time.Now()
	openPlayground(t, ctx, u)
	wall := time.Since(start)
	type entry struct {
		Encoded float64 `json:"encoded"`
		Decoded float64 `json:"decoded"`
		LoadMS  float64 `json:"load"`
	}
	e, err := chromedp.Run(ctx, chromedp.Evaluate[entry](`(async () => {
		const r = await fetch('prerel.wasm', {cache: 'no-store'});
		await r.arrayBuffer();
		const all = performance.getEntriesByType('resource').filter(e => e.name.endsWith('/prerel.wasm'));
		const last = all[all.length - 1];
		return {encoded: last.encodedBodySize, decoded: last.decodedBodySize, load: window.prerelPlaygroundLoadMS};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the playground loaded in %v (ready %.0f ms after navigation started); prerel.wasm: %.1f MB sent for %.1f MB",
		wall.Round(time.Millisecond), e.LoadMS, e.Encoded/1e6, e.Decoded/1e6)
	if e.Decoded < 1e6 || e.Encoded > e.Decoded/3 {
		t.Errorf("prerel.wasm: %.0f bytes sent for %.0f: not compressed", e.Encoded, e.Decoded)
	}
}
