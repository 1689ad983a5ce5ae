package impact

import (
	"fmt"

	limits "github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/resolve"
)

// problemLine is one line of the calls whose versions could not be
// listed, and how many calls it tells of.
type problemLine struct {
	text  string
	calls int
}

// ProblemLines are the report's Problems as it shows them: a line a call,
// but one line a registry host for the calls whose lookups one host
// failed with server errors or 429, or that could not reach their host
// (a name that does not resolve, a connection refused, a timeout), when
// several (resolve.GroupHostProblems), that names the calls (at most
// notes.MaxNames unless showAll), counts them and sums up the host's
// answers or why it could not be reached:
//
//	modules a, b, c, d, e, f and 6 more (12 calls): registry.example.com
//	answered 503 Service Unavailable to 12 lookups, such as GET /v1/...
//
//	modules a, b, c (3 calls): registry.example.com could not be
//	reached (connection refused): GET /.well-known/terraform.json
//
// (one line each). Other problems, such as a call missing from an index,
// keep a line a call. A report Run did not make has a line a call.
func (r *Report) ProblemLines(showAll bool) []string {
	lines := r.problemLines(showAll)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text
	}
	return out
}

func (r *Report) problemLines(showAll bool) []problemLine {
	var failed []failedCall
	if r.run != nil {
		failed = r.run.domain.failed
	}
	if len(failed) != len(r.Problems) {
		lines := make([]problemLine, len(r.Problems))
		for i, p := range r.Problems {
			lines[i] = problemLine{p, 1}
		}
		return lines
	}
	items := make([]*resolve.Item, len(failed))
	line := map[*resolve.Item]string{}
	for i := range failed {
		items[i] = &failed[i].item
		line[items[i]] = failed[i].line
	}
	max := limits.MaxNames
	if showAll {
		max = 0
	}
	var lines []problemLine
	for _, g := range resolve.GroupHostProblems(items, nil) {
		if len(g.Items) == 1 {
			lines = append(lines, problemLine{line[g.Items[0]], 1})
			continue
		}
		names, _ := g.Names(max, func(s string) string { return s })
		lines = append(lines, problemLine{fmt.Sprintf("%s (%d calls): %s", names, len(g.Items), g.Problem), len(g.Items)})
	}
	return lines
}
