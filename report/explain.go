package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
)

// explainSubjectWidth caps the subject column of explain's text output; a
// longer subject stands on a line of its own.
const explainSubjectWidth = 34

// Layout of explain's text output.
const (
	// explainWidth is the widest a line is; longer text is wrapped at
	// spaces (see wrapText).
	explainWidth = 80
	// explainMaxLines is how many lines one value or detail is wrapped
	// into at most: a longer one is elided in the middle, with a note of
	// how much was left out (the JSON form has it whole).
	explainMaxLines = 8
)

// Explain writes an explain report in format f: Text or JSON.
func Explain(w io.Writer, f Format, rep ExplainReport, opts Options) error {
	switch f {
	case Text:
		return writeExplainText(w, rep, opts)
	case JSON:
		return WriteJSON(w, rep)
	}
	return &UnsupportedError{"explain", f}
}

// writeExplainText writes an explain report: the policy and the pair, the
// steps, the verdict. The text is written at once, and an error writing
// it is returned; text from outside is escaped (printable.String). Lines
// fit explainWidth.
func writeExplainText(w io.Writer, rep ExplainReport, opts Options) error {
	var b strings.Builder
	field := func(label, value string) {
		for i, line := range wrapText(printable.String(value), explainWidth-12, 0, opts.Hints.JSON) {
			if i > 0 {
				label = ""
			}
			fmt.Fprintf(&b, "%-12s%s\n", label, line)
		}
	}
	field("policy:", rep.Policy)
	field("rule:", rep.Rule)
	field("constraint:", rep.Constraint)
	field("version:", rep.Version)
	b.WriteString("\n")
	writeSteps(&b, rep.Steps, opts.Hints.JSON)
	b.WriteString("\n")
	field("verdict:", rep.Verdict.String())
	field("reason:", rep.Reason)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSteps prints the steps in two columns, the subject once for a run of
// steps about the same subject, each detail wrapped to fit explainWidth.
func writeSteps(b *strings.Builder, steps []engine.Step, whole string) {
	width := 0
	for _, s := range steps {
		if n := utf8.RuneCountInString(printable.String(s.Subject)); n <= explainSubjectWidth && n > width {
			width = n
		}
	}
	for i, s := range steps {
		subject := printable.String(s.Subject)
		if i > 0 && steps[i-1].Subject == s.Subject {
			subject = ""
		}
		if utf8.RuneCountInString(subject) > width {
			fmt.Fprintf(b, "%s\n", clipLine(subject, explainWidth))
			subject = ""
		}
		for _, line := range wrapText(printable.String(s.Detail), explainWidth-width-2, 2, whole) {
			fmt.Fprintf(b, "%-*s  %s\n", width, subject, line)
			subject = ""
		}
	}
}

// clipLine elides s in the middle when it is wider than width runes.
func clipLine(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	return elide.Middle(s, width-1)
}

// wrapText breaks s into lines of at most width runes at spaces, keeping
// its indentation on every line and indenting the lines after the first
// by hang more; a word wider than a line is cut. Of a text that takes more
// than explainMaxLines lines, the first lines and the last are kept, and a
// line between them says how many were left out, and that whole (such as
// "--format json") shows them, unless whole is empty.
func wrapText(s string, width, hang int, whole string) []string {
	width = max(width, 20)
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	body := strings.TrimLeft(s, " ")
	indent := s[:len(s)-len(body)]
	if len(indent)+hang > width/2 {
		indent, hang = "", 0
	}
	more := indent + strings.Repeat(" ", hang) // starts the lines after the first
	var lines []string
	line, start := indent, indent
	for _, word := range strings.Split(body, " ") {
		switch {
		case line == start:
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " "
		default:
			lines = append(lines, strings.TrimRight(line, " "))
			line, start = more, more
		}
		for utf8.RuneCountInString(line)+utf8.RuneCountInString(word) > width {
			cut := cutWord(word, width-utf8.RuneCountInString(line))
			lines = append(lines, line+word[:cut])
			line, start, word = more, more, word[cut:]
		}
		line += word
	}
	lines = append(lines, line)
	if n := len(lines); n > explainMaxLines {
		left := n - (explainMaxLines - 1)
		note := more + "… " + plural.Of(left, "line", "lines") + " left out"
		if whole != "" {
			note += "; " + whole + " shows them"
		}
		lines = append(lines[:explainMaxLines-2:explainMaxLines-2], note, lines[n-1])
	}
	return lines
}

// cutWord returns where to cut a word wider than n runes so that its
// first part fits in n: after the last comma or opening bracket in that
// part, else after its last '.', '/' or '-', else after n runes; a place
// in the first half is not taken.
func cutWord(word string, n int) int {
	end := len(string([]rune(word)[:n]))
	for _, marks := range []string{",([{", "./-"} {
		if i := strings.LastIndexAny(word[:end], marks) + 1; i > end/2 {
			return i
		}
	}
	return end
}
