package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/internal/timeline"
)

// selectCommand is prerel select.
var selectCommand = command{
	name:    "select",
	args:    "[flags] CONSTRAINT [VERSION...]",
	summary: "the version each policy would install",
	help: `Show the version each policy would install from the available versions:
the newest it admits, or none. The text report shows at most 10 notes, each
naming 2 versions; --format json keeps every note, and html is a page with a
timeline of the verdicts and selections.`,
	flags: func(fs *flagSet) func(*env, []string) error {
		sources := addPolicySources(fs)
		names := addPolicies(fs)
		versionsFile := addVersionsFile(fs)
		format := addFormat(fs, "text", "json", "html")
		showAll := addShowAll(fs)
		return func(e *env, args []string) (err error) {
			finish, err := sources.load(e)
			defer func() { err = finish(err) }()
			if err != nil {
				return err
			}
			if len(args) < 1 {
				return usagef("select needs a constraint")
			}
			constraint, versions := args[0], args[1:]
			// Versions given as arguments must parse; a file's versions are
			// judged as they are, and each policy reports the ones it
			// cannot read.
			versions, err = gatherVersions(constraint, versions, *versionsFile)
			if err != nil {
				return err
			}
			if len(versions) == 0 {
				return usagef("select needs versions: as arguments or with --versions-file")
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return err
			}
			rep := engine.NewSelectReport(ps, constraint, versions)
			if format.value == "html" {
				return failure(writeSelectHTML(e.stdout, rep, engine.NewCheckReport(ps, constraint, versions), *showAll))
			}
			return render(e.stdout, format.value, rep, func(w io.Writer, rep engine.SelectReport) error {
				return writeSelectText(w, rep, *showAll)
			})
		}
	},
}

// addVersionsFile defines --versions-file, of check and select.
func addVersionsFile(fs *flagSet) *string {
	return fs.String("versions-file", "", "also read versions from `FILE`, one a line (blank lines and lines\nstarting with # are skipped; they are judged as they are)")
}

// writeSelectHTML writes a select report as an HTML page: what the
// policies select, the timeline of their verdicts (check, of the same
// policies and versions) with each selection outlined, then the text
// report.
func writeSelectHTML(w io.Writer, rep engine.SelectReport, check engine.CheckReport, showAll bool) error {
	var text strings.Builder
	if err := writeSelectText(&text, rep, showAll); err != nil {
		return err
	}
	selected := make([]string, len(rep.Policies))
	for i, r := range rep.Policies {
		if r.Selected != nil {
			selected[i] = *r.Selected
		}
	}
	svg, err := timeline.SVG(checkTimeline(check, selected))
	if err != nil {
		return err
	}
	return writeHTML(w, htmlPage{
		Title:    "prerel select: " + printable.String(rep.Constraint),
		Answer:   selectAnswer(rep),
		Sections: []htmlSection{{SVG: svg}},
		Text:     text.String(),
	})
}

// selectAnswer is the conclusion of a select report in one sentence.
func selectAnswer(rep engine.SelectReport) string {
	var distinct []string
	for _, r := range rep.Policies {
		if s := selectsText(r); !slices.Contains(distinct, s) {
			distinct = append(distinct, s)
		}
	}
	switch {
	case len(rep.Policies) == 1:
		return fmt.Sprintf("%s selects %s", printable.String(rep.Policies[0].Policy), distinct[0])
	case len(distinct) == 1 && distinct[0] == "none":
		return "no policy selects a version"
	case len(distinct) == 1:
		return fmt.Sprintf("every policy selects %s", distinct[0])
	}
	return fmt.Sprintf("the policies give %d different answers: %s", len(distinct), strings.Join(distinct, ", "))
}

// leftOut is the last line of a text report that cut something.
func leftOut(what string) string {
	return fmt.Sprintf("%s left out; --%s lists them", what, showAllFlag)
}

