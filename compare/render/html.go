package render

import (
	"github.com/prerel/prerel/compare"

	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/timeline"
)

// htmlClassesPerPair is how many classes the HTML report lists per pair at
// most, the first in rank order, whatever Options.All says, so that
// a browser opens a report of every policy quickly (see also
// htmlClasses); the rest are counted, and the JSON report lists them all.
const htmlClassesPerPair = 50

// htmlClasses is about how many classes the HTML report lists in all: when
// the pairs it lists would pass it at htmlClassesPerPair each (with
// Options.All and many policies), each pair lists fewer, down to
// textClassesPerPair.
const htmlClasses = 4000

// htmlSplits is how many splits the HTML report lists, whatever
// Options.All says; the rest are counted.
const htmlSplits = 50

// htmlSplitsOpen is how many splits the HTML report shows before it folds
// the rest under a <details> element.
const htmlSplitsOpen = 10

// htmlCell is the side of a heatmap cell in pixels.
const htmlCell = 30

// renderHTML writes r as one self-contained HTML page (inline styles, no
// script, nothing fetched from the network), a table of contents linking
// to each section, then the answer first: how each policy differs from
// the reference, the case shapes that split the policies (the first
// htmlSplitsOpen open, the rest folded), the agreement matrix as a
// heatmap whose cells link to their pair, the classes of each pair with
// the reference (with opt.ShowAll, of every pair), each pair folded under
// its heading, the other pairs in one folded table, the selection
// comparison of domains of real histories, folded, and before all of
// them the drift from a baseline when opt.Drift is set and the policies
// that failed on some cases when r.PolicyErrors names any. Each note about
// what the page leaves out is said once. Every text that comes from the
// input is escaped.
func renderHTML(w io.Writer, r *compare.Report, opt Options) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	if len(r.Policies) == 0 {
		return errors.New("compare: render needs a report of at least one policy")
	}
	v := buildHTMLView(r, opt)
	e := &errWriter{w: w}
	if err := htmlReport.Execute(e, v); err != nil {
		return err
	}
	return e.err
}

// htmlView is what the HTML template draws.
type htmlView struct {
	Ref, RefNote   string
	Policies       []string
	Groups         []htmlGroup // the policies by group, when Options.Group is set
	Cases          string
	Domain         string
	Drift          *htmlDrift
	Summary        []htmlSummaryRow
	SummaryNote    string
	NextMajor      string      // the next-major case in words, "" for none
	Repeated       []string    // the counts several summary rows share, explained
	Splits         []htmlSplit // shown open
	SplitsFolded   []htmlSplit // shown under <details>
	SplitsShown    int
	SplitsLeft     int
	SplitCasesLeft int64
	Legend         string
	Matrix         htmlMatrix
	Pairs          []htmlPair // whose classes are listed
	OtherPairs     []htmlPair // whose classes are not: they agree, or leave out the reference
	PairsLeft      int
	PerPair        int
	Selection      *compare.SelectionReport
	PolicyErrors   []compare.PolicyError
	Hints          htmlHints
}

// htmlGroup is one group of policies, each with its mark.
type htmlGroup struct {
	Name     string
	Policies []htmlName
}

// htmlName is a policy and what a grouped report marks it as: "today's
// rule", "reference", or "".
type htmlName struct {
	Name, Mark string
}

// htmlSummaryRow is a summary row, its policies with their marks and,
// in a grouped report, their groups.
type htmlSummaryRow struct {
	compare.SummaryRow
	Names []htmlName
	Group string
}

// htmlSplit is a split and its sides in words.
type htmlSplit struct {
	compare.Split
	Sides string
}

// htmlHints are the clauses that tell how to see what the page leaves
// out, from Options.Hints; each is empty when its hint is.
type htmlHints struct {
	WriteBaseline template.HTML // "; rewrite it with … to see the changes per policy"
	JSONListsThem template.HTML // "; … lists them"
	JSONListsAll  template.HTML // "; … lists them all"
	SeeJSON       template.HTML // "; see …"
	ShowAllOrJSON template.HTML // "; … lists them, … has them all"
}

