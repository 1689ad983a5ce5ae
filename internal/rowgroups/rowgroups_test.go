package rowgroups_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/catalogue/cataloguetest"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/rowgroups"
	"github.com/prerel/prerel/report"
)

// rows builds the rows of a check report from lines written "VERSION a
// r i ...": a version, then one verdict per policy (a allow, r reject, i
// invalid).
func rows(lines ...string) []rowgroups.Row {
	var out []rowgroups.Row
	for _, line := range lines {
		f := strings.Fields(line)
		row := rowgroups.Row{Version: f[0]}
		for _, c := range f[1:] {
			v := map[string]engine.Verdict{"a": engine.Allow, "r": engine.Reject, "i": engine.Invalid}[c]
			row.Verdicts = append(row.Verdicts, v)
		}
		out = append(out, row)
	}
	return out
}

// brief is a group as the tests write it: kind, rows, prereleases and
// what it says.
type brief struct {
	kind rowgroups.Kind
	rows []int
	pre  int
	size string
	says string
}

func briefs(gs []rowgroups.Group) []brief {
	var out []brief
	for _, g := range gs {
		out = append(out, brief{g.Kind, g.Rows, g.Prereleases, g.Size, g.Says})
	}
	return out
}

func TestOf(t *testing.T) {
	four := []string{"p", "q", "t1", "t2"}
	isToday := func(p string) bool { return p == "t1" || p == "t2" }
	tests := []struct {
		name     string
		policies []string
		rows     []string
		today    func(string) bool
		order    []int
		want     []brief
	}{
		{
			name:     "no version",
			policies: four,
		},
		{
			name:     "every policy agrees",
			policies: four,
			rows:     []string{"1.0.0 a a a a", "1.1.0 a a a a"},
			want:     []brief{{rowgroups.Agree, []int{0, 1}, 0, "2 versions", "every policy agrees: allow"}},
		},
		{
			name:     "of the unanimous groups, allow, reject, then invalid",
			policies: four,
			rows:     []string{"0.1.0 r r r r", "x i i i i", "1.0.0 a a a a", "0.2.0 r r r r"},
			want: []brief{
				{rowgroups.Agree, []int{2}, 0, "1 version", "every policy agrees: allow"},
				{rowgroups.Agree, []int{0, 3}, 0, "2 versions", "every policy agrees: reject"},
				{rowgroups.Agree, []int{1}, 0, "1 version", "every policy agrees: invalid"},
			},
		},
		{
			name:     "one policy",
			policies: []string{"strict"},
			rows:     []string{"1.0.0 a", "2.0.0-rc.1 r", "1.1.0 a"},
			want: []brief{
				{rowgroups.Agree, []int{0, 2}, 0, "2 versions", "strict allows"},
				{rowgroups.Agree, []int{1}, 1, "1 prerelease", "strict rejects"},
			},
		},
		{
			// The shape of the issue: many releases where one policy
			// dissents, given before the two prereleases.
			name:     "prereleases first",
			policies: []string{"a", "b", "tmv", "t1", "t2"},
			today:    isToday,
			rows: []string{
				"1.2.0 a a a a a",
				"1.3.0 a a r a a",
				"1.4.0 a a r a a",
				"2.0.0 r r r r r",
				"1.5.0-rc.1 a r r r r",
				"2.0.0-beta.1 a a r r r",
			},
			want: []brief{
				{rowgroups.Prerelease, []int{4}, 1, "1 prerelease", "only a dissents: it allows, the other 4 reject"},
				{rowgroups.Prerelease, []int{5}, 1, "1 prerelease", "admitted by a, b; rejected by tmv and today's rule"},
				{rowgroups.Disagree, []int{1, 2}, 0, "2 versions", "only tmv dissents: it rejects, the other 4 allow"},
				{rowgroups.Agree, []int{0}, 0, "1 version", "every policy agrees: allow"},
				{rowgroups.Agree, []int{3}, 0, "1 version", "every policy agrees: reject"},
			},
		},
		{
			name:     "today's rule dissents",
			policies: four,
			today:    isToday,
			rows:     []string{"1.0.0 a a r a"},
			want:     []brief{{rowgroups.Disagree, []int{0}, 0, "1 version", "only t1 (today's rule) dissents: it rejects, the other 3 allow"}},
		},
		{
			name:     "today's rule split",
			policies: []string{"p", "q", "r", "s", "u", "t1", "t2"},
			today:    isToday,
			rows:     []string{"1.0.0-beta a r r r r a r"},
			want:     []brief{{rowgroups.Prerelease, []int{0}, 1, "1 prerelease", "admitted by t1 (today's rule), p; rejected by t2 (today's rule) and 4 others"}},
		},
		{
			name:     "a large side with today's rule",
			policies: []string{"p", "q", "r", "s", "u", "t1", "t2"},
			today:    isToday,
			rows:     []string{"2.0.0-beta a a r r r r r"},
			want:     []brief{{rowgroups.Prerelease, []int{0}, 1, "1 prerelease", "admitted by p, q; rejected by today's rule and 3 others"}},
		},
		{
			name:     "a large side without today's rule is counted",
			policies: []string{"p", "q", "r", "s", "u", "w"},
			rows:     []string{"1.0.0 a a r r r r"},
			want:     []brief{{rowgroups.Disagree, []int{0}, 0, "1 version", "admitted by p, q; rejected by the other 4"}},
		},
		{
			name:     "invalid only comes after allow against reject",
			policies: four,
			rows: []string{
				"v1.0.0-beta i r r r",
				"v1.0.0 i a a a",
				"v1.1.0 i a r a",
				"v1.0.0-rc.1 i a r r",
			},
			want: []brief{
				{rowgroups.Prerelease, []int{3}, 1, "1 prerelease", "admitted by q; rejected by t1, t2; invalid for p"},
				{rowgroups.Prerelease, []int{0}, 1, "1 prerelease", "only p dissents: it cannot judge them, the other 3 reject"},
				{rowgroups.Disagree, []int{2}, 0, "1 version", "admitted by q, t2; rejected by t1; invalid for p"},
				{rowgroups.Disagree, []int{1}, 0, "1 version", "only p dissents: it cannot judge them, the other 3 allow"},
			},
		},
		{
			name:     "the order names the policies as the columns come",
			policies: []string{"p", "q", "r", "s"},
			order:    []int{3, 2},
			rows:     []string{"1.0.0 a a r r"},
			want:     []brief{{rowgroups.Disagree, []int{0}, 0, "1 version", "admitted by p, q; rejected by s, r"}},
		},
		{
			name:     "a group mixing releases and prereleases",
			policies: four,
			rows:     []string{"1.0.0 a r a a", "1.0.1-rc.1 a r a a", "1.0.2 a r a a"},
			want:     []brief{{rowgroups.Prerelease, []int{0, 1, 2}, 1, "3 versions, 1 of them a prerelease", "only q dissents: it rejects, the other 3 allow"}},
		},
		{
			name:     "a short row counts as invalid",
			policies: []string{"p", "q"},
			rows:     []string{"1.0.0 a"},
			want:     []brief{{rowgroups.Disagree, []int{0}, 0, "1 version", "admitted by p; invalid for q"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := briefs(rowgroups.Of(tt.policies, rows(tt.rows...), rowgroups.Options{Today: tt.today, Order: tt.order}))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", show(got), show(tt.want))
			}
		})
	}
}

