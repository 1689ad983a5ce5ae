package resolve

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/report"
)

// noMatchSection lists, for every item whose chosen policy selects no
// version, why, then what would: a near miss corrected, and for each
// wanted version the chosen policy's verified edits and the policies
// that select it as written. code formats a name or version, quote a
// constraint, text running text; without opt.ShowAll long lists are cut
// and omitted counts what was left out.
func (r *Report) noMatchSection(code, quote, text func(string) string, opt report.Options, omitted *notes.Omitted) section {
	s := section{title: "Why the chosen policy selects no version, and what would", one: "item", many: "items", glue: true}
	maxEdits, maxNames := 2, notes.MaxNames
	if opt.ShowAll {
		maxEdits, maxNames = 0, 0
	}
	var items []*Item
	for i := range r.Items {
		if r.Items[i].NoMatch != nil {
			items = append(items, &r.Items[i])
		}
	}
	// Items that read alike (modules of one constraint and versions) are
	// one entry.
	for _, g := range GroupProblems(items, noMatchKey) {
		it := g.Items[0]
		n := it.NoMatch
		if len(g.Items) == 1 {
			s.lines = append(s.lines, fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(where(it.Pos)), text(n.Why)))
		} else {
			max := notes.MaxNames
			if opt.ShowAll {
				max = 0
			}
			names, left := g.Names(max, code)
			omitted.Add(left, "item", "items")
			s.lines = append(s.lines, fmt.Sprintf("%s (%d items): %s", names, len(g.Items), text(n.Why)))
		}
		var subs []string
		in := func(e Edit) string {
			if e.Module != "" && len(it.Requirements) > 1 {
				return quote(e.Constraint) + " in " + code(e.Module)
			}
			return quote(e.Constraint)
		}
		dym := n.DidYouMean
		if maxEdits > 0 && len(dym) > maxEdits {
			omitted.Add(len(dym)-maxEdits, "suggestion", "suggestions")
			dym = dym[:maxEdits]
		}
		for _, e := range dym {
			subs = append(subs, fmt.Sprintf("did you mean %s? %s; %s then selects %s", in(e), text(e.Note), code(it.Policy), code(e.Selects)))
		}
		for _, w := range n.Wanted {
			var edits []string
			for _, e := range n.Constraints {
				if e.Selects == w {
					edits = append(edits, in(e))
				}
			}
			var chosen string
			switch {
			case len(edits) == 0:
				chosen = fmt.Sprintf("no small edit of %s makes %s select it", quote(it.Constraint), code(it.Policy))
			default:
				if maxEdits > 0 && len(edits) > maxEdits {
					left := len(edits) - maxEdits
					omitted.Add(left, "constraint", "constraints")
					edits = append(edits[:maxEdits], fmt.Sprintf("%d more", left))
				}
				chosen = fmt.Sprintf("%s selects it with %s", code(it.Policy), strings.Join(edits, " or "))
			}
			var names []string
			for _, p := range n.PolicyNames() {
				if n.Policies[p] == w {
					names = append(names, code(p))
				}
			}
			others := "no other policy selects it as written"
			if len(names) > 0 {
				list, left := notes.Cut(names, maxNames)
				omitted.Add(left, "policy", "policies")
				verb := "selects"
				if len(names) > 1 {
					verb = "select"
				}
				others = fmt.Sprintf("%s %s it as written", list, verb)
			}
			subs = append(subs, fmt.Sprintf("%s: %s; %s", code(w), chosen, others))
		}
		if len(n.Wanted) > 0 && n.Rule != "" {
			if v, err := engine.ParseVersion(n.Wanted[0]); err == nil && v.IsPrerelease() {
				subs = append(subs, fmt.Sprintf("the rule of %s: %s", code(it.Policy), text(n.Rule)))
			}
		}
		s.subs = append(s.subs, subs)
	}
	return s
}

// noMatchKey is what the text of an item's NoMatch depends on, so that
// items alike are listed once.
func noMatchKey(it *Item) string {
	n := it.NoMatch
	key, err := json.Marshal([]any{it.Kind, it.Policy, it.Constraint, len(it.Requirements) > 1, n, n.PolicyNames()})
	if err != nil {
		return it.Name // unique: not grouped
	}
	return string(key)
}

// maxGlued is the longest quoted text, quotes included, that wrapGlued
// keeps on one line.
const maxGlued = 26

// wrapGlued wraps s as wrapText does, but breaks no quoted text of at
// most maxGlued runes ("~> 2.0") across lines.
func wrapGlued(s string, first, rest int) []string {
	return unglue(wrapText(glue(s, '"'), first, rest))
}

// glue joins the words of each short text between quote characters
// (maxGlued runes at most, quotes included) with NULs instead of spaces,
// so that wrapping keeps it on one line; unglue turns them back. Inside
// '"' quotes a backslash escapes the next byte. s is text as
// printable.String or package markdown writes it, with no NUL of its
// own.
func glue(s string, quote byte) string {
	var b strings.Builder
	start := -1 // where the open quote is, -1 outside quotes
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case start < 0:
			if c == quote {
				start = i
			} else {
				b.WriteByte(c)
			}
		case c == '\\' && quote == '"':
			i++ // an escape: skip what it escapes
		case c == quote:
			q := s[start : i+1]
			if utf8.RuneCountInString(q) <= maxGlued {
				q = strings.ReplaceAll(q, " ", "\x00")
			}
			b.WriteString(q)
			start = -1
		}
	}
	if start >= 0 {
		b.WriteString(s[start:])
	}
	return b.String()
}

// unglue turns the NULs glue wrote back into spaces.
func unglue(lines []string) []string {
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "\x00", " ")
	}
	return lines
}

// wrapMarkdown wraps a line of Markdown at textWidth columns, the first
// indented by first and the others by rest, breaking only before a word
// that cannot open a block of its own (see breakable), so that each
// continuation line stays in its list item's paragraph, nor inside a
// short code span; a line that cannot be broken so stays longer.
func wrapMarkdown(s string, first, rest int) []string {
	s = glue(s, '`')
	var lines []string
	line := strings.Repeat(" ", first)
	col := first
	for i, w := range strings.Split(s, " ") {
		n := utf8.RuneCountInString(w)
		if i > 0 {
			if col+1+n > textWidth && col > rest && breakable(w) {
				lines = append(lines, line)
				line, col = strings.Repeat(" ", rest), rest
			} else {
				line += " "
				col++
			}
		}
		line += w
		col += n
	}
	return unglue(append(lines, line))
}

// breakable reports whether a Markdown line may start with the word w
// inside a paragraph without opening a block: w starts with a letter, a
// quote, a parenthesis, a backslash, one or two backticks (three open a
// code fence), or a digit when w is not a list marker ("1." or "1)").
func breakable(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	switch {
	case unicode.IsLetter(r) || strings.ContainsRune("\"(\\", r):
		return true
	case r == '`':
		return !strings.HasPrefix(w, "```")
	case r >= '0' && r <= '9':
		digits := strings.TrimLeft(w, "0123456789")
		return digits != "." && digits != ")"
	}
	return false
}
