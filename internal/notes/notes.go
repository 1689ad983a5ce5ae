// Package notes groups the repeated notes of a text report and cuts long
// lists, saying how much it left out.
//
// A note is one policy's remark about one subject: "apparentlymart cannot
// read v1.5.0: a "v" prefix should not be used". Notes that differ only in
// their subject and in the subject's text inside the reason are grouped
// into one line per (reason shape, set of policies), with a count and a
// few examples; the JSON reports keep every note.
package notes

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// Limits of the text reports when --show-all is not given.
const (
	// MaxLines is how many lines a list of notes shows.
	MaxLines = 10
	// MaxExamples is how many versions a grouped note names.
	MaxExamples = 2
	// MaxNames is how many modules, providers or policies a grouped line
	// names.
	MaxNames = 6
)

// Note is one policy's remark about one subject (a version), with the
// reason as the policy gave it.
type Note struct {
	Policy  string
	Subject string
	Reason  string
}

// Group is the notes that share a reason shape and a set of policies:
// each of Policies says Shape about each of Subjects.
type Group struct {
	// Policies are the policies, in the order their first note came.
	Policies []string
	// Shape is the reason with the subject's text abstracted (see Shape).
	Shape string
	// Subjects are the subjects, in the order their first note came.
	Subjects []string
	// Reason is the first note's reason, as it was given.
	Reason string
}

// Notes is how many notes the group stands for: one per policy and
// subject.
func (g Group) Notes() int { return len(g.Policies) * len(g.Subjects) }

// columnPrefix is the start of an engine.ParseError after its input:
// `: column 4: `.
var columnPrefix = regexp.MustCompile(`^: column \d+: `)

// quotedText is a Go-quoted string inside a reason.
var quotedText = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// Shape returns reason with the text of subject abstracted, so that the
// reasons two versions are refused for read alike when only the version
// differs: an engine parse error's `version "1.2": column 4: ` prefix is
// dropped (anywhere in the reason, as in "admitted but cannot be ordered:
// version ..."), and a quoted copy of the subject, or of a part of it of
// two characters or more, becomes "…": `unexpected "x1" in version` and
// `unexpected "x2" in version` read alike, `a "v" prefix` stays. A reason
// that does not quote the subject is returned as it is.
func Shape(subject, reason string) string {
	lead := "version " + strconv.Quote(subject)
	for {
		i := strings.Index(reason, lead)
		if i < 0 {
			break
		}
		rest := reason[i+len(lead):]
		m := columnPrefix.FindString(rest)
		if m == "" {
			break
		}
		reason = reason[:i] + rest[len(m):]
	}
	return quotedText.ReplaceAllStringFunc(reason, func(q string) string {
		text, err := strconv.Unquote(q)
		if err != nil || len(text) < 2 || !strings.Contains(subject, text) {
			return q
		}
		return `"…"`
	})
}

// GroupNotes groups notes by reason shape and then by the exact set of
// policies that give that shape for a subject: a version that two
// policies cannot read for the same reason is in one group with the other
// versions both cannot read, apart from those only one of them cannot
// read. The largest groups (by notes) come first; ties keep the order of
// the first note.
func GroupNotes(ns []Note) []Group {
	type subjectKey struct{ shape, subject string }
	type subjectNotes struct {
		key      subjectKey
		policies []string
		reason   string
	}
	var order []*subjectNotes
	bySubject := map[subjectKey]*subjectNotes{}
	for _, n := range ns {
		k := subjectKey{Shape(n.Subject, n.Reason), n.Subject}
		s := bySubject[k]
		if s == nil {
			s = &subjectNotes{key: k, reason: n.Reason}
			bySubject[k] = s
			order = append(order, s)
		}
		if !slices.Contains(s.policies, n.Policy) {
			s.policies = append(s.policies, n.Policy)
		}
	}
	type groupKey struct{ shape, policies string }
	var groups []*Group
	byGroup := map[groupKey]*Group{}
	for _, s := range order {
		k := groupKey{s.key.shape, strings.Join(s.policies, "\x00")}
		g := byGroup[k]
		if g == nil {
			g = &Group{Policies: s.policies, Shape: s.key.shape, Reason: s.reason}
			byGroup[k] = g
			groups = append(groups, g)
		}
		g.Subjects = append(g.Subjects, s.key.subject)
	}
	out := make([]Group, len(groups))
	for i, g := range groups {
		out[i] = *g
	}
	slices.SortStableFunc(out, func(a, b Group) int { return cmp.Compare(b.Notes(), a.Notes()) })
	return out
}

// And joins names as a sentence does: "a", "a and b", "a, b and c".
func And(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Cut joins names with And, keeping at most max of them (all of them when
// max <= 0) and ending with "and N more" for the rest. It returns how
// many it left out.
func Cut(names []string, max int) (string, int) {
	if max <= 0 || len(names) <= max {
		return And(names), 0
	}
	left := len(names) - max
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", left), left
}

// Relevant orders versions for naming a few of them as examples: first
// those in preferred (in the order of preferred), then the others newest
// first by SemVer precedence, then those the engine cannot read, in
// their order. versions is not changed.
func Relevant(versions []string, preferred ...string) []string {
	type ranked struct {
		text   string
		pref   int            // index in preferred, or len(preferred)
		unread int            // 1 when the engine cannot read text, so that it goes last
		v      engine.Version // zero when unread
		at     int
	}
	rs := make([]ranked, len(versions))
	for i, text := range versions {
		r := ranked{text: text, pref: len(preferred), at: i}
		if j := slices.Index(preferred, text); j >= 0 {
			r.pref = j
		}
		if v, err := engine.ParseVersion(text); err == nil {
			r.v = v
		} else {
			r.unread = 1
		}
		rs[i] = r
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(
			cmp.Compare(a.pref, b.pref),
			cmp.Compare(a.unread, b.unread),
			b.v.Compare(a.v), // newest first
			cmp.Compare(a.at, b.at),
		)
	})
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.text
	}
	return out
}

// Wrap lays words out on lines of at most width columns (a longer word
// gets a line of its own), each line starting with indent and words
// separated by one space.
func Wrap(words []string, indent string, width int) []string {
	var lines []string
	line := ""
	for _, w := range words {
		switch {
		case line == "":
			line = indent + w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// Omitted counts what a report left out, by kind: "464 versions and 2
// notes".
type Omitted struct {
	kinds []omittedKind
}

type omittedKind struct {
	one, many string
	n         int
}

// Add counts n more things of a kind, named by its singular and plural.
func (o *Omitted) Add(n int, one, many string) {
	if n <= 0 {
		return
	}
	for i := range o.kinds {
		if o.kinds[i].one == one {
			o.kinds[i].n += n
			return
		}
	}
	o.kinds = append(o.kinds, omittedKind{one, many, n})
}

// Any reports whether anything was left out.
func (o *Omitted) Any() bool { return len(o.kinds) > 0 }

// String is the counts as a phrase, "" when nothing was left out.
func (o *Omitted) String() string {
	parts := make([]string, len(o.kinds))
	for i, k := range o.kinds {
		parts[i] = plural.Of(k.n, k.one, k.many)
	}
	return And(parts)
}