func show(bs []brief) string {
	var b strings.Builder
	for _, x := range bs {
		fmt.Fprintf(&b, "  %s %v pre=%d %q: %q\n", x.kind, x.rows, x.pre, x.size, x.says)
	}
	return b.String()
}

// TestOfCatalogue groups the verdicts of some of prerel's policies on "~> 1.2"
// over releases of 1.x and two prereleases, and checks that the two
// prereleases come first and today's rule is named as catalogue.Today
// marks it.
func TestOfCatalogue(t *testing.T) {
	// Today's rule and the policies that set the versions apart: a rule
	// added to the catalogue changes nothing here.
	reg := cataloguetest.Registry("terraform-module", "strict", "linear", "ga-bound", "masterminds-pre", "terraform-module-versions", "tfupdate")
	versions := []string{"1.1.0", "1.2.0"}
	for m := 3; m < 40; m++ {
		versions = append(versions, fmt.Sprintf("1.%d.0", m))
	}
	versions = append(versions, "1.40.0-rc.1", "2.0.0-beta.1", "2.0.0")
	rep := report.NewCheckReport(reg.All(), "~> 1.2", versions)
	gs := rep.Groups(rowgroups.Options{Today: func(p string) bool { return catalogue.Today(p) != "" }})
	var first []string
	for _, g := range gs[:2] {
		if g.Kind != rowgroups.Prerelease || len(g.Rows) != 1 {
			t.Errorf("group %+v: want a prerelease group of one version first", g)
			continue
		}
		first = append(first, rep.Versions[g.Rows[0]].Version)
		if !strings.Contains(g.Says, "rejected by today's rule") {
			t.Errorf("%s: %q, want today's rule to reject it", rep.Versions[g.Rows[0]].Version, g.Says)
		}
	}
	if !slices.Equal(first, []string{"1.40.0-rc.1", "2.0.0-beta.1"}) {
		t.Errorf("the groups begin with %q, want the two prereleases", first)
	}
	for _, g := range gs {
		t.Logf("%s, %s: %s", g.Kind, g.Size, g.Says)
	}
	// Then the releases the policies disagree on: 1.1.0 and 2.0.0, which
	// only tfupdate admits (it replaces the constraint), and the 37
	// releases 1.3.0 to 1.39.0, which only terraform-module-versions
	// rejects (its ~> is a tilde).
	for i, w := range []struct {
		rows int
		says string
	}{
		{2, "only tfupdate dissents: it allows, the other 6 reject"},
		{37, "only terraform-module-versions dissents: it rejects, the other 6 allow"},
	} {
		if g := gs[2+i]; g.Kind != rowgroups.Disagree || len(g.Rows) != w.rows || g.Says != w.says {
			t.Errorf("group %d: %s, %d versions, %q; want %d versions where %s", 2+i, g.Kind, len(g.Rows), g.Says, w.rows, w.says)
		}
	}
	for _, g := range gs[4:] {
		if g.Kind != rowgroups.Agree {
			t.Errorf("after the groups the policies disagree on: %+v", g)
		}
	}
	n := 0
	for _, g := range gs {
		n += len(g.Rows)
	}
	if n != len(versions) {
		t.Errorf("the groups hold %d versions, want %d", n, len(versions))
	}
}

func TestIsPrerelease(t *testing.T) {
	for v, want := range map[string]bool{
		"1.0.0": false, "1.0.0-rc.1": true, "v2.0.0-beta": true, "1.2.3.4": false, "1.15.9.0-beta1": true,
		"1.0-beta": true, "1.0.0+build-1": false, "not-a-version": false, "": false, "1.0": false,
	} {
		if got := rowgroups.IsPrerelease(v); got != want {
			t.Errorf("IsPrerelease(%q) = %v, want %v", v, got, want)
		}
	}
}
