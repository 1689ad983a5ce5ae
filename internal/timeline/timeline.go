// Package timeline draws a constraint's versions on a horizontal axis, one
// row per policy, as an inline SVG element: a filled mark where the policy
// admits a version, an empty one where it rejects it, a cross where the
// policy cannot judge it, and the selected version outlined. The SVG is
// written with html/template, uses no script and no external resource, and
// every string from input is escaped.
package timeline

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// Row is one policy's verdicts on the versions, in the Timeline's order.
type Row struct {
	// Policy is the row label.
	Policy string
	// Verdicts holds one verdict per version: Allow draws a filled mark,
	// Reject an empty mark and Invalid a cross.
	Verdicts []engine.Verdict
	// Selected is the index of the version the policy selects, -1 for
	// none; that version's mark is outlined.
	Selected int
	// Reasons is optional; when set it holds one reason per version,
	// shown on hover.
	Reasons []string
}

// Timeline is a constraint, its versions in precedence order, and one row
// per policy.
type Timeline struct {
	Constraint string
	Versions   []string
	Rows       []Row
}

// MaxVersions is the most versions drawn. A longer timeline keeps its first
// and last versions, the versions some row selects and then the versions
// where rows disagree, and says how many it left out.
const MaxVersions = 60

// Sort returns t with its versions in engine precedence order, the rows'
// verdicts, reasons and selections moved along. Versions that do not parse
// go last, in their given order; versions of equal precedence keep their
// given order. t is not modified.
func Sort(t Timeline) Timeline {
	n := len(t.Versions)
	parsed := make([]engine.Version, n)
	unread := make([]int, n) // 1 for a version that does not parse, so that it goes last
	for i, s := range t.Versions {
		v, err := engine.ParseVersion(s)
		if err != nil {
			unread[i] = 1
			v = engine.Version{} // equal to every other unread one
		}
		parsed[i] = v
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(unread[a], unread[b]), parsed[a].Compare(parsed[b]))
	})
	newIndex := make([]int, n)
	for to, from := range order {
		newIndex[from] = to
	}
	out := Timeline{Constraint: t.Constraint, Versions: make([]string, n)}
	for to, from := range order {
		out.Versions[to] = t.Versions[from]
	}
	for _, r := range t.Rows {
		nr := Row{Policy: r.Policy, Selected: r.Selected}
		if len(r.Verdicts) == n {
			nr.Verdicts = make([]engine.Verdict, n)
			for to, from := range order {
				nr.Verdicts[to] = r.Verdicts[from]
			}
		} else {
			nr.Verdicts = slices.Clone(r.Verdicts)
		}
		if len(r.Reasons) == n {
			nr.Reasons = make([]string, n)
			for to, from := range order {
				nr.Reasons[to] = r.Reasons[from]
			}
		} else {
			nr.Reasons = slices.Clone(r.Reasons)
		}
		if r.Selected >= 0 && r.Selected < n {
			nr.Selected = newIndex[r.Selected]
		}
		out.Rows = append(out.Rows, nr)
	}
	return out
}

// validate reports the first way t's rows do not line up with its versions.
func validate(t Timeline) error {
	n := len(t.Versions)
	for i, r := range t.Rows {
		if len(r.Verdicts) != n {
			return fmt.Errorf("timeline: row %d (%s) has %d verdicts for %d versions", i, printable.String(r.Policy), len(r.Verdicts), n)
		}
		if r.Reasons != nil && len(r.Reasons) != n {
			return fmt.Errorf("timeline: row %d (%s) has %d reasons for %d versions", i, printable.String(r.Policy), len(r.Reasons), n)
		}
		if r.Selected < -1 || r.Selected >= n {
			return fmt.Errorf("timeline: row %d (%s) selects version %d of %d", i, printable.String(r.Policy), r.Selected, n)
		}
		for j, v := range r.Verdicts {
			if v != engine.Allow && v != engine.Reject && v != engine.Invalid {
				return fmt.Errorf("timeline: row %d (%s) has an unknown verdict %d at version %d", i, printable.String(r.Policy), v, j)
			}
		}
	}
	return nil
}