func newHTMLHints(h Hints) htmlHints {
	return htmlHints{
		WriteBaseline: template.HTML(hint("rewrite it with ", h.WriteBaseline, " to see the changes per policy", htmlCode)),
		JSONListsThem: template.HTML(hint("", h.JSON, " lists them", htmlCode)),
		JSONListsAll:  template.HTML(hint("", h.JSON, " lists them all", htmlCode)),
		SeeJSON:       template.HTML(hint("see ", h.JSON, "", htmlCode)),
		ShowAllOrJSON: template.HTML(showAllOrJSON(h, htmlCode)),
	}
}

// htmlDrift is the drift from a baseline, in words.
type htmlDrift struct {
	Name         string
	Matches      bool
	Exact        bool
	Policies     []compare.PolicyDrift
	Changes      []compare.Change
	ChangesLeft  int
	MaxShapes    int
	ChangeTotals string
}

// htmlMatrix is the agreement heatmap.
type htmlMatrix struct {
	Width, Height int
	LabelWidth    int
	Side          int // of a cell's square, a pixel less than htmlCell
	Labels        []htmlLabel
	Cells         []htmlMatrixCell
	Groups        []string   // the groups, in order, when the matrix is grouped
	Lines         []htmlLine // between two groups
}

// htmlLine is a line of the heatmap between two groups.
type htmlLine struct {
	X1, Y1, X2, Y2 int
}

// htmlLabel is the name of a row or the number of a column.
type htmlLabel struct {
	X, Y   int
	Text   string
	Anchor string
	Group  bool // the name of a group, written bold
}

// htmlMatrixCell is one ordered pair of policies.
type htmlMatrixCell struct {
	A, B            string
	X, Y            int
	TextX, TextY    int
	Agree, Diverge  int64
	Fill            string
	Text            string
	Title           string
	Link            string
	Diagonal, Known bool
}

// htmlClass is a class with the timeline of its witness.
type htmlClass struct {
	compare.Class
	Timeline template.HTML
}

// htmlPair is one pair's section.
type htmlPair struct {
	ID        string
	P         compare.Pair
	Share     string
	Causes    string
	Classes   []htmlClass
	Total     int
	Left      int
	LeftCases int64
	Listed    bool
	MaxKept   int
}

