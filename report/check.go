package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/timeline"
)

// Check writes a check report in format f: Text, JSON or HTML.
func Check(w io.Writer, f Format, rep CheckReport, opts Options) error {
	switch f {
	case Text:
		return writeCheckText(w, rep, opts)
	case JSON:
		return WriteJSON(w, rep)
	case HTML:
		return writeCheckHTML(w, rep, opts)
	}
	return &UnsupportedError{"check", f}
}

// writeCheckHTML writes a check report as an HTML page: the summary, the
// versions grouped by the pattern of their verdicts (see checkGroups),
// the timeline of every policy's verdicts, then the text report.
func writeCheckHTML(w io.Writer, rep CheckReport, opts Options) error {
	var text strings.Builder
	if err := writeCheckText(&text, rep, opts); err != nil {
		return err
	}
	svg, err := timeline.SVG(CheckTimeline(rep, nil))
	if err != nil {
		return err
	}
	groups, note := checkGroups(rep, opts)
	return WriteHTML(w, Page{
		Title:      "prerel check: " + printable.String(rep.Constraint),
		Answer:     checkAnswer(rep),
		Groups:     groups,
		GroupsNote: note,
		Sections:   []Section{{SVG: svg}},
		Text:       text.String(),
	})
}

// checkAnswer is the conclusion of a check report in one sentence.
func checkAnswer(rep CheckReport) string {
	n := 0
	for _, row := range rep.Versions {
		if disagreement(row) != allAgree {
			n++
		}
	}
	switch {
	case len(rep.Policies) == 1:
		allowed := 0
		for _, row := range rep.Versions {
			if row.Results[0].Verdict == engine.Allow {
				allowed++
			}
		}
		return fmt.Sprintf("%s allows %d of %s", rep.Policies[0], allowed, plural.Of(len(rep.Versions), "version", "versions"))
	case n == 0:
		return "policies agree on " + agreeOn(len(rep.Versions))
	}
	return fmt.Sprintf("policies disagree on %d of %s", n, plural.Of(len(rep.Versions), "version", "versions"))
}

// Layout of the check table.
const (
	// checkWidth is the widest a line of the check table may be.
	checkWidth = 80
	// checkMaxRows is how many versions the table shows unless
	// Options.ShowAll.
	checkMaxRows = 20
	// checkGap is the space between two columns.
	checkGap = 2
)

// How much the policies disagree on a version.
const (
	allAgree      = iota // every policy gives the same verdict
	invalidOnly          // they disagree only in that some say invalid
	allowVsReject        // some policy allows it and another rejects it
)

// disagreement is how much the policies of a row disagree.
func disagreement(row CheckRow) int {
	seen := map[engine.Verdict]bool{}
	for _, r := range row.Results {
		seen[r.Verdict] = true
	}
	switch {
	case seen[engine.Allow] && seen[engine.Reject]:
		return allowVsReject
	case len(seen) > 1:
		return invalidOnly
	}
	return allAgree
}

// checkColumn is one column of the check table: the policies it stands
// for, by index in the report, and its heading.
type checkColumn struct {
	head     string
	policies []int
}