// shown returns the indexes of the versions drawn, in order, and how many
// were left out.
func shown(t Timeline) ([]int, int) {
	n := len(t.Versions)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n <= MaxVersions {
		return all, 0
	}
	keep := make([]bool, n)
	count := 0
	add := func(i int) {
		if !keep[i] {
			keep[i] = true
			count++
		}
	}
	add(0)
	add(n - 1)
	for _, r := range t.Rows {
		if r.Selected >= 0 {
			add(r.Selected)
		}
	}
	for i := 0; i < n && count < MaxVersions; i++ {
		if disagree(t.Rows, i) {
			add(i)
		}
	}
	var idx []int
	for i, k := range keep {
		if k {
			idx = append(idx, i)
		}
	}
	return idx, n - len(idx)
}

// disagree reports whether the rows give version i different verdicts.
func disagree(rows []Row, i int) bool {
	for _, r := range rows[min(1, len(rows)):] {
		if r.Verdicts[i] != rows[0].Verdicts[i] {
			return true
		}
	}
	return false
}

// clean makes s safe to show: control and formatting characters are
// written as escapes, and characters XML does not allow are replaced.
func clean(s string) string {
	s = printable.String(s)
	return strings.Map(func(r rune) rune {
		if r == 0xFFFE || r == 0xFFFF {
			return utf8.RuneError
		}
		return r
	}, s)
}

// clip shortens s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Layout, in pixels.
const (
	colWidth   = 16
	rowHeight  = 22
	charWidth  = 7
	labelChars = 32 // longest policy label drawn; the full name is in <title>
	verChars   = 24 // longest version label drawn
	markRadius = 5
	pad        = 8
)

type markData struct {
	X, Y     int
	Policy   string
	Version  string
	Verdict  string
	Selected bool
	Title    string
	Cross    string // path data for an Invalid mark
}

type labelData struct {
	X, Y  int
	Text  string
	Title string
}

type svgData struct {
	Width, Height int
	Constraint    string
	Summary       string
	Omitted       string
	OmittedY      int
	AxisY         int
	AxisX1        int
	AxisX2        int
	Versions      []labelData
	Rotate        bool
	Policies      []labelData
	Grid          []labelData
	Marks         []markData
	Rings         []markData
}

var svgTemplate = template.Must(template.New("svg").Parse(`<svg class="timeline" role="img" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" font-family="sans-serif" font-size="12">
<title>{{.Summary}}</title>
<text class="constraint" x="8" y="16" font-weight="bold">{{.Constraint}}</text>
<line x1="{{.AxisX1}}" y1="{{.AxisY}}" x2="{{.AxisX2}}" y2="{{.AxisY}}" stroke="#999"/>
{{- range .Versions}}
<text class="version" x="{{.X}}" y="{{.Y}}"{{if $.Rotate}} transform="rotate(-60 {{.X}} {{.Y}})"{{else}} text-anchor="middle"{{end}}><title>{{.Title}}</title>{{.Text}}</text>
{{- end}}
{{- range .Grid}}
<line x1="{{.X}}" y1="{{.Y}}" x2="{{.X}}" y2="{{$.Height}}" stroke="#eee"/>
{{- end}}
{{- range .Policies}}
<text class="policy" x="{{.X}}" y="{{.Y}}" text-anchor="end"><title>{{.Title}}</title>{{.Text}}</text>
{{- end}}
{{- range .Rings}}
<circle class="selected" cx="{{.X}}" cy="{{.Y}}" r="9" fill="none" stroke="#d60" stroke-width="2"/>
{{- end}}
{{- range .Marks}}
{{- if eq .Verdict "invalid"}}
<path d="{{.Cross}}" stroke="#c00" stroke-width="2" fill="none" data-policy="{{.Policy}}" data-version="{{.Version}}" data-verdict="{{.Verdict}}" data-selected="{{.Selected}}"><title>{{.Title}}</title></path>
{{- else}}
<circle cx="{{.X}}" cy="{{.Y}}" r="5" stroke="#036" stroke-width="1.5" fill="{{if eq .Verdict "allow"}}#036{{else}}#fff{{end}}" data-policy="{{.Policy}}" data-version="{{.Version}}" data-verdict="{{.Verdict}}" data-selected="{{.Selected}}"><title>{{.Title}}</title></circle>
{{- end}}
{{- end}}
{{- if .Omitted}}
<text class="omitted" x="8" y="{{.OmittedY}}" font-style="italic">{{.Omitted}}</text>
{{- end}}
</svg>`))

