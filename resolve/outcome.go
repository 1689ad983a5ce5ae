package resolve

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
)

// Outcome says in words what makes a resolution fail, for a program's
// error after the report: the items whose versions could not be listed
// (Unlisted: an outside failure), then the items with no admissible
// version and the locked provider versions the chosen policy does not
// admit (findings), each kind under a line that counts it, or one
// finding alone as its own message; "" when nothing does. Items that
// could not be listed for the same reason share a line that names them,
// at most 6 unless showAll. Every text from outside is escaped by
// printable.String.
func (r *Report) Outcome(showAll bool) (text string, unlisted bool) {
	var parts []string
	if bad := r.Errors(); len(bad) > 0 {
		var lines []string
		for _, g := range r.ProblemGroups(StatusError) {
			if len(g.Items) == 1 {
				it := g.Items[0]
				lines = append(lines, fmt.Sprintf("%s %q: %s", it.Kind, it.Name, printable.String(it.Problem)))
				continue
			}
			max := 6
			if showAll {
				max = 0
			}
			names, _ := g.Names(max, strconv.Quote)
			lines = append(lines, fmt.Sprintf("%s (%d items): %s", names, len(g.Items), printable.String(g.Problem)))
		}
		parts = append(parts, fmt.Sprintf("the versions of %d of %d items could not be listed:\n  %s", len(bad), len(r.Items), strings.Join(lines, "\n  ")))
	}
	var unsatisfied, refused []string
	for _, it := range r.Unsatisfied() {
		unsatisfied = append(unsatisfied, fmt.Sprintf("%s %q (%s): %s", it.Kind, it.Name, printable.String(PosOrImplied(it.Pos)), printable.String(it.Problem)))
	}
	for _, l := range r.RefusedLocks() {
		refused = append(refused, fmt.Sprintf("locked provider %s %s (%s): not admitted by %s for %q: %s: %s",
			printable.String(l.Address), printable.String(l.Version), printable.String(l.Pos), l.Policy, l.Constraint, l.Verdict, printable.String(l.Reason)))
	}
	if len(parts) == 0 && len(unsatisfied)+len(refused) == 1 {
		// One finding alone is its own message.
		return slices.Concat(unsatisfied, refused)[0], false
	}
	if n := len(unsatisfied); n > 0 {
		parts = append(parts, fmt.Sprintf("%s no admissible version under the chosen policy:\n  %s",
			plural.Of(n, "item has", "items have"), strings.Join(unsatisfied, "\n  ")))
	}
	if n := len(refused); n > 0 {
		parts = append(parts, fmt.Sprintf("%s not admitted by the chosen policy:\n  %s",
			plural.Of(n, "locked provider version is", "locked provider versions are"), strings.Join(refused, "\n  ")))
	}
	return strings.Join(parts, "\n"), len(r.Errors()) > 0
}

// StalePinLines says, one line each, which pins prerel pin wrote are not
// what the chosen policy selects now, as a stale lock entry is.
func (r *Report) StalePinLines() []string {
	var lines []string
	for _, it := range r.StalePins() {
		lines = append(lines, fmt.Sprintf("%s %q is pinned at %s (%s:%d), but %s now selects %s: run prerel pin",
			it.Kind, it.Name, printable.String(it.Pinned.Version), printable.String(it.Pinned.File), it.Pinned.Line, it.Policy, printable.String(selectedOrNone(it.Selected))))
	}
	return lines
}

// PosOrImplied is an item's position, or "implied" for an item no block
// names (a provider only a resource implies).
func PosOrImplied(pos string) string {
	if pos == "" {
		return "implied"
	}
	return pos
}

// selectedOrNone is a selection, or "none".
func selectedOrNone(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}
