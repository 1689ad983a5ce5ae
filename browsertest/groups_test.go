package browsertest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// issueVersions are 182 versions shaped as the history of the issue
// that asked for groups: under "~> 1.2", 137 releases on which only
// terraform-module-versions dissents (it reads ~> as a tilde), given
// before the two prereleases a reader comes to see, then 30 releases of
// the next major. Ascending, as a registry lists them.
func issueVersions() []string {
	var vs []string
	for m := 1; m <= 9; m++ {
		vs = append(vs, fmt.Sprintf("0.%d.0", m))
	}
	vs = append(vs, "1.0.0", "1.1.0", "1.2.0", "1.2.1")
	for i := range 137 {
		vs = append(vs, fmt.Sprintf("1.%d.%d", 3+i/3, i%3))
	}
	vs = append(vs, "1.49.0-rc.1", "2.0.0-beta.1")
	for m := range 30 {
		vs = append(vs, fmt.Sprintf("2.%d.0", m))
	}
	return vs
}

// pageGroup is one group of versions as the page shows it.
type pageGroup struct {
	Kind     string   `json:"kind"`
	Size     int      `json:"size"`
	Open     bool     `json:"open"`
	Head     string   `json:"head"`
	Versions []string `json:"versions"`
	Labels   []string `json:"labels"`
}

const groupsJS = `Array.from(document.querySelectorAll('#verdicts tbody.vgroup')).map(b => ({
	kind: b.dataset.kind, size: Number(b.dataset.size), open: b.dataset.open === 'true',
	head: b.querySelector('tr.group-head td.group-says').textContent,
	versions: Array.from(b.querySelectorAll('tr[data-version]')).map(tr => tr.dataset.version),
	labels: Array.from(b.querySelectorAll('tr[data-version] td.version')).map(td => td.textContent),
}))`