// verbs describe each verdict in a mark's hover text.
var verbs = map[engine.Verdict]string{
	engine.Allow:   "allows",
	engine.Reject:  "rejects",
	engine.Invalid: "cannot judge",
}

// SVG returns the timeline as an SVG element, safe to embed in an
// html/template page. Every string from t is escaped. It fails when a row
// does not have one verdict (and, if any, one reason) per version or
// selects a version out of range.
func SVG(t Timeline) (template.HTML, error) {
	if err := validate(t); err != nil {
		return "", err
	}
	idx, omitted := shown(t)

	labelW := 0
	for _, r := range t.Rows {
		labelW = max(labelW, utf8.RuneCountInString(clip(clean(r.Policy), labelChars)))
	}
	labelW = labelW*charWidth + 2*pad
	verLen := 0
	for _, i := range idx {
		verLen = max(verLen, utf8.RuneCountInString(clip(clean(t.Versions[i]), verChars)))
	}
	rotate := len(idx) > 6 || verLen > 8
	header := 40
	if rotate {
		header = 30 + verLen*charWidth*87/100 // sin 60°
	}
	x0 := labelW + colWidth
	width := max(x0+len(idx)*colWidth+colWidth, 240)
	rowsTop := header + 14
	height := rowsTop + len(t.Rows)*rowHeight + pad
	d := svgData{
		Width:      width,
		Constraint: clean(t.Constraint),
		AxisY:      header + 4,
		AxisX1:     labelW,
		AxisX2:     width - pad,
		Rotate:     rotate,
	}
	if omitted > 0 {
		d.OmittedY = height + 6
		height += 22
		d.Omitted = fmt.Sprintf("%d of %d versions not shown (only the first, the last, the selected and those where the policies disagree are drawn)", omitted, len(t.Versions))
		width = max(width, len(d.Omitted)*6+2*pad)
		d.Width = width
	}
	d.Height = height
	d.Summary = fmt.Sprintf("constraint %s: %d versions, %d policies", d.Constraint, len(t.Versions), len(t.Rows))

	for col, i := range idx {
		x := x0 + col*colWidth
		v := clean(t.Versions[i])
		d.Versions = append(d.Versions, labelData{X: x, Y: header, Text: clip(v, verChars), Title: v})
		d.Grid = append(d.Grid, labelData{X: x, Y: header + 8})
	}
	for ri, r := range t.Rows {
		y := rowsTop + ri*rowHeight + rowHeight/2
		p := clean(r.Policy)
		d.Policies = append(d.Policies, labelData{X: labelW - pad, Y: y + 4, Text: clip(p, labelChars), Title: p})
		for col, i := range idx {
			x := x0 + col*colWidth
			v := clean(t.Versions[i])
			m := markData{
				X: x, Y: y,
				Policy:   p,
				Version:  v,
				Verdict:  r.Verdicts[i].String(),
				Selected: r.Selected == i,
			}
			m.Title = p + " " + verbs[r.Verdicts[i]] + " " + v
			if m.Selected {
				m.Title += " (selected)"
			}
			if r.Reasons != nil && r.Reasons[i] != "" {
				m.Title += ": " + clean(r.Reasons[i])
			}
			if r.Verdicts[i] == engine.Invalid {
				k := markRadius - 1
				m.Cross = fmt.Sprintf("M%d %dL%d %dM%d %dL%d %d", x-k, y-k, x+k, y+k, x-k, y+k, x+k, y-k)
			}
			d.Marks = append(d.Marks, m)
			if m.Selected {
				d.Rings = append(d.Rings, m)
			}
		}
	}
	var b bytes.Buffer
	if err := svgTemplate.Execute(&b, d); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}
