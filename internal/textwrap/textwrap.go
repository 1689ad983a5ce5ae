// Package textwrap breaks text into lines of a terminal's width at
// spaces, the one rule every text report of prerel wraps by.
package textwrap

import (
	"strings"
	"unicode/utf8"
)

// Lines breaks s at its spaces into lines of at most width columns (a
// rune a column), the first indented by first spaces and the others by
// rest. A word is never broken: one longer than a line stands on a line
// of its own. s is split at every single space, so that two spaces in a
// row keep an empty word between them.
func Lines(s string, width, first, rest int) []string {
	var lines []string
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", first))
	col := first
	for i, w := range strings.Split(s, " ") {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case col+1+n > width:
			lines = append(lines, b.String())
			b.Reset()
			b.WriteString(strings.Repeat(" ", rest))
			col = rest
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
	return append(lines, b.String())
}