// TestPlaygroundGroupsPrereleasesFirst pastes the 182 versions of
// issueVersions under "~> 1.2" and checks that the table groups them by
// the pattern of their verdicts, the two prerelease groups first and on
// the first screen, the 137 releases where only
// terraform-module-versions dissents folded into one row that opens and
// folds on request, that the table fits the screen at 1280 and 768 px,
// and that every version shows in the order given on request.
func TestPlaygroundGroupsPrereleasesFirst(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	versions := issueVersions()
	if len(versions) != 182 {
		t.Fatalf("%d versions, want 182", len(versions))
	}
	if err := setField(ctx, "#versions", strings.Join(versions, "\n")); err != nil {
		t.Fatal(err)
	}
	pasteConstraint(t, ctx, "~> 1.2")
	groups, err := chromedp.Run(ctx, chromedp.Evaluate[[]pageGroup](groupsJS))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		kind     string
		size     int
		versions []string
		says     string
	}
	wants := []want{
		{"prerelease", 1, []string{"1.49.0-rc.1"}, "1 prerelease: admitted by core-only, apparentlymart-exact, masterminds-pre, linear, linear-tight, ga-bound, fallback; rejected by today's rule and 13 others"},
		{"prerelease", 1, []string{"2.0.0-beta.1"}, "1 prerelease: admitted by apparentlymart-exact, masterminds-pre, linear, fallback; rejected by today's rule and 16 others"},
		// tfupdate replaces the constraint: it admits the releases out of
		// range that every other policy rejects.
		{"disagree", 41, []string{"0.1.0"}, "41 versions: only tfupdate dissents: it allows, the other 22 reject"},
		{"disagree", 137, []string{"1.3.0"}, "137 versions: only terraform-module-versions dissents: it rejects, the other 22 allow"},
		{"agree", 2, []string{"1.2.0", "1.2.1"}, "2 versions: every policy agrees: allow"},
	}
	if len(groups) != len(wants) {
		t.Fatalf("the table shows %d groups, want %d: %+v", len(groups), len(wants), groups)
	}
	for k, w := range wants {
		g := groups[k]
		if g.Kind != w.kind || g.Size != w.size || !slices.Equal(g.Versions, w.versions) || !strings.HasPrefix(g.Head, w.says) {
			t.Errorf("group %d: %s of %d, rows %q, heading %q; want %s of %d, rows %q, heading %q", k, g.Kind, g.Size, g.Versions, g.Head, w.kind, w.size, w.versions, w.says)
		}
	}
	if got := groups[3].Labels; !slices.Equal(got, []string{"1.3.0, …, 1.48.1"}) || groups[3].Open {
		t.Errorf("the group of 137 shows the rows %q (open %v), want one row %q", got, groups[3].Open, "1.3.0, …, 1.48.1")
	}
	note, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("rows-note")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(note, "182 versions in 5 groups") {
		t.Errorf("the note under the table says %q", note)
	}

	// The first screen: the answer, then the two prerelease groups.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`)); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.49.0-rc.1", "2.0.0-beta.1"} {
		r := box(t, ctx, `#verdicts tr[data-version=`+jsString(v)+`]`)
		if r.Top < 0 || r.Bottom > r.ViewH {
			t.Errorf("the row of %s is at %.0f-%.0f px, off the first screen of %.0f px", v, r.Top, r.Bottom, r.ViewH)
		}
	}
	screen, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const out = [];
		for (const e of document.querySelectorAll('#summary, #verdicts tr.group-head, #verdicts tbody tr[data-version]')) {
			const r = e.getBoundingClientRect();
			if (r.bottom <= window.innerHeight) out.push(e.matches('tr[data-version]') ? '    ' + e.querySelector('td.version').textContent : e.textContent);
		}
		return out.join('\n');
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the first screen:\n%s", screen)
	if *screenshots {
		saveScreenshot(t, ctx, "#verdicts-box", "playground-groups.png")
	}

	// The group of 137 opens, and folds again.
	toggle := func(open bool, rows int) {
		t.Helper()
		err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`#verdicts tbody.vgroup[data-group="3"] button.toggle`)),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelector('#verdicts tbody.vgroup[data-group="3"]').dataset.open === %q && document.querySelectorAll('#verdicts tbody.vgroup[data-group="3"] tr[data-version]').length === %d`, fmt.Sprint(open), rows),
				chromedp.WithPollingTimeout(10*time.Second)),
		)
		if err != nil {
			t.Fatalf("opening (%v) the group of 137: %v", open, err)
		}
	}
	toggle(true, 137)
	explainAndCheckInView(t, ctx, "terraform-module-versions", "1.48.1")
	toggle(false, 1)
	explainAndCheckInView(t, ctx, "terraform-module-versions", "1.3.0")

	for _, width := range []int64{1280, 768} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		fits, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const b = document.querySelector('#verdicts-box'); return b.scrollWidth <= b.clientWidth; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if r := box(t, ctx, "#verdicts-box"); !fits || r.Right > r.ViewW {
			t.Errorf("at %d px the grouped table is cut at the right or ends at %.0f px, past the screen", width, r.Right)
		}
	}

	showAllRows(t, ctx)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#verdicts tbody tr[data-version]')).map(tr => tr.dataset.version)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, versions) {
		t.Errorf("every version: the table shows %d rows, want the %d given in their order", len(got), len(versions))
	}
}

// TestPlaygroundGroupsLeftOut judges 32 versions with four pasted
// policies that give them 16 patterns of verdicts, and checks that the
// table shows 12 groups and says what it left out.
func TestPlaygroundGroupsLeftOut(t *testing.T) {
	ctx, u := playgroundTab(t)
	openPlayground(t, ctx, u)
	var hcl, versions strings.Builder
	for k, div := range []int{1, 2, 4, 8} {
		fmt.Fprintf(&hcl, "policy \"bit%d\" {\n  admit = floor(version.minor / %d) %% 2 == 1\n}\n", k, div)
	}
	for m := range 16 {
		fmt.Fprintf(&versions, "1.%d.0\n1.%d.1\n", m, m)
	}
	err := setField(ctx, "#hcl", hcl.String())
	if err == nil {
		err = setField(ctx, "#versions", versions.String())
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelector('#policies input[value="bit3"]') !== null && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
			for (const b of document.querySelectorAll('#policies input')) {
				if (b.value.startsWith('bit') !== b.checked) b.click();
			}
		})()`))
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.querySelectorAll('#verdicts thead th.policy').length === 4 && `+settled, chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err != nil {
		t.Fatal(err)
	}
	pasteConstraint(t, ctx, ">= 1.0.0")
	groups, err := chromedp.Run(ctx, chromedp.Evaluate[[]pageGroup](groupsJS))
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 12 {
		t.Errorf("the table shows %d groups, want 12", len(groups))
	}
	if len(groups) > 0 && (groups[0].Kind != "disagree" || !slices.Equal(groups[0].Versions, []string{"1.1.0", "1.1.1"}) || !strings.HasPrefix(groups[0].Head, "2 versions: only bit0 dissents: it allows, the other 3 reject")) {
		t.Errorf("the first group is %+v", groups[0])
	}
	note, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("rows-note")))
	if err != nil {
		t.Fatal(err)
	}
	if want := `32 versions in 16 groups`; !strings.HasPrefix(note, want) {
		t.Errorf("the note under the table says %q, want it to begin %q", note, want)
	}
	if want := `4 more groups (8 versions; the policies disagree on 2 of the groups) not shown: "Show every version" lists them.`; !strings.HasSuffix(note, want) {
		t.Errorf("the note under the table says %q, want it to end %q", note, want)
	}
}
