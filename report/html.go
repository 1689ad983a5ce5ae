package report

import (
	"html/template"
	"io"
	"slices"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/timeline"
)

// Page is one self-contained HTML report: a heading, the answer, the
// timelines, then the text report.
type Page struct {
	// Title is the page's title and heading.
	Title string
	// Answer is the report's conclusion, shown first.
	Answer string
	// Groups, when there are any, are the versions grouped by the
	// pattern of their verdicts, shown after the answer.
	Groups []VersionGroup
	// GroupsNote says what the groups are and what was left out of them.
	GroupsNote string
	// Sections hold the timelines.
	Sections []Section
	// Omitted says what was left out of the sections, if anything.
	Omitted string
	// Text is the text report, shown preformatted.
	Text string
}

// Section is one timeline with a heading and a note.
type Section struct {
	// Heading is the section's heading; empty, it has none.
	Heading string
	// Note says what the timeline shows; empty, there is none.
	Note string
	// SVG is the timeline, as package timeline draws it.
	SVG template.HTML
}

// pageTemplate is the layout of every HTML page: inline CSS, no script,
// no external resource.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.1em; margin-top: 2em; }
.answer { font-size: 1.15em; font-weight: bold; }
.note { color: #555; }
.timeline-box { overflow-x: auto; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; }
.legend { color: #555; font-size: 0.9em; }
table.groups { border-collapse: collapse; margin: 0.5em 0; }
table.groups th, table.groups td { border: 1px solid #ddd; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
table.groups td.size { white-space: nowrap; }
table.groups tr.prerelease td { background: #e6effa; }
table.groups tr.agree td { color: #555; }
table.groups details { font-size: 0.9em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="answer">{{.Answer}}</p>
{{- if .Groups}}
<h2>The versions by their verdicts</h2>
<table class="groups">
<tr><th>versions</th><th>which</th><th>what sets them apart</th></tr>
{{- range .Groups}}
<tr class="{{.Kind}}"><td class="size">{{.Size}}</td><td>
{{- if .All}}<details><summary>{{range $i, $v := .Named}}{{if $i}}, …, {{end}}<code>{{$v}}</code>{{end}}</summary>{{range $i, $v := .All}}{{if $i}} {{end}}<code>{{$v}}</code>{{end}}</details>
{{- else}}{{range $i, $v := .Named}}{{if $i}}, {{end}}<code>{{$v}}</code>{{end}}{{end -}}
</td><td>{{.Says}}</td></tr>
{{- end}}
</table>
<p class="note">{{.GroupsNote}}</p>
{{- end}}
{{- if .Sections}}
<p class="legend">Filled mark: the policy admits the version; empty: it rejects it; cross: it cannot judge it; ring: the version it selects. Hover a mark for the reason.</p>
{{- end}}
{{- range .Sections}}
<section>
{{- if .Heading}}
<h2>{{.Heading}}</h2>
{{- end}}
{{- if .Note}}
<p class="note">{{.Note}}</p>
{{- end}}
<div class="timeline-box">{{.SVG}}</div>
</section>
{{- end}}
{{- if .Omitted}}
<p class="note">{{.Omitted}}</p>
{{- end}}
<h2>Report</h2>
<pre>{{.Text}}</pre>
</body>
</html>
`))

// WriteHTML writes p as an HTML page.
func WriteHTML(w io.Writer, p Page) error {
	return pageTemplate.Execute(w, p)
}

// CheckTimeline is the timeline of a check report, versions in precedence
// order, each policy's verdicts with their reasons; selected names the
// version each policy selects, by policy index, "" for none.
func CheckTimeline(rep CheckReport, selected []string) timeline.Timeline {
	t := timeline.Timeline{Constraint: rep.Constraint, Versions: make([]string, len(rep.Versions))}
	for i, row := range rep.Versions {
		t.Versions[i] = row.Version
	}
	for j, name := range rep.Policies {
		r := timeline.Row{
			Policy:   name,
			Verdicts: make([]engine.Verdict, len(rep.Versions)),
			Reasons:  make([]string, len(rep.Versions)),
			Selected: -1,
		}
		for i, row := range rep.Versions {
			r.Verdicts[i] = row.Results[j].Verdict
			r.Reasons[i] = row.Results[j].Reason
		}
		if j < len(selected) && selected[j] != "" {
			r.Selected = slices.Index(t.Versions, selected[j])
		}
		t.Rows = append(t.Rows, r)
	}
	return timeline.Sort(t)
}