func buildHTMLView(r *compare.Report, opt Options) htmlView {
	ref := referenceOf(r.Reference, r.Policies)
	v := htmlView{
		Ref: ref, RefNote: referenceNote(ref, opt.Installers), Policies: r.Policies,
		Cases: casesText(r.Domain.Cases), Domain: r.Domain.Description,
		Legend: signatureLegend, Selection: r.Selection, PolicyErrors: r.PolicyErrors, Hints: newHTMLHints(opt.Hints),
		SummaryNote: fmt.Sprintf("admits more: cases a policy allows and %s does not; fewer: the reverse; "+
			"⊆ (⊇): it admits a subset (superset) of what %s admits here. (n%%): how common the constraint's shape is%s.",
			ref, ref, relevanceSource(r)),
	}
	groups := groupPolicies(r.Policies, opt)
	for _, g := range groups {
		hg := htmlGroup{Name: g.Name}
		for _, p := range g.Policies {
			hg.Policies = append(hg.Policies, htmlName{Name: p, Mark: policyMark(p, ref, opt)})
		}
		v.Groups = append(v.Groups, hg)
	}
	for _, row := range r.Summary {
		hr := htmlSummaryRow{SummaryRow: row}
		for _, p := range row.Policies {
			hr.Names = append(hr.Names, htmlName{Name: p, Mark: policyMark(p, ref, opt)})
		}
		if opt.Group != nil {
			hr.Group = rowGroups(row.Policies, opt)
		}
		v.Summary = append(v.Summary, hr)
	}
	v.NextMajor = strings.TrimPrefix(nextMajorText(r, ref), "next major: ")
	v.Repeated = repeatedCountsText(r, ref, r.ClassesByPair())
	if d := opt.Drift; d != nil {
		name := "the baseline"
		if opt.BaselinePath != "" {
			name += " " + opt.BaselinePath
		}
		shown := d.Changes[:min(len(d.Changes), markdownDriftChanges)]
		v.Drift = &htmlDrift{Name: name, Matches: d.Matches, Exact: d.Exact,
			Policies: d.Policies, Changes: shown, ChangesLeft: d.ChangeCount() - len(shown), MaxShapes: compare.MaxDriftShapes,
			ChangeTotals: plural.Of(d.ChangeCount(), "way", "ways")}
	}
	shown := r.Splits[:min(len(r.Splits), htmlSplits)]
	v.SplitsShown = len(shown)
	v.SplitsLeft = len(r.Splits) - len(shown)
	v.SplitCasesLeft = r.SplitCasesLeftOut
	for i, s := range shown {
		hs := htmlSplit{Split: s, Sides: sidesText(s, len(r.Policies))}
		if i < htmlSplitsOpen {
			v.Splits = append(v.Splits, hs)
		} else {
			v.SplitsFolded = append(v.SplitsFolded, hs)
		}
	}
	v.Matrix = buildHTMLMatrix(r, clusterOrder(r, ref), ref, opt)
	listed := func(p compare.Pair) bool { return p.Diverge > 0 && (opt.ShowAll || p.A == ref || p.B == ref) }
	perPair := htmlClassesPerPair
	if n := countFunc(r.Pairs, listed); n > 0 {
		perPair = max(textClassesPerPair, min(perPair, htmlClasses/n))
	}
	v.PerPair = perPair
	byPair := r.ClassesByPair()
	for _, p := range r.Pairs {
		classes := byPair(p.A, p.B)
		hp := htmlPair{ID: htmlPairID(p), P: p, Share: percent(p.Agree, p.Agree+p.Diverge), Total: len(classes),
			MaxKept: compare.ClassesPerPair(len(r.Pairs))}
		if len(classes) > 0 && listed(p) {
			hp.Listed = true
			hp.Causes = causeSummary(classes)
			shown := classes[:min(len(classes), perPair)]
			for _, c := range shown {
				hp.Classes = append(hp.Classes, htmlClass{Class: c, Timeline: witnessTimeline(c)})
			}
			hp.Left = len(classes) - len(shown)
			for _, c := range classes[len(shown):] {
				hp.LeftCases += c.Count
			}
		} else if len(classes) > 0 {
			v.PairsLeft++
		}
		if hp.Listed {
			v.Pairs = append(v.Pairs, hp)
		} else {
			v.OtherPairs = append(v.OtherPairs, hp)
		}
	}
	return v
}

// countFunc counts the pairs for which f holds.
func countFunc(pairs []compare.Pair, f func(compare.Pair) bool) int {
	n := 0
	for _, p := range pairs {
		if f(p) {
			n++
		}
	}
	return n
}

// witnessTimeline draws a class's witness: its constraint, its version,
// and a row for each policy of the pair, the version marked selected
// where the policy admits it. A witness the timeline cannot draw, as a
// report read from a file may hold, has none.
func witnessTimeline(c compare.Class) template.HTML {
	row := func(policy string, v engine.Verdict, reason string) timeline.Row {
		sel := -1
		if v == engine.Allow {
			sel = 0
		}
		return timeline.Row{Policy: policy, Verdicts: []engine.Verdict{v}, Selected: sel, Reasons: []string{reason}}
	}
	svg, err := timeline.SVG(timeline.Timeline{Constraint: c.Witness.Constraint, Versions: []string{c.Witness.Version},
		Rows: []timeline.Row{row(c.A, c.Witness.AVerdict, c.Witness.AReason), row(c.B, c.Witness.BVerdict, c.Witness.BReason)}})
	if err != nil {
		return ""
	}
	return svg
}

