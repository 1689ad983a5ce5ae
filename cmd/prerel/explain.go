package main

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

// explainCommand is prerel explain.
var explainCommand = command{
	name:    "explain",
	args:    "--policy P [flags] CONSTRAINT VERSION",
	summary: "one policy's reasoning, comparator by comparator",
	help: `Show how one policy reaches its verdict for a constraint and a version,
comparator by comparator: how each comparator was read ("~>" expanded,
partial versions filled), which held, which prerelease rule applied and why,
and the verdict. For a wrapped library it shows what the library was asked
and what it answered. A policy that does not explain itself still shows its
verdict and reason.`,
	flags: func(fs *flagSet) func(*env, []string) error {
		sources := addPolicySources(fs)
		name := fs.String("policy", "", "the `POLICY` to explain (see 'prerel policies')")
		format := addFormat(fs, "text", "json")
		return func(e *env, args []string) (err error) {
			finish, err := sources.load(e)
			defer func() { err = finish(err) }()
			if err != nil {
				return err
			}
			if *name == "" {
				return usagef("explain needs --policy: one of %s", strings.Join(e.registry.Names(), ", "))
			}
			if len(args) != 2 {
				return usagef("explain needs a constraint and one version, got %s", plural.Of(len(args), "argument", "arguments"))
			}
			constraint, version := args[0], args[1]
			if err := checkArgs(constraint, []string{version}); err != nil {
				return err
			}
			ps, err := e.resolve(policyList{*name})
			if err != nil {
				return err
			}
			return render(e.stdout, format.value, engine.NewExplainReport(ps[0], constraint, version), writeExplainText)
		}
	},
}

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

// writeExplainText writes an explain report: the policy and the pair, the
// steps, the verdict. The text is written at once, and an error writing
// it is returned; text from outside is escaped (printable.String). Lines
// fit explainWidth.
func writeExplainText(w io.Writer, rep engine.ExplainReport) error {
	var b strings.Builder
	field := func(label, value string) {
		for i, line := range wrapText(printable.String(value), explainWidth-12, 0) {
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
	writeSteps(&b, rep.Steps)
	b.WriteString("\n")
	field("verdict:", rep.Verdict.String())
	field("reason:", rep.Reason)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSteps prints the steps in two columns, the subject once for a run of
// steps about the same subject, each detail wrapped to fit explainWidth.
func writeSteps(b *strings.Builder, steps []engine.Step) {
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
		for _, line := range wrapText(printable.String(s.Detail), explainWidth-width-2, 2) {
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
// line between them says how many were left out.
func wrapText(s string, width, hang int) []string {
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
		note := more + "… " + plural.Of(left, "line", "lines") + " left out; --format json shows them"
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
