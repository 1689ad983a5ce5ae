package impact

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/installer"
)

// TextWidth is the terminal width the text report fits.
const TextWidth = 80

// TextCases is how many cases of each class, sources without a history
// and other list entries the text report shows unless asked for all; the
// rest are counted in one line.
const TextCases = 5

// MarkdownCases is how many cases of each class the Markdown report shows
// unless asked for all, the first TextCases in the open and the rest in a
// collapsed section.
const MarkdownCases = 50

// Formats are the formats of the report, the default first: those
// Render writes.
var Formats = report.Formats{report.Text, report.Markdown, report.JSON, report.HTML}

// Render writes r in format f: report.Text for an 80-column terminal,
// report.Markdown for a pull-request comment, report.JSON for programs,
// report.HTML for a page with a timeline of each of the most relevant
// changed cases (of a report Run made).
// Unless opts.ShowAll, the text and Markdown reports list the first few
// cases, sources and notes, and say that opts.Hints.ShowAll (and, in
// Markdown, opts.Hints.JSON) lists the rest.
func Render(w io.Writer, f report.Format, r *Report, opts report.Options) error {
	switch f {
	case report.Text:
		return renderText(w, r, opts)
	case report.Markdown:
		return renderMarkdown(w, r, opts)
	case report.JSON:
		return report.WriteJSON(w, r)
	case report.HTML:
		return renderHTML(w, r, opts)
	}
	return &report.UnsupportedError{Report: "impact", Format: f}
}

// listsThem is " (HINT lists them)" for opts.Hints.ShowAll, "" without
// one: the end of a line that says what a list left out.
func listsThem(opts report.Options) string {
	if opts.Hints.ShowAll == "" {
		return ""
	}
	return " (" + opts.Hints.ShowAll + " lists them)"
}

// errWriter keeps the first write error; later writes do nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// line writes s wrapped to TextWidth, its later lines indented by
// indent+2 spaces, the first by indent.
func (e *errWriter) line(indent int, s string) {
	e.printf("%s\n", wrap(strings.Repeat(" ", indent)+s, indent+2))
}

// renderText writes r for an 80-column terminal, the answer first: what
// the data is and how many calls install differently, the counts of
// every class (of the calls with a history) split by cause, then each
// changed class with its smallest example and its largest cases, then
// what was not classified.
func renderText(w io.Writer, r *Report, opts report.Options) error {
	e := &errWriter{w: w}
	e.line(0, "prerel impact: what would install differently if Terraform adopted "+r.Policy)
	e.printf("\n")
	e.line(0, "data: "+dataSentence(r))
	e.line(0, "against: "+againstSentence(r))
	if r.Cooldown != "" {
		e.line(0, "cooldown: "+r.Policy+" under a minimum release age of "+r.Cooldown+" (the policy first), today's installers without one; cause cooldown: "+r.Policy+" would install what they do without it")
	}
	if s := r.Simulated; s != nil {
		e.line(0, "simulated: "+simulatedSentence(r))
	}
	e.printf("\n")
	e.line(0, "answer: "+answerSentence(r))
	e.printf("\n")
	writeTextTable(e, r)
	for _, c := range r.Classes {
		if c.Changed && c.Calls > 0 {
			writeTextClass(e, r, &c, opts)
		}
	}
	writeTextNotes(e, r, opts)
	return e.err
}

// dataSentence says what the calls are.
func dataSentence(r *Report) string {
	d := r.Data
	kinds := fmt.Sprintf("%s (%s, %s)", plural.Of(d.Calls, "call", "calls"),
		plural.Of(d.ModuleCalls, "module call", "module calls"),
		plural.Of(d.ProviderCalls, "provider requirement", "provider requirements"))
	var where string
	if r.Domain.Name == "corpus" {
		where = fmt.Sprintf("in %d of the %d public repositories read", d.Repositories, d.RepositoriesRead)
		if r.Domain.Sample {
			where += ", a sample of public repositories, not a census"
		}
	} else {
		where = fmt.Sprintf("in the configurations at %s, versions from %s", strings.Join(r.Domain.Dirs, ", "), r.Domain.VersionsFrom)
	}
	return fmt.Sprintf("%s %s; %s a version history (%d of %d distinct repository, source and constraint triples), %s",
		kinds, where, verb(d.WithHistory, "has", "have"), d.DistinctWithHistory, d.Distinct, verb(d.WithoutHistory, "does not", "do not"))
}