// buildHTMLMatrix lays out the heatmap: one row and one column per policy
// in the given order, a cell for every ordered pair of two different
// policies, the diagonal left empty. The darker a cell, the more cases
// the pair diverges on, relative to the pair that diverges most. With
// opt.Group set, the policies are grouped (the order kept within a
// group), each group named left of its first row and parted from the
// next by a line, and today's rule and the reference ref are marked.
func buildHTMLMatrix(r *compare.Report, order []string, ref string, opt Options) htmlMatrix {
	agree, diverge := agreeMatrix(r), divergeMatrix(r)
	var most int64
	for _, p := range r.Pairs {
		most = max(most, p.Diverge)
	}
	groups := groupPolicies(order, opt)
	if groups != nil {
		order = flatten(groups)
	}
	label := func(i int, p string) string {
		if mark := policyMark(p, ref, opt); mark != "" {
			return fmt.Sprintf("%s (%s) %d", p, mark, i+1)
		}
		return fmt.Sprintf("%s %d", p, i+1)
	}
	longest, longestGroup := 0, 0
	for i, p := range order {
		if groups != nil {
			longest = max(longest, len([]rune(label(i, p)))-3)
		} else {
			longest = max(longest, len([]rune(p)))
		}
	}
	for _, g := range groups {
		longestGroup = max(longestGroup, len([]rune(g.Name))+2)
	}
	m := htmlMatrix{LabelWidth: 7*(longest+longestGroup) + 40, Side: htmlCell - 1}
	top := 24
	m.Width = m.LabelWidth + htmlCell*len(order) + 4
	m.Height = top + htmlCell*len(order) + 4
	for i, p := range order {
		y := top + i*htmlCell
		m.Labels = append(m.Labels,
			htmlLabel{X: m.LabelWidth - 6, Y: y + htmlCell/2 + 4, Text: label(i, p), Anchor: "end"},
			htmlLabel{X: m.LabelWidth + i*htmlCell + htmlCell/2, Y: top - 8, Text: strconv.Itoa(i + 1), Anchor: "middle"})
	}
	first := 0
	for k, g := range groups {
		m.Groups = append(m.Groups, g.Name)
		m.Labels = append(m.Labels, htmlLabel{X: 4, Y: top + first*htmlCell + htmlCell/2 + 4, Text: g.Name, Anchor: "start", Group: true})
		if k > 0 {
			y, x := top+first*htmlCell, m.LabelWidth+first*htmlCell
			m.Lines = append(m.Lines, htmlLine{X1: 2, Y1: y, X2: m.Width, Y2: y}, htmlLine{X1: x, Y1: 2, X2: x, Y2: m.Height})
		}
		first += len(g.Policies)
	}
	for i, a := range order {
		for j, b := range order {
			x, y := m.LabelWidth+j*htmlCell, top+i*htmlCell
			c := htmlMatrixCell{A: a, B: b, X: x, Y: y, TextX: x + htmlCell/2, TextY: y + htmlCell/2 + 4, Diagonal: a == b}
			if a != b {
				n, ok := agree[[2]string{a, b}]
				c.Known = ok
				c.Agree, c.Diverge = n, diverge[[2]string{a, b}]
				c.Text = agreeCell(a, b, agree, r.Domain.Cases)
				c.Link = "#" + htmlPairID(canonicalPair(r, a, b))
				c.Fill = heatFill(c.Diverge, most)
				c.Title = fmt.Sprintf("%s vs %s: agree on %s of %s (%s), diverge on %s",
					a, b, thousands(c.Agree), thousands(c.Agree+c.Diverge), percent(c.Agree, c.Agree+c.Diverge), thousands(c.Diverge))
			}
			m.Cells = append(m.Cells, c)
		}
	}
	return m
}

// canonicalPair returns the report's pair of a and b, in its order.
func canonicalPair(r *compare.Report, a, b string) compare.Pair {
	if p, ok := r.PairOf(a, b); ok {
		return p
	}
	return compare.Pair{A: a, B: b}
}

