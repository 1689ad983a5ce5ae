package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

// isNextMajor reports whether version is a prerelease of the major
// release a "~>" of constraint stops below: "~> 1.0" with 2.0.0-beta.
func isNextMajor(constraint, version string) bool {
	c, cerr := engine.ParseConstraint(constraint)
	v, verr := engine.ParseVersion(version)
	if cerr != nil || verr != nil || !v.IsPrerelease() {
		return false
	}
	for _, k := range c.Comparators() {
		if u, ok := k.Upper(); ok && k.Op == engine.OpPessimistic && v.Core().Equal(u) && u.Major() > k.Version.Major() {
			return true
		}
	}
	return false
}

// nextMajorSplit is the first split, in rank order, whose witness is a
// prerelease of the next major under "~>" that some policy admits; nil
// when none is.
func nextMajorSplit(r *compare.Report) *compare.Split {
	for i := range r.Splits {
		s := &r.Splits[i]
		if len(s.Allow) > 0 && isNextMajor(s.Witness.Constraint, s.Witness.Version) {
			return s
		}
	}
	return nil
}

// nextMajorText says in words which policies let a "~>" constraint
// install a prerelease of the next major, the case people argue about:
// `next major: "~> 1.0" admits 2.0.0-beta, a prerelease of the next
// major, under linear, fallback; not under terraform-module (today) and
// 13 others.`;
// "" when no split shows it.
func nextMajorText(r *compare.Report, ref string) string {
	s := nextMajorSplit(r)
	if s == nil {
		return ""
	}
	no := func(names []string) string {
		if slices.Contains(names, ref) {
			rest := len(names) - 1
			out := ref + referenceShort(ref)
			if rest > 0 {
				out += " and " + plural.Of(rest, "other", "others")
			}
			return out
		}
		return strings.Join(names, ", ")
	}
	out := fmt.Sprintf("next major: %s admits %s, a prerelease of the next major, under %s",
		strconv.Quote(s.Witness.Constraint), s.Witness.Version, strings.Join(s.Allow, ", "))
	if len(s.Reject) > 0 {
		out += "; not under " + no(s.Reject)
	}
	if len(s.Invalid) > 0 {
		out += "; refused by " + no(s.Invalid)
	}
	return out + "."
}

// referenceShort marks the reference when it stands for today's
// installers.
func referenceShort(ref string) string {
	if referenceNote(ref, "") != "" {
		return " (today)"
	}
	return ""
}

// repeatedCountsText explains, once, a count of cases that several
// summary rows share (at least three rows with the same nonzero "more"
// or "fewer"): how many rows, whether they are the same cases (the same
// classes against the reference), their causes and a witness. byPair
// gives the classes of a pair.
func repeatedCountsText(r *compare.Report, ref string, byPair func(a, b string) []compare.Class) []string {
	var out []string
	for _, fewer := range []bool{true, false} {
		rows := map[int64][]compare.SummaryRow{}
		var order []int64
		for _, row := range r.Summary {
			n := row.AdmitsMore
			if fewer {
				n = row.AdmitsFewer
			}
			if n == 0 {
				continue
			}
			if _, ok := rows[n]; !ok {
				order = append(order, n)
			}
			rows[n] = append(rows[n], row)
		}
		for _, n := range order {
			if len(rows[n]) < 3 {
				continue
			}
			out = append(out, repeatedCount(n, fewer, rows[n], ref, byPair))
		}
	}
	return out
}

// repeatedCount is one line of repeatedCountsText.
func repeatedCount(n int64, fewer bool, rows []compare.SummaryRow, ref string, byPair func(a, b string) []compare.Class) string {
	word, who := "more", "they allow and "+ref+" does not"
	if fewer {
		word, who = "fewer", ref+" allows and they do not"
	}
	same := true
	var first []compare.Class
	for i, row := range rows {
		cs := sideClasses(byPair, row.Policies[0], ref, fewer)
		if i == 0 {
			first = cs
			continue
		}
		same = same && slices.EqualFunc(cs, first, func(a, b compare.Class) bool {
			return a.Signature == b.Signature && a.Count == b.Count
		})
	}
	s := fmt.Sprintf("%s %s on %d rows: ", thousands(n), word, len(rows))
	if same {
		s += "the same cases, those " + who
	} else {
		s += "on each, cases " + who
	}
	var causes []string
	for _, c := range first {
		if !slices.Contains(causes, string(c.Cause)) {
			causes = append(causes, string(c.Cause))
		}
	}
	if same && len(causes) > 0 {
		s += " (" + strings.Join(causes, ", ") + ")"
	}
	if len(first) > 0 {
		w := first[0].Witness
		s += fmt.Sprintf(", such as %s with %s", strconv.Quote(w.Constraint), w.Version)
	}
	return s + "."
}

// sideClasses are the classes of the pair (name, ref) that the reference
// allows and name does not (fewer), or the reverse.
func sideClasses(byPair func(a, b string) []compare.Class, name, ref string, fewer bool) []compare.Class {
	var out []compare.Class
	for _, c := range byPair(name, ref) {
		mine, theirs := c.Witness.AVerdict, c.Witness.BVerdict
		if c.A != name {
			mine, theirs = theirs, mine
		}
		if fewer && theirs == engine.Allow && mine != engine.Allow || !fewer && mine == engine.Allow && theirs != engine.Allow {
			out = append(out, c)
		}
	}
	return out
}
