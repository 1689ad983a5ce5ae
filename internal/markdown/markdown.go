// Package markdown puts outside text (policy names, constraints, versions,
// messages) into GitHub-flavoured Markdown so that it reads literally:
// as an inline code span with Code, or as plain text with Escape, in
// running text (paragraphs, list items, headings) or in a table cell.
//
// Every function returns text for one line: line breaks in the input
// become spaces, since a line break would end a table row or could start
// a new block. Every other control character (tabs aside), invalid UTF-8
// byte and format character such as a bidirectional override is written
// as printable.String writes it ("\x1b", "\u202e"), so that Markdown read
// on a terminal cannot clear or recolour it either.
package markdown

import (
	"strings"

	"github.com/prerel/prerel/internal/printable"
)

// Empty is what Code and CodeCell write for the empty string: an empty
// code span cannot be written, and a blank cell would not show that there
// is a value at all, so the empty string is shown as a code span holding
// two double quotes. The text `""` itself is shown the same way.
const Empty = "`\"\"`"

// lineBreaks turns each line break (CR LF, CR or LF) into one space.
var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

// oneLine returns s with its line breaks turned into spaces and every
// other character that is not safe to print but a tab escaped by
// printable.String.
func oneLine(s string) string {
	s = lineBreaks.Replace(s)
	if printable.Safe(s) {
		return s
	}
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = printable.String(p)
	}
	return strings.Join(parts, "\t")
}

// Code returns s as an inline code span for running text: a paragraph, a
// list item or a heading. The fence is one backtick longer than the
// longest run of backticks in s, so that no run inside closes the span,
// and one space pads each side when s starts or ends with a backtick or a
// space and is not all spaces (Markdown strips exactly that padding
// again, so leading and trailing spaces of s are kept). No run of
// backticks in s, wherever it stands, can therefore end the span early
// and let the rest of s render as Markdown. Line breaks become spaces,
// other unsafe characters are escaped (see the package documentation);
// the empty string is written as Empty. Inside a table cell use
// CodeCell: there a "|" must be escaped even inside a code span.
func Code(s string) string {
	s = oneLine(s)
	if s == "" {
		return Empty
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if pad(s) {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// CodeCell returns s as an inline code span for a table cell: Code(s)
// with every "|" written as "\|". A table row is split at each "|" not
// preceded by a backslash, code spans included, and the backslash before
// a "|" is removed again before the cell is read, so the span shows s.
func CodeCell(s string) string {
	return strings.ReplaceAll(Code(s), "|", `\|`)
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// pad reports whether the content s of a code span needs a space on
// each side: when it starts or ends with a backtick (which would join
// the fence) or with a space (one space each side would be stripped if
// both ends had one). Content of spaces only is never stripped.
func pad(s string) bool {
	if strings.Trim(s, " ") == "" {
		return false
	}
	first, last := s[0], s[len(s)-1]
	return first == '`' || last == '`' || first == ' ' || last == ' '
}

// escaper backslash-escapes the characters that can start or end Markdown
// markup anywhere in a line: the backslash itself, code spans (`),
// emphasis (* _), strikethrough (~), links and images ([ ] !), HTML and
// autolinks (< >), entities (&), table cells (|), headings and issue
// references (#) and math ($). Line breaks become spaces. With "[", "]"
// and "!" escaped no link or image can open, so "(" and ")" are left
// as they are.
var escaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "~", `\~`,
	"[", `\[`, "]", `\]`, "!", `\!`, "<", `\<`, ">", `\>`,
	"&", `\&`, "|", `\|`, "#", `\#`, "$", `\$`,
	"\r\n", " ", "\r", " ", "\n", " ",
)

// Escape returns s escaped to read literally as Markdown text, in
// running text or in a table cell. These characters are preceded by a
// backslash: \ ` * _ ~ [ ] ! < > & | # $, so that no link, image, HTML
// tag or code span can open. Line breaks become spaces, other unsafe
// characters are escaped (see the package documentation), and
// the spaces and tabs that open s become one space, so that s cannot
// open a block of code (white space renders as one space in HTML
// anyway). A "-" or "+" that opens s, and the "." or ")" after a number
// that opens s when a space, a tab or the end follows, are escaped as
// well, so that s may start a list item without opening a list of its
// own. Other text is left as it is: a bare URL still becomes a link on
// GitHub.
func Escape(s string) string {
	s = escaper.Replace(oneLine(s))
	lead := ""
	if rest := strings.TrimLeft(s, " \t"); len(rest) < len(s) {
		lead, s = " ", rest
	}
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return lead + `\` + s
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n < len(s) && (s[n] == '.' || s[n] == ')') && (n+1 == len(s) || s[n+1] == ' ' || s[n+1] == '\t') {
		return lead + s[:n] + `\` + s[n:]
	}
	return lead + s
}