// writeSelectText writes a select report: the table of policies and the
// version each selects first, then the notes, each refusal and each group
// of unreadable versions (see selectNotes), then what was left out.
func writeSelectText(w io.Writer, rep engine.SelectReport, showAll bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "constraint: %s\navailable:  %s\n\n", printable.String(rep.Constraint), plural.Of(len(rep.Available), "version", "versions"))
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tSELECTS")
	for _, r := range rep.Policies {
		fmt.Fprintf(tw, "%s\t%s\n", r.Policy, selectsText(r))
	}
	tw.Flush()
	lines, omitted := selectNotes(rep, showAll)
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "\n%s\n", leftOut(plural.Of(omitted, "note", "notes")))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// selectNotes returns the note lines of a select report and how many
// notes (one per policy and version, as the JSON lists them) it left out.
//
// Policies that refuse the constraint with the same words share a line.
// Unreadable versions are grouped by the reason's shape (the reason with
// the version's text abstracted, see notes.Shape) and the exact set of
// policies that cannot read them: one line per group with the count and
// notes.MaxExamples examples, the versions other policies select first,
// then the newest. A version alone in its group keeps the line of old:
// `note: P cannot read "V": REASON`. At most notes.MaxLines lines are
// shown, the largest groups first. With showAll every line is shown and
// every group lists all its versions, in list order, below its line.
func selectNotes(rep engine.SelectReport, showAll bool) ([]string, int) {
	type block struct {
		lines []string
		notes int // how many notes the block stands for
		shown int // how many of them it names
	}
	var blocks []block
	var refusals []notes.Note
	var unreadable []notes.Note
	var selected []string
	for _, r := range rep.Policies {
		if r.Error != "" {
			refusals = append(refusals, notes.Note{Policy: r.Policy, Reason: printable.String(r.Error)})
		}
		if r.Selected != nil && !slices.Contains(selected, *r.Selected) {
			selected = append(selected, *r.Selected)
		}
		for _, u := range r.Unreadable {
			unreadable = append(unreadable, notes.Note{Policy: r.Policy, Subject: u.Version, Reason: printable.String(u.Reason)})
		}
	}
	for _, g := range notes.GroupNotes(refusals) {
		verb := "refuses"
		if len(g.Policies) > 1 {
			verb = "refuse"
		}
		blocks = append(blocks, block{
			lines: []string{fmt.Sprintf("note: %s %s the constraint: %s", notes.And(g.Policies), verb, g.Reason)},
			notes: g.Notes(), shown: g.Notes(),
		})
	}
	for _, g := range notes.GroupNotes(unreadable) {
		who := notes.And(g.Policies)
		b := block{notes: g.Notes(), shown: g.Notes()}
		switch n := len(g.Subjects); {
		case n == 1:
			b.lines = []string{fmt.Sprintf("note: %s cannot read %q: %s", who, g.Subjects[0], g.Reason)}
		case n <= notes.MaxExamples:
			b.lines = []string{fmt.Sprintf("note: %s cannot read %d versions, %s: %s", who, n, notes.And(printables(g.Subjects)), g.Shape)}
		case showAll:
			b.lines = append([]string{fmt.Sprintf("note: %s cannot read %d versions: %s", who, n, g.Shape)},
				notes.Wrap(printables(g.Subjects), "  ", 80)...)
		default:
			examples := notes.Relevant(g.Subjects, selected...)[:notes.MaxExamples]
			b.lines = []string{fmt.Sprintf("note: %s cannot read %d versions, e.g. %s: %s", who, n, notes.And(printables(examples)), g.Shape)}
			b.shown = len(g.Policies) * len(examples)
		}
		blocks = append(blocks, b)
	}
	var lines []string
	omitted := 0
	for i, b := range blocks {
		if !showAll && i >= notes.MaxLines {
			omitted += b.notes
			continue
		}
		lines = append(lines, b.lines...)
		omitted += b.notes - b.shown
	}
	return lines, omitted
}

// printables is texts from outside, each escaped by printable.String.
func printables(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = printable.String(t)
	}
	return out
}

// selectsText is the SELECTS cell of a row.
func selectsText(r engine.SelectRow) string {
	switch {
	case r.Error != "":
		return "invalid constraint"
	case r.Selected == nil:
		return "none"
	}
	return printable.String(*r.Selected)
}

// gatherVersions returns the versions given as arguments, which must
// parse (checkArgs, with the constraint), then those of file when one is
// named, which are judged as they are. A file that lists no versions is
// an error.
func gatherVersions(constraint string, args []string, file string) ([]string, error) {
	if err := checkArgs(constraint, args); err != nil {
		return nil, err
	}
	if file == "" {
		return args, nil
	}
	more, err := readVersionsFile(file)
	if err != nil {
		return nil, err
	}
	if len(more) == 0 {
		return nil, usagef("the versions file %s lists no versions", file)
	}
	return append(args, more...), nil
}

// readVersionsFile reads one version a line; blank lines and # comments are
// skipped, surrounding spaces trimmed. The file is a regular file or a
// pipe, read once, of at most safefile.ListLimit bytes, with lines of at
// most maxLine bytes; the null device reads as empty, and any other
// device is refused.
func readVersionsFile(path string) ([]string, error) {
	var data []byte
	if !isNullDevice(path) {
		var err error
		if data, err = safefile.ReadNamed(path, safefile.ListLimit); err != nil {
			return nil, inputError(fmt.Errorf("versions file: %w", err))
		}
	}
	var out []string
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if len(bytes.TrimSuffix(line, []byte("\r"))) > maxLine {
			return nil, usagef("versions file: %s:%d: line longer than %d bytes", path, n, maxLine)
		}
		text := strings.TrimSpace(string(line))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		out = append(out, text)
	}
	return out, nil
}

// isNullDevice reports whether path names the null device, which reads
// as empty.
func isNullDevice(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}