// verb is n with the verb for one or for many.
func verb(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// againstSentence names B.
func againstSentence(r *Report) string {
	a := r.Against
	if a.Today {
		return fmt.Sprintf("today's installers (%s), %s for module calls and %s for provider requirements", installersText(a.Installers), a.Module, a.Provider)
	}
	return a.Module + " for every call"
}

// simulatedSentence says what was simulated.
func simulatedSentence(r *Report) string {
	s := r.Simulated
	return fmt.Sprintf("X.Y.Z-beta.1 and X.Y.Z-rc.1 inserted before each release X.Y.Z of the %d of %d histories that publish no prerelease (%d of the %d calls with a history); the SIMULATED column counts them, and examples from such a history are marked",
		s.Histories, s.HistoriesUsed, s.Calls, r.Data.WithHistory)
}

// answerSentence is the answer in one sentence.
func answerSentence(r *Report) string {
	return fmt.Sprintf("%d of the %d calls with a history (%s; %s) would install differently under %s than under %s",
		r.Changed.Calls, r.Data.WithHistory, percentText(percent(r.Changed.Calls, r.Data.WithHistory)),
		plural.Of(r.Changed.Distinct, "distinct triple", "distinct triples"), r.Policy, againstShort(r))
}

// installersText names the releases: "Terraform 1.15.9, OpenTofu
// 1.12.6".
func installersText(names []string) string {
	var parts []string
	for _, s := range names {
		if r, err := installer.Parse(s); err == nil {
			s = r.Display()
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// againstShort names B in a few words.
func againstShort(r *Report) string {
	if r.Against.Today {
		return "today's installers"
	}
	return r.Against.Module
}

func percentText(p float64) string { return strconv.FormatFloat(p, 'f', 1, 64) + "%" }

// tableRow is the format of a row of the class table: 68 columns, 78
// with the SIMULATED column.
const tableRow = "%-31s  %5s %6s %8s %5s %7s"

func writeTextTable(e *errWriter, r *Report) {
	sim := r.Simulated != nil
	header := fmt.Sprintf(tableRow, "CLASS", "CALLS", "SHARE", "DISTINCT", "RULE", "READING")
	if sim {
		header += " SIMULATED"
	}
	e.printf("%s\n", header)
	for _, c := range r.Classes {
		rule, reading := "", ""
		if c.ByCause != nil {
			rule, reading = strconv.Itoa(c.ByCause.PrereleaseRule.Calls), strconv.Itoa(c.ByCause.Reading.Calls)
		}
		row := fmt.Sprintf(tableRow, c.Class, strconv.Itoa(c.Calls), percentText(c.Percent), strconv.Itoa(c.Distinct), rule, reading)
		if sim {
			row += fmt.Sprintf(" %9d", c.Simulated)
		}
		e.printf("%s\n", strings.TrimRight(row, " "))
	}
	e.printf("\n")
	e.line(0, "SHARE: of the calls with a history. DISTINCT: distinct repository, source and constraint triples. RULE, READING: the changed calls by cause, the prerelease rule or the reading of the constraint (the cause is what changes when the prereleases are taken out of the history and the constraint).")
}

// writeTextClass writes one changed class: its smallest example and its
// largest cases.
func writeTextClass(e *errWriter, r *Report, c *ClassReport, opts report.Options) {
	e.printf("\n")
	e.line(0, fmt.Sprintf("%s: %s (%s), %s, %s", c.Class, plural.Of(c.Calls, "call", "calls"), percentText(c.Percent),
		plural.Of(c.Distinct, "distinct triple", "distinct triples"), plural.Of(len(c.Cases), "case", "cases")))
	if x := c.Example; x != nil {
		e.line(2, "smallest example: "+x.Repo+" "+x.Place())
		e.line(4, fmt.Sprintf("%s %s, source %s, constraint %s", x.Kind, x.Name, x.Source, constraintText(x.Constraint)))
		e.line(4, installs(againstOf(r, x.Kind), x.Against)+"; "+installs(r.Policy, x.Policy))
		e.line(4, "cause: "+string(x.Cause))
		e.line(4, "history: "+historyText(&x.History))
		e.line(6, nearbyText(r, x, same, same))
	}
	shown := c.Cases
	if !opts.ShowAll {
		shown = shown[:min(len(shown), TextCases)]
	}
	e.line(2, "cases, the most calls first:")
	for _, k := range shown {
		e.line(4, fmt.Sprintf("%s in %s: %s %s %s: %s -> %s (%s%s)", plural.Of(k.Calls, "call", "calls"),
			reposText(r, k.Repos), k.Kind, k.Source, constraintText(k.Constraint),
			outcomeText(k.Against), outcomeText(k.Policy), k.Cause, simulatedMark(k.Simulated)))
	}
	if rest := len(c.Cases) - len(shown); rest > 0 {
		e.line(4, fmt.Sprintf("... %s%s", plural.Of(rest, "more case", "more cases"), listsThem(opts)))
	}
}

// reposText counts repositories, or directories for a directory domain.
func reposText(r *Report, n int) string {
	if r.Domain.Name == "dirs" {
		return plural.Of(n, "directory", "directories")
	}
	return plural.Of(n, "repository", "repositories")
}

// againstOf names B for a kind of call.
func againstOf(r *Report, k Kind) string {
	if k == KindModule {
		return r.Against.Module
	}
	return r.Against.Provider
}

// constraintText shows a constraint quoted, the empty one as any version.
func constraintText(c string) string {
	if c == "" {
		return `"" (any version)`
	}
	return strconv.Quote(c)
}

// installs says what a policy installs, in a sentence.
func installs(policy string, o Outcome) string {
	if o.Refused() {
		return policy + " refuses the constraint: " + o.Refuses
	}
	return policy + " installs " + outcomeText(o)
}

// outcomeText is an outcome in a word: the version, "nothing" or
// "refuses".
func outcomeText(o Outcome) string {
	switch {
	case o.Refused():
		return "refuses"
	case o.Selects == nil:
		return "nothing"
	}
	return *o.Selects
}

func simulatedMark(simulated bool) string {
	if simulated {
		return ", simulated history"
	}
	return ""
}

// historyText names an example's history.
func historyText(h *HistoryInfo) string {
	s := fmt.Sprintf("%s, %s", displayKey(h.Name), plural.Of(h.Published, "version", "versions"))
	if h.From != "" {
		s += ", " + h.From
	}
	if h.Simulated {
		s += fmt.Sprintf("; SIMULATED: %d prereleases inserted", h.Versions-h.Published)
	}
	return s + ":"
}

// nearbyText lists the versions around an example's selections, each
// written with code, the selected ones marked with the policy's name.
func nearbyText(r *Report, x *Example, code, text func(string) string) string {
	var parts []string
	for i, n := range x.History.Nearby {
		if n.Skipped > 0 {
			if i == 0 {
				parts = append(parts, text(fmt.Sprintf("(%d earlier)", n.Skipped)))
			} else {
				parts = append(parts, text(fmt.Sprintf("(%d more)", n.Skipped)))
			}
		}
		v := code(n.Version)
		switch {
		case n.Against && n.Policy:
			v += " " + text("[both]")
		case n.Against:
			v += " " + text("["+againstOf(r, x.Kind)+"]")
		case n.Policy:
			v += " " + text("["+r.Policy+"]")
		}
		parts = append(parts, v)
	}
	if x.History.After > 0 {
		parts = append(parts, text(fmt.Sprintf("(%d later)", x.History.After)))
	}
	if len(parts) == 0 {
		return text("(no versions)")
	}
	return strings.Join(parts, ", ")
}

// writeTextNotes writes what was not classified or left out.
func writeTextNotes(e *errWriter, r *Report, opts report.Options) {
	notes := notes(r, opts, same, same)
	if len(notes) == 0 {
		return
	}
	e.printf("\nNot classified, left out, or worth knowing:\n")
	for _, n := range notes {
		e.line(2, "- "+n)
	}
}

// same is the identity: outside text as it is, for the text report.
func same(s string) string { return s }

// notes are the lines after the classes, with code for outside text
// shown as code and text for the rest of the outside text.
func notes(r *Report, opts report.Options, code, text func(string) string) []string {
	var out []string
	limit := func(n int) int {
		if opts.ShowAll {
			return n
		}
		return min(n, TextCases)
	}
	if r.Data.WithoutHistory > 0 {
		var parts []string
		shown := r.WithoutHistory[:limit(len(r.WithoutHistory))]
		for _, s := range shown {
			parts = append(parts, fmt.Sprintf("%s %s", code(displayKey(s.SourceKey)), strconv.Itoa(s.Calls)))
		}
		if rest := len(r.WithoutHistory) - len(shown); rest > 0 {
			parts = append(parts, fmt.Sprintf("and %s%s", plural.Of(rest, "more source", "more sources"), listsThem(opts)))
		}
		out = append(out, fmt.Sprintf("%s without a history counted but not classified: %s",
			plural.Of(r.Data.WithoutHistory, "call", "calls"), strings.Join(parts, ", ")))
	}
	for _, l := range []struct {
		left LeftOut
		what string
	}{
		{r.NotVersions, "not versions"},
		{r.Repeated, "repeating a version offered already once the leading v is stripped"},
	} {
		if l.left.Lines == 0 {
			continue
		}
		var ex []string
		for _, x := range l.left.Examples {
			ex = append(ex, fmt.Sprintf("%s in %s", code(x.Line), code(displayKey(x.History))))
		}
		out = append(out, fmt.Sprintf("%s (in %s) left out of the offer, %s, e.g. %s",
			plural.Of(l.left.Lines, "history line", "history lines"), plural.Of(l.left.Histories, "history", "histories"),
			l.what, strings.Join(ex, ", ")))
	}
	if rb := r.RefusedByBoth; rb.Calls > 0 {
		cs := make([]string, len(rb.Constraints))
		for i, c := range rb.Constraints {
			cs[i] = code(c)
		}
		out = append(out, fmt.Sprintf("%s with a constraint both policies refuse, counted as unchanged: %s",
			plural.Of(rb.Calls, "call", "calls"), strings.Join(cs, ", ")))
	}
	for _, g := range unreadGroups(r.Unread) {
		shown := g.modules[:limit(len(g.modules))]
		names := make([]string, len(shown))
		for i, u := range shown {
			names[i] = fmt.Sprintf("%s %s (%s, %s)", code(u.Dir), code(u.Module), text(placeOr(u.Pos)), code(u.Source))
		}
		if rest := len(g.modules) - len(shown); rest > 0 {
			names = append(names, fmt.Sprintf("and %d more%s", rest, listsThem(opts)))
		}
		out = append(out, fmt.Sprintf("%s whose own module calls and providers are not counted (%s): %s",
			plural.Of(len(g.modules), "module", "modules"), text(g.reason), strings.Join(names, ", ")))
	}
	if n := len(r.Skipped); n > 0 {
		shown := r.Skipped[:limit(n)]
		for _, s := range shown {
			out = append(out, "no version to select, not counted: "+text(s))
		}
		if rest := n - len(shown); rest > 0 {
			out = append(out, fmt.Sprintf("%s with no version to select%s", plural.Of(rest, "more source", "more sources"), listsThem(opts)))
		}
	}
	problems := r.problemLines(opts.ShowAll)
	shown := problems[:limit(len(problems))]
	for _, p := range shown {
		out = append(out, "versions not listed: "+text(p.text))
	}
	rest := 0
	for _, p := range problems[len(shown):] {
		rest += p.calls
	}
	if rest > 0 {
		out = append(out, fmt.Sprintf("and %s whose versions were not listed%s", plural.Of(rest, "more call", "more calls"), listsThem(opts)))
	}
	return out
}

// unreadGroup is the modules not read for one reason.
type unreadGroup struct {
	reason  string
	modules []Unread
}

// unreadGroups groups modules not read by reason, in order of first
// appearance.
func unreadGroups(us []Unread) []unreadGroup {
	var out []unreadGroup
	index := map[string]int{}
	for _, u := range us {
		i, ok := index[u.Reason]
		if !ok {
			i = len(out)
			index[u.Reason] = i
			out = append(out, unreadGroup{reason: u.Reason})
		}
		out[i].modules = append(out[i].modules, u)
	}
	return out
}

// defaultHost is the registry host a source address names when it names
// none.
const defaultHost = "registry.terraform.io/"

// displayKey is a source key without the default registry host.
func displayKey(k string) string { return strings.TrimPrefix(k, defaultHost) }

// wrap breaks s into lines of at most TextWidth columns at spaces,
// indenting the lines after the first by indent. Spaces inside double
// quotes (a quoted constraint) do not break a line. A word longer than a
// line is broken after a "/" (a long source address), or else stands on a
// line of its own.
func wrap(s string, indent int) string {
	lead := len(s) - len(strings.TrimLeft(s, " "))
	var b strings.Builder
	b.WriteString(s[:lead])
	col := lead
	first := true
	for _, w := range splitWords(s[lead:]) {
		for i, piece := range breakWord(w, TextWidth-indent) {
			n := len([]rune(piece))
			switch {
			case first:
			case col+n+btoi(i == 0) > TextWidth:
				b.WriteString("\n")
				b.WriteString(strings.Repeat(" ", indent))
				col = indent
			case i == 0:
				b.WriteByte(' ')
				col++
			}
			first = false
			b.WriteString(piece)
			col += n
		}
	}
	return b.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// breakWord cuts a word longer than width into pieces that end in "/",
// each as long as fits; a word without "/" stays whole.
func breakWord(w string, width int) []string {
	var out []string
	for len([]rune(w)) > width {
		cut := strings.LastIndex(string([]rune(w)[:width]), "/")
		if cut <= 0 {
			break
		}
		out = append(out, w[:cut+1])
		w = w[cut+1:]
	}
	return append(out, w)
}

// splitWords splits s at spaces outside double quotes (a backslash
// escapes a quote inside them).
func splitWords(s string) []string {
	var words []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ' ' && !quoted:
			if i > start {
				words = append(words, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		words = append(words, s[start:])
	}
	return words
}

// renderMarkdown writes r as GitHub-flavoured Markdown for a pull-request
// comment: the data and the answer, the table of classes, each changed
// class with its smallest example and a table of its cases (the first
// TextCases in the open, the rest up to MarkdownCases in a collapsed
// section, all of them with ShowAll), then the notes.
func renderMarkdown(w io.Writer, r *Report, opts report.Options) error {
	e := &errWriter{w: w}
	e.printf("## prerel impact: what would install differently under %s\n\n", markdown.Code(r.Policy))
	e.printf("**Data:** %s.  \n", markdown.Escape(dataSentence(r)))
	e.printf("**Against:** %s.  \n", markdown.Escape(againstSentence(r)))
	if r.Simulated != nil {
		e.printf("**Simulated:** %s.  \n", markdown.Escape(strings.Replace(simulatedSentence(r), "the SIMULATED column", "the simulated column", 1)))
	}
	e.printf("\n**%s.**\n\n", markdown.Escape(upperFirst(answerSentence(r))))

	sim := r.Simulated != nil
	e.printf("| class | calls | share | distinct | prerelease rule | reading |")
	if sim {
		e.printf(" simulated |")
	}
	e.printf("\n|---|---:|---:|---:|---:|---:|")
	if sim {
		e.printf("---:|")
	}
	e.printf("\n")
	for _, c := range r.Classes {
		rule, reading := "", ""
		if c.ByCause != nil {
			rule, reading = strconv.Itoa(c.ByCause.PrereleaseRule.Calls), strconv.Itoa(c.ByCause.Reading.Calls)
		}
		name := markdown.CodeCell(string(c.Class))
		if c.Changed && c.Calls > 0 {
			name = "**" + name + "**"
		}
		e.printf("| %s | %d | %s | %d | %s | %s |", name, c.Calls, percentText(c.Percent), c.Distinct, rule, reading)
		if sim {
			e.printf(" %d |", c.Simulated)
		}
		e.printf("\n")
	}
	e.printf("\nShare: of the calls with a history. Distinct: distinct repository, source and constraint triples. " +
		"Prerelease rule, reading: the changed calls by cause (what changes when the prereleases are taken out of the history and the constraint).\n")

	for _, c := range r.Classes {
		if c.Changed && c.Calls > 0 {
			writeMarkdownClass(e, r, &c, opts)
		}
	}
	if ns := notes(r, opts, markdown.Code, markdown.Escape); len(ns) > 0 {
		e.printf("\n### Not classified, left out, or worth knowing\n\n")
		for _, n := range ns {
			e.printf("- %s\n", n)
		}
	}
	return e.err
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func writeMarkdownClass(e *errWriter, r *Report, c *ClassReport, opts report.Options) {
	e.printf("\n### %s: %s (%s)\n\n", markdown.Code(string(c.Class)), plural.Of(c.Calls, "call", "calls"), percentText(c.Percent))
	e.printf("%s, %s.\n\n", upperFirst(plural.Of(c.Distinct, "distinct triple", "distinct triples")), plural.Of(len(c.Cases), "case", "cases"))
	if x := c.Example; x != nil {
		e.printf("Smallest example: %s %s, %s %s, source %s, constraint %s: %s installs %s, %s installs %s (cause: %s).  \n",
			markdown.Code(x.Repo), markdown.Code(x.Place()), x.Kind, markdown.Code(x.Name), markdown.Code(x.Source),
			constraintMarkdown(x.Constraint), markdown.Code(againstOf(r, x.Kind)), outcomeMarkdown(x.Against),
			markdown.Code(r.Policy), outcomeMarkdown(x.Policy), x.Cause)
		h := &x.History
		from := ""
		if h.From != "" {
			from = ", " + markdown.Escape(h.From)
		}
		sim := ""
		if h.Simulated {
			sim = fmt.Sprintf("; **simulated**: %d prereleases inserted", h.Versions-h.Published)
		}
		e.printf("History %s, %s%s%s: %s\n\n", markdown.Code(displayKey(h.Name)), plural.Of(h.Published, "version", "versions"), from, sim,
			nearbyText(r, x, markdown.Code, markdown.Escape))
	}
	shown := c.Cases
	if !opts.ShowAll {
		shown = shown[:min(len(shown), MarkdownCases)]
	}
	open := shown[:min(len(shown), TextCases)]
	writeMarkdownCases(e, r, open)
	if rest := shown[len(open):]; len(rest) > 0 {
		e.printf("\n<details><summary>%s</summary>\n\n", plural.Of(len(rest), "more case", "more cases"))
		writeMarkdownCases(e, r, rest)
		e.printf("\n</details>\n")
	}
	if rest := len(c.Cases) - len(shown); rest > 0 {
		var hints []string
		for _, h := range []string{opts.Hints.ShowAll, opts.Hints.JSON} {
			if h != "" {
				hints = append(hints, markdown.Code(h))
			}
		}
		how := ""
		if len(hints) > 0 {
			how = " (" + strings.Join(hints, " or ") + " lists them)"
		}
		e.printf("\n%s are left out%s.\n", plural.Of(rest, "more case", "more cases"), how)
	}
}

func writeMarkdownCases(e *errWriter, r *Report, cs []Case) {
	repos := "repositories"
	if r.Domain.Name == "dirs" {
		repos = "directories"
	}
	e.printf("| calls | %s | kind | source | constraint | %s | %s | cause |\n", repos, againstHeader(r), markdown.CodeCell(r.Policy))
	e.printf("|---:|---:|---|---|---|---|---|---|\n")
	for _, k := range cs {
		cause := string(k.Cause)
		if k.Simulated {
			cause += ", simulated"
		}
		e.printf("| %d | %d | %s | %s | %s | %s | %s | %s |\n", k.Calls, k.Repos, k.Kind, markdown.CodeCell(k.Source),
			strings.ReplaceAll(constraintMarkdown(k.Constraint), "|", `\|`), cellOutcome(k.Against), cellOutcome(k.Policy), cause)
	}
}

// againstHeader names B in a table's header.
func againstHeader(r *Report) string {
	if r.Against.Today {
		return "today"
	}
	return markdown.CodeCell(r.Against.Module)
}

func constraintMarkdown(c string) string {
	if c == "" {
		return markdown.Empty + " (any version)"
	}
	return markdown.Code(c)
}

func outcomeMarkdown(o Outcome) string {
	switch {
	case o.Refused():
		return "nothing: it refuses the constraint (" + markdown.Escape(o.Refuses) + ")"
	case o.Selects == nil:
		return "nothing"
	}
	return markdown.Code(*o.Selects)
}

func cellOutcome(o Outcome) string {
	switch {
	case o.Refused():
		return "refuses"
	case o.Selects == nil:
		return "none"
	}
	return markdown.CodeCell(*o.Selects)
}