// writeCheckText writes a check report: a summary line saying on how many
// versions the policies disagree, then the table, versions as rows and
// policies as columns, each row where they disagree marked "*".
//
// When a column for each policy would make the table wider than 80
// columns, the policies that give the same verdict on every version share
// one column, headed A, B, ... and named in a legend above the table; and
// when even those columns do not fit, the table is split into blocks of
// columns that do, each repeating the versions. Unless opts.ShowAll the table
// shows at most checkMaxRows versions (see checkRows) and says how many
// it left out.
func writeCheckText(w io.Writer, rep CheckReport, opts Options) error {
	var b strings.Builder
	fmt.Fprintf(&b, "constraint: %s\n", printable.String(rep.Constraint))
	levels := make([]int, len(rep.Versions))
	marked := make([]bool, len(rep.Versions))
	n, conflicts := 0, 0
	for i, row := range rep.Versions {
		levels[i] = disagreement(row)
		marked[i] = levels[i] != allAgree
		if marked[i] {
			n++
		}
		if levels[i] == allowVsReject {
			conflicts++
		}
	}
	if len(rep.Policies) > 1 {
		switch {
		case n == 0:
			fmt.Fprintf(&b, "policies agree on %s\n", agreeOn(len(rep.Versions)))
		case conflicts < n:
			fmt.Fprintf(&b, "policies disagree on %d of %s (marked *): allow vs reject on %d\n",
				n, plural.Of(len(rep.Versions), "version", "versions"), conflicts)
		default:
			fmt.Fprintf(&b, "policies disagree on %d of %s (marked *)\n", n, plural.Of(len(rep.Versions), "version", "versions"))
		}
	}
	b.WriteString("\n")

	rows := checkRows(rep, levels, opts.ShowAll)
	versionWidth := len("VERSION")
	for _, i := range rows {
		versionWidth = max(versionWidth, len(printable.String(rep.Versions[i].Version)))
	}
	columns := policyColumns(rep)
	if tableWidth(versionWidth, columns) > checkWidth {
		columns = answerColumns(rep)
		fmt.Fprintf(&b, "%s in %s; the policies of a column answer alike:\n",
			plural.Of(len(rep.Policies), "policy", "policies"), plural.Of(len(columns), "column", "columns"))
		indent := strings.Repeat(" ", len(columns[len(columns)-1].head)+checkGap)
		for _, c := range columns {
			members := make([]string, len(c.policies))
			for k, j := range c.policies {
				members[k] = rep.Policies[j]
			}
			for k, l := range notes.Wrap(commaList(members), indent, checkWidth) {
				if k == 0 {
					l = c.head + l[len(c.head):]
				}
				b.WriteString(l + "\n")
			}
		}
		b.WriteString("\n")
	}
	for k, block := range columnBlocks(versionWidth, columns) {
		if k > 0 {
			b.WriteString("\n")
		}
		writeCheckBlock(&b, rep, rows, marked, block)
	}

	shown := 0
	for _, i := range rows {
		if marked[i] {
			shown++
		}
	}
	if shown > 0 {
		b.WriteString("\n* the policies do not all give this version the same verdict\n")
	}
	if left := len(rep.Versions) - len(rows); left > 0 {
		what := plural.Of(left, "version", "versions")
		if n > shown {
			what += fmt.Sprintf(" (%d where the policies disagree)", n-shown)
		} else {
			what += " (the policies agree on each)"
		}
		fmt.Fprintf(&b, "\n%s\n", opts.leftOut(what))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// agreeOn says on which versions the policies agree, all n of them.
func agreeOn(n int) string {
	switch n {
	case 1:
		return "the version"
	case 2:
		return "both versions"
	}
	return fmt.Sprintf("all %d versions", n)
}

// commaList is names as words of a comma-separated list, for notes.Wrap.
func commaList(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if i < len(names)-1 {
			out[i] += ","
		}
	}
	return out
}

// checkRows returns the indexes of the rows to show, in order: all of
// them with showAll or when there are at most checkMaxRows, otherwise
// checkMaxRows of them: first the versions some policy allows and another
// rejects, then the other versions some policy allows (those the policies
// disagree on first), then the rest (likewise), each kind in the order
// given.
func checkRows(rep CheckReport, levels []int, showAll bool) []int {
	rank := func(i int) int {
		allowed := slices.ContainsFunc(rep.Versions[i].Results, func(r PolicyResult) bool { return r.Verdict == engine.Allow })
		switch {
		case levels[i] == allowVsReject:
			return 0
		case allowed && levels[i] != allAgree:
			return 1
		case allowed:
			return 2
		case levels[i] != allAgree:
			return 3
		}
		return 4
	}
	keep := make([]bool, len(levels))
	room := len(levels)
	if !showAll {
		room = min(room, checkMaxRows)
	}
	for want := 0; want <= 4; want++ {
		for i := range levels {
			if room > 0 && rank(i) == want {
				keep[i] = true
				room--
			}
		}
	}
	var rows []int
	for i, k := range keep {
		if k {
			rows = append(rows, i)
		}
	}
	return rows
}

// policyColumns is a column for each policy, headed by its name.
func policyColumns(rep CheckReport) []checkColumn {
	cs := make([]checkColumn, len(rep.Policies))
	for j, name := range rep.Policies {
		cs[j] = checkColumn{head: name, policies: []int{j}}
	}
	return cs
}

// answerColumns is a column for each distinct answer, the policies that
// give the same verdict on every version sharing one, in the order of
// their first policy; the columns are headed A, B, ..., Z, AA, AB, ...
func answerColumns(rep CheckReport) []checkColumn {
	var cs []checkColumn
	index := map[string]int{}
	for j := range rep.Policies {
		var key strings.Builder
		for _, row := range rep.Versions {
			fmt.Fprintf(&key, "%s,", row.Results[j].Verdict)
		}
		k, ok := index[key.String()]
		if !ok {
			k = len(cs)
			index[key.String()] = k
			cs = append(cs, checkColumn{head: columnName(k)})
		}
		cs[k].policies = append(cs[k].policies, j)
	}
	return cs
}

// columnName is the heading of the k-th answer column: A to Z, then AA.
func columnName(k int) string {
	name := string(rune('A' + k%26))
	for k /= 26; k > 0; k /= 26 {
		k--
		name = string(rune('A'+k%26)) + name
	}
	return name
}

// cellWidth is the width of a column: its heading or the widest verdict.
func (c checkColumn) cellWidth() int { return max(len(c.head), len("invalid")) }

// tableWidth is how wide a table of the columns is, with the mark and the
// versions first.
func tableWidth(versionWidth int, cs []checkColumn) int {
	w := 1 + checkGap + versionWidth
	for _, c := range cs {
		w += checkGap + c.cellWidth()
	}
	return w
}

// columnBlocks splits the columns into blocks that each fit checkWidth
// with the versions beside them; a block has at least one column.
func columnBlocks(versionWidth int, cs []checkColumn) [][]checkColumn {
	var blocks [][]checkColumn
	var cur []checkColumn
	for _, c := range cs {
		if len(cur) > 0 && tableWidth(versionWidth, append(cur, c)) > checkWidth {
			blocks = append(blocks, cur)
			cur = nil
		}
		cur = append(cur, c)
	}
	return append(blocks, cur)
}

// writeCheckBlock writes the given rows with the given columns, a column
// showing the verdict of its first policy (all of its policies give it).
func writeCheckBlock(b *strings.Builder, rep CheckReport, rows []int, marked []bool, cs []checkColumn) {
	tw := tabwriter.NewWriter(b, 0, 4, checkGap, ' ', 0)
	// The mark is a prefix of the first cell, so that its column keeps
	// its width when no row is marked.
	fmt.Fprint(tw, "   VERSION")
	for _, c := range cs {
		fmt.Fprintf(tw, "\t%s", c.head)
	}
	fmt.Fprintln(tw)
	for _, i := range rows {
		row := rep.Versions[i]
		mark := "   "
		if marked[i] {
			mark = "*  "
		}
		fmt.Fprint(tw, mark+printable.String(row.Version))
		for _, c := range cs {
			fmt.Fprintf(tw, "\t%s", row.Results[c.policies[0]].Verdict)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
