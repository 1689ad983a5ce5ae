package impact

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/internal/plural"
)

// FailOnChanged is the name, in a ClassList, of every changed class.
const FailOnChanged = "changed"

// A ClassList is a list of classes named by their names, as prerel
// impact's --fail-on reads it: comma-separated, in one or several Sets,
// with FailOnChanged for every class but Unchanged. A name given twice is
// refused.
type ClassList struct {
	Classes []Class
	names   []string
}

// String is the names given, comma-separated.
func (l *ClassList) String() string { return strings.Join(l.names, ",") }

// Set adds the classes of the comma-separated names of s.
func (l *ClassList) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if slices.Contains(l.names, name) {
			return fmt.Errorf("class %q given twice", name)
		}
		l.names = append(l.names, name)
		if name == FailOnChanged {
			for _, c := range Classes {
				if c.Changed() {
					l.add(c)
				}
			}
			continue
		}
		c, err := ParseClass(name)
		if err != nil {
			return fmt.Errorf("unknown class %q (valid: %s, or %s for every class but unchanged)", name, ClassNames(), FailOnChanged)
		}
		l.add(c)
	}
	return nil
}

// add adds c unless "changed" already did.
func (l *ClassList) add(c Class) {
	if !slices.Contains(l.Classes, c) {
		l.Classes = append(l.Classes, c)
	}
}

// Outcome says how a run ends once its report is written: unlisted when
// the versions of some calls could not be listed, with text naming them
// (ProblemLines, at most 6 calls a line unless showAll), whatever else
// it found; else text counts the calls that fall in the classes failOn
// names, "" when none does.
func (r *Report) Outcome(failOn []Class, showAll bool) (text string, unlisted bool) {
	if n := len(r.Problems); n > 0 {
		return fmt.Sprintf("the versions of %s could not be listed:\n  %s", plural.Of(n, "call", "calls"), strings.Join(r.ProblemLines(showAll), "\n  ")), true
	}
	var hits []string
	total := 0
	for _, c := range failOn {
		if n := r.Count(c); n > 0 {
			hits = append(hits, fmt.Sprintf("%s %d", c, n))
			total += n
		}
	}
	if len(hits) == 0 {
		return "", false
	}
	return fmt.Sprintf("--fail-on: %s in the classes named: %s", plural.Of(total, "call falls", "calls fall"), strings.Join(hits, ", ")), false
}

// Dated reports whether some history of d has publication dates, which
// a minimum release age needs (an index file with published_at; the
// corpus records none).
func (d *Domain) Dated() bool {
	for _, h := range d.Histories {
		if h.Published != nil {
			return true
		}
	}
	return false
}