// heatFill is a cell's colour: white for a pair that agrees on every
// case, darkening with the diverging cases, a square root making small
// differences visible.
func heatFill(diverge, most int64) string {
	t := 0.0
	if most > 0 {
		t = math.Sqrt(float64(diverge) / float64(most))
	}
	light := 97 - int(math.Round(57*t))
	return fmt.Sprintf("hsl(14,75%%,%d%%)", light)
}

// htmlPairID is the id of a pair's section: "pair-A--B", every byte of a
// name other than a letter, digit, "." or "_" written as "-" and its hex
// code, so that ids are unique and need no escaping in a link.
func htmlPairID(p compare.Pair) string {
	return "pair-" + idPart(p.A) + "--" + idPart(p.B)
}

func idPart(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "-%02x", c)
		}
	}
	return b.String()
}

var htmlFuncs = template.FuncMap{
	"thousands": thousands,
	"percent":   percent,
	"quote":     strconv.Quote,
	"join":      strings.Join,
	"plural":    func(n int64, one, many string) string { return plural.Of(n, one, many) },
	"pluralInt": func(n int, one, many string) string { return plural.Of(n, one, many) },
	"add":       func(a, b int) int { return a + b },
	"add64":     func(a, b int64) int64 { return a + b },
	"int64":     func(n int) int64 { return int64(n) },
	"same":      func(row htmlSummaryRow) bool { return row.Relation == "=" && row.Diverge == 0 },
}

var htmlReport = template.Must(template.New("report").Funcs(htmlFuncs).Parse(htmlTemplate))

const htmlTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>prerel compare</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:80em;padding:0 1em;color:#1d1d1f}
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1.05em;margin:.2em 0;display:inline}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ddd;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f5f5f7}td.n{text-align:right;white-space:nowrap}code{font:12.5px ui-monospace,Menlo,Consolas,monospace;background:#f5f5f7;padding:0 .2em}
.note{color:#555}.allow{color:#1a7f37}.reject{color:#b42318}.invalid{color:#8250df}
nav{background:#f5f5f7;padding:.4em .8em}nav a{margin-right:1em}a.top{font-size:.8em;font-weight:normal;margin-left:1em}
details{margin:.6em 0}summary{cursor:pointer}
svg text{font:11px ui-monospace,Menlo,Consolas,monospace}svg a:hover rect{stroke:#000;stroke-width:2}
section:target,details:target,tr:target{outline:2px solid #f0b429;outline-offset:4px}
</style>
</head>
<body>
<h1>prerel compare</h1>
<p><strong>{{len .Policies}} {{if eq (len .Policies) 1}}policy{{else}}policies{{end}}, each compared with <code>{{.Ref}}</code>{{.RefNote}}, on {{.Cases}}.</strong><br>
Domain: {{.Domain}}<br>
{{if .Groups}}Policies by group:{{range .Groups}}<br>
<strong>{{.Name}}</strong>: {{range $i, $p := .Policies}}{{if $i}}, {{end}}<code>{{$p.Name}}</code>{{with $p.Mark}} <em>({{.}})</em>{{end}}{{end}}{{end}}{{else}}Policies: {{range $i, $p := .Policies}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}{{end}}</p>
<nav id="contents"><strong>Contents:</strong>
{{if .Drift}}<a href="#drift">Drift</a>{{end}}{{if .PolicyErrors}}<a href="#policy-errors">Policy errors</a>{{end}}<a href="#summary">Summary</a>{{if .Splits}}<a href="#splits">Case shapes</a>{{end}}<a href="#agreement">Agreement</a><a href="#classes">Divergence classes</a>{{if .Selection}}<a href="#selection">Selection</a>{{end}}</nav>
{{with .Drift}}<section id="drift">
<h2>Drift from {{.Name}}<a class="top" href="#contents">contents</a></h2>
{{if .Matches}}<p><strong>The run matches {{.Name}}.</strong></p>
{{else}}<p><strong>The run differs from {{.Name}} in {{.ChangeTotals}}.</strong></p>
{{if .Exact}}{{if not .Policies}}<p>No verdict of any policy changed.</p>{{end}}
<ul>{{range .Policies}}<li><code>{{.Policy}}</code>: {{.MovesText}}</li>{{end}}</ul>
{{range .Policies}}<details><summary><h3>{{.Policy}}: the changed case shapes, most relevant first</h3></summary>
<table><tr><th>relevance</th><th>constraint</th><th>version</th><th>shape</th><th>change</th><th>cases</th></tr>
{{range .Classes}}<tr><td class="n">{{.Relevance}}</td><td><code>{{.Witness.Constraint}}</code></td><td><code>{{.Witness.Version}}</code></td><td><code>{{.Shape}}</code></td><td>{{.From}} → {{.To}}</td><td class="n">{{thousands .Count}}</td></tr>
{{end}}</table>
{{if .ClassesLeft}}<p class="note">{{pluralInt .ClassesLeft "more shape" "more shapes"}}.</p>{{end}}
{{if .CasesLeftOut}}<p class="note">{{plural .CasesLeftOut "changed case" "changed cases"}} of further shapes, past the {{$.Drift.MaxShapes}} told apart.</p>{{end}}
</details>
{{end}}{{else}}<p>The baseline has no per-case verdicts of this domain, so the drift is told by classes{{$.Hints.WriteBaseline}}.</p>{{end}}
<ul>{{range .Changes}}<li>{{.Text}}</li>{{end}}{{if .ChangesLeft}}<li>… and {{pluralInt .ChangesLeft "more change" "more changes"}}{{$.Hints.JSONListsThem}}</li>{{end}}</ul>
{{end}}</section>
{{end}}
{{with .PolicyErrors}}<section id="policy-errors">
<h2>Policies that failed on some cases<a class="top" href="#contents">contents</a></h2>
<p>Those cases are the policy&#39;s invalid verdicts, with the error as the reason.</p>
<ul>{{range .}}<li><code>{{.Policy}}</code> failed on {{plural .Cases "case" "cases"}}:<ul>
{{range .Errors}}<li class="invalid">{{.Reason}} ({{plural .Cases "case" "cases"}}; first: {{if .Version}}<code>{{.Constraint}}</code> with <code>{{.Version}}</code>{{else}}the constraint <code>{{.Constraint}}</code>{{end}})</li>
{{end}}{{with .OtherCases}}<li>and {{plural . "case" "cases"}} with other errors</li>
{{end}}</ul></li>
{{end}}</ul>
</section>
{{end}}<section id="summary">
<h2>How each policy differs from <code>{{.Ref}}</code><a class="top" href="#contents">contents</a></h2>
{{with .NextMajor}}<p><strong>{{.}}</strong></p>
{{end}}{{if not .Summary}}<p>Every policy agrees with <code>{{.Ref}}</code> on every case.</p>
{{else}}<table>
<tr><th>policies</th>{{if .Groups}}<th>group</th>{{end}}<th>agree</th><th>admits more</th><th>admits fewer</th><th>refuses</th><th>what it does differently</th></tr>
{{range .Summary}}<tr><td>{{if .Relation}}{{.Relation}} {{end}}{{range $i, $p := .Names}}{{if $i}}, {{end}}<code>{{$p.Name}}</code>{{with $p.Mark}} <em>({{.}})</em>{{end}}{{end}}{{if gt (len .Policies) 1}} (identical){{end}}</td>{{if $.Groups}}<td>{{.Group}}</td>{{end}}
<td class="n">{{percent .Agree (add64 .Agree .Diverge)}}</td><td class="n">{{thousands .AdmitsMore}}</td><td class="n">{{thousands .AdmitsFewer}}</td><td class="n">{{thousands .Refuses}}</td>
<td>{{if same .}}the same verdict on every case{{end}}{{range $i, $w := .Witnesses}}{{if $i}}<br>{{end}}<code>{{$w.Constraint}}</code> with <code>{{$w.Version}}</code>: {{$w.What}}{{with $w.Relevance}} ({{.}}){{end}}{{end}}</td></tr>
{{end}}</table>
<p class="note">{{.SummaryNote}}</p>{{range .Repeated}}
<p class="note">{{.}}</p>{{end}}{{end}}
</section>
{{if .Splits}}<section id="splits">
<h2>Case shapes that split the policies<a class="top" href="#contents">contents</a></h2>
<p>Most relevant first; {{.SplitsShown}} of {{thousands (int64 (add .SplitsShown .SplitsLeft))}}.</p>
<table><tr><th>relevance</th><th>constraint</th><th>version</th><th>shape</th><th>cases</th><th>sides</th></tr>
{{range .Splits}}<tr><td class="n">{{.Relevance}}</td><td><code>{{.Witness.Constraint}}</code></td><td><code>{{.Witness.Version}}</code></td><td><code>{{.Shape}}</code></td><td class="n">{{thousands .Count}}</td><td>{{.Sides}}</td></tr>
{{end}}</table>
{{if .SplitsFolded}}<details><summary>{{pluralInt (len .SplitsFolded) "more case shape" "more case shapes"}}</summary>
<table><tr><th>relevance</th><th>constraint</th><th>version</th><th>shape</th><th>cases</th><th>sides</th></tr>
{{range .SplitsFolded}}<tr><td class="n">{{.Relevance}}</td><td><code>{{.Witness.Constraint}}</code></td><td><code>{{.Witness.Version}}</code></td><td><code>{{.Shape}}</code></td><td class="n">{{thousands .Count}}</td><td>{{.Sides}}</td></tr>
{{end}}</table></details>{{end}}
{{if .SplitsLeft}}<p class="note">{{thousands (int64 .SplitsLeft)}} more shapes are left out{{$.Hints.JSONListsAll}}.</p>{{end}}
{{if .SplitCasesLeft}}<p class="note">{{plural .SplitCasesLeft "case" "cases"}} of further shapes, past the shapes a report keeps.</p>{{end}}
<p class="note">{{.Legend}}</p>
</section>
{{end}}
<section id="agreement">
<h2>Agreement<a class="top" href="#contents">contents</a></h2>
<p>The % of the {{.Cases}} on which two policies agree, rounded down (= every case), {{with .Matrix.Groups}}the policies grouped ({{join . ", "}}), similar policies next to each other within a group{{else}}similar policies next to each other{{end}}; the darker, the more cases diverge. Hover a cell for its counts, click it for the pair's classes.</p>
{{with .Matrix}}<svg xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="agreement matrix">
{{range .Labels}}<text x="{{.X}}" y="{{.Y}}" text-anchor="{{.Anchor}}"{{if .Group}} font-weight="bold"{{end}}>{{.Text}}</text>
{{end}}{{range .Lines}}<line x1="{{.X1}}" y1="{{.Y1}}" x2="{{.X2}}" y2="{{.Y2}}" stroke="#888"/>
{{end}}{{range .Cells}}{{if .Diagonal}}<text x="{{.TextX}}" y="{{.TextY}}" text-anchor="middle" fill="#999">-</text>
{{else}}<a href="{{.Link}}"><rect x="{{.X}}" y="{{.Y}}" width="{{$.Matrix.Side}}" height="{{$.Matrix.Side}}" fill="{{.Fill}}" data-a="{{.A}}" data-b="{{.B}}" data-agree="{{.Agree}}" data-diverge="{{.Diverge}}"><title>{{.Title}}</title></rect><text x="{{.TextX}}" y="{{.TextY}}" text-anchor="middle" pointer-events="none">{{.Text}}</text></a>
{{end}}{{end}}</svg>{{end}}
</section>
<section id="classes">
<h2>Divergence classes, most relevant first<a class="top" href="#contents">contents</a></h2>
{{if .Pairs}}<p class="note">Each pair lists at most its first {{.PerPair}} classes, each with its smallest case and a timeline of it; the rest are counted{{$.Hints.SeeJSON}}. Open a pair to see them.</p>{{end}}
{{range .Pairs}}<details id="{{.ID}}"><summary><h3>{{.P.A}} vs {{.P.B}}: {{thousands .P.Diverge}} diverged ({{.Share}} agree){{if .Total}}, {{pluralInt .Total "class" "classes"}}{{end}}</h3></summary>
<p>Causes: {{.Causes}}.</p>
<table><tr><th>cases</th><th>relevance</th><th>cause</th><th>signature</th><th>constraint</th><th>version</th><th><code>{{.P.A}}</code></th><th><code>{{.P.B}}</code></th><th>timeline</th></tr>
{{range .Classes}}<tr><td class="n">{{thousands .Count}}</td><td class="n">{{.Relevance}}</td><td>{{.Cause}}</td><td><code>{{.Signature}}</code></td><td><code>{{.Witness.Constraint}}</code></td><td><code>{{.Witness.Version}}</code></td>
<td><span class="{{.Witness.AVerdict}}">{{.Witness.AVerdict}}</span>: {{.Witness.AReason}}</td><td><span class="{{.Witness.BVerdict}}">{{.Witness.BVerdict}}</span>: {{.Witness.BReason}}</td><td>{{.Timeline}}</td></tr>
{{end}}</table>
{{if .Left}}<p class="note left-out">{{pluralInt .Left "more class" "more classes"}} with {{plural .LeftCases "case" "cases"}} are left out.</p>{{end}}
{{if .P.CasesLeftOut}}<p class="note">… and {{plural .P.CasesLeftOut "diverging case" "diverging cases"}} in further classes, past the {{thousands (int64 .MaxKept)}} a pair keeps.</p>{{end}}
</details>
{{end}}
{{if .OtherPairs}}{{if .PairsLeft}}<p class="note">The classes of the {{pluralInt .PairsLeft "diverging pair" "diverging pairs"}} without <code>{{.Ref}}</code> are left out{{$.Hints.ShowAllOrJSON}}.</p>{{end}}
<details id="other-pairs"><summary>{{if .Pairs}}The other {{pluralInt (len .OtherPairs) "pair" "pairs"}}{{else}}{{pluralInt (len .OtherPairs) "pair" "pairs"}}{{end}}</summary>
<table><tr><th>a</th><th>b</th><th>diverged</th><th>agree</th><th>classes</th></tr>
{{range .OtherPairs}}<tr id="{{.ID}}"><td><code>{{.P.A}}</code></td><td><code>{{.P.B}}</code></td><td class="n">{{thousands .P.Diverge}}</td><td class="n">{{.Share}}</td><td class="n">{{if eq .P.Diverge 0}}they agree on every case{{else}}{{.Total}}{{end}}</td></tr>
{{end}}</table></details>{{end}}
</section>
{{with .Selection}}<section id="selection">
<h2>Selection<a class="top" href="#contents">contents</a></h2>
<p>What each policy would install, over {{thousands .Groups}} constraint and history groups.</p>
<details><summary>{{pluralInt (len .Pairs) "pair" "pairs"}}, each with a group where they differ</summary>
<table><tr><th>a</th><th>b</th><th>agree</th><th>diverge</th><th>constraint</th><th>history</th><th>a installs</th><th>b installs</th></tr>
{{range .Pairs}}<tr><td><code>{{.A}}</code></td><td><code>{{.B}}</code></td><td class="n">{{thousands .Agree}}</td><td class="n">{{thousands .Diverge}}</td>{{with .Witness}}<td><code>{{.Constraint}}</code></td><td>{{.History}}</td><td><code>{{.ASelected}}</code></td><td><code>{{.BSelected}}</code></td>{{else}}<td></td><td></td><td></td><td></td>{{end}}</tr>
{{end}}</table></details>
</section>{{end}}
</body>
</html>
`
