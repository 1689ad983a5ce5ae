package report

import (
	"fmt"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/rowgroups"
)

// checkMaxGroups is how many groups of versions an HTML check report
// shows unless Options.ShowAll.
const checkMaxGroups = 20

// groupFew is how many versions a group may hold and still have them all
// named in its row; a larger group names its first and last and lists
// every one under a fold.
const groupFew = 3

// VersionGroup is one row of a page's table of groups of versions: the
// versions every policy judges alike (package internal/rowgroups).
type VersionGroup struct {
	// Kind is "prerelease", "disagree" or "agree": why the group comes
	// where it does, and the row's class.
	Kind string
	// Size says how many versions the group holds: "137 versions".
	Size string
	// Named are the versions the row names: every one of a small group,
	// else the first and the last, which the row shows with "…" between
	// them.
	Named []string
	// All are every version of the group when Named leaves some out,
	// listed under a fold; nil otherwise.
	All []string
	// Says is, in words, what sets the group apart.
	Says string
}

// checkGroups groups the versions of rep by the pattern of their
// verdicts, at most checkMaxGroups of them unless opts.ShowAll, and
// returns the page's rows and a note saying what the groups are and what
// was left out.
func checkGroups(rep CheckReport, opts Options) ([]VersionGroup, string) {
	var today func(string) bool
	if opts.Today != nil {
		today = func(p string) bool { return opts.Today(p) != "" }
	}
	gs := rep.Groups(rowgroups.Options{Today: today})
	if len(gs) == 0 {
		return nil, ""
	}
	shown := gs
	if !opts.ShowAll && len(gs) > checkMaxGroups {
		shown = gs[:checkMaxGroups]
	}
	out := make([]VersionGroup, len(shown))
	for k, g := range shown {
		vs := make([]string, len(g.Rows))
		for i, r := range g.Rows {
			vs[i] = printable.String(rep.Versions[r].Version)
		}
		out[k] = VersionGroup{Kind: string(g.Kind), Size: g.Size, Named: vs, Says: printable.String(g.Says)}
		if len(vs) > groupFew {
			out[k].Named = []string{vs[0], vs[len(vs)-1]}
			out[k].All = vs
		}
	}
	note := fmt.Sprintf("%s in %s: the versions every policy judges alike form one group; "+
		"first the groups that hold a prerelease the policies disagree on, then the other groups they disagree on, then those they agree on.",
		plural.Of(len(rep.Versions), "version", "versions"), plural.Of(len(gs), "group", "groups"))
	if left := gs[len(shown):]; len(left) > 0 {
		n, disagree := 0, 0
		for _, g := range left {
			n += len(g.Rows)
			if g.Kind != rowgroups.Agree {
				disagree++
			}
		}
		what := fmt.Sprintf("%s of %s", plural.Of(len(left), "group", "groups"), plural.Of(n, "version", "versions"))
		if disagree > 0 {
			what += fmt.Sprintf(" (%d where the policies disagree)", disagree)
		} else {
			what += " (the policies agree on each)"
		}
		note += " " + opts.leftOut(what) + "."
	}
	return out, note
}

// Groups groups the versions of r by the pattern of their verdicts, as
// package rowgroups does, for the tables that show many versions.
func (r CheckReport) Groups(opt rowgroups.Options) []rowgroups.Group {
	rows := make([]rowgroups.Row, len(r.Versions))
	for i, row := range r.Versions {
		vs := make([]engine.Verdict, len(row.Results))
		for j, res := range row.Results {
			vs[j] = res.Verdict
		}
		rows[i] = rowgroups.Row{Version: row.Version, Verdicts: vs}
	}
	return rowgroups.Of(r.Policies, rows, opt)
}
