package timeline

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// mark is one drawn mark's data attributes.
type mark struct {
	Policy, Version, Verdict, Selected string
}

// parse decodes svg as XML and returns its marks and every text node.
func parse(t *testing.T, svg string) ([]mark, string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var marks []mark
	var text strings.Builder
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			if _, ok := attr["data-policy"]; ok {
				if tok.Name.Local != "circle" && tok.Name.Local != "path" {
					t.Errorf("mark is a <%s>", tok.Name.Local)
				}
				marks = append(marks, mark{attr["data-policy"], attr["data-version"], attr["data-verdict"], attr["data-selected"]})
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			text.Write(tok)
		}
	}
	if depth != 0 {
		t.Fatalf("unbalanced SVG")
	}
	return marks, text.String()
}

func sample() Timeline {
	return Timeline{
		Constraint: ">= 1.0.0-beta",
		Versions:   []string{"1.0.0-beta", "1.0.0", "1.1.0-rc.1", "v1.1.0"},
		Rows: []Row{
			{Policy: "strict", Verdicts: []engine.Verdict{engine.Allow, engine.Allow, engine.Reject, engine.Allow}, Selected: 3,
				Reasons: []string{"a", "b", "prerelease of another core", "d"}},
			{Policy: "loose", Verdicts: []engine.Verdict{engine.Allow, engine.Allow, engine.Allow, engine.Invalid}, Selected: 2},
			{Policy: "none", Verdicts: []engine.Verdict{engine.Reject, engine.Reject, engine.Reject, engine.Reject}, Selected: -1},
		},
	}
}

func TestSVGMarksEqualVerdicts(t *testing.T) {
	tl := sample()
	svg, err := SVG(tl)
	if err != nil {
		t.Fatal(err)
	}
	marks, _ := parse(t, string(svg))
	var want []mark
	for _, r := range tl.Rows {
		for i, v := range r.Verdicts {
			want = append(want, mark{r.Policy, tl.Versions[i], v.String(), fmt.Sprint(r.Selected == i)})
		}
	}
	if fmt.Sprint(marks) != fmt.Sprint(want) {
		t.Errorf("marks:\n got %v\nwant %v", marks, want)
	}
	s := string(svg)
	if !strings.Contains(s, "prerelease of another core") {
		t.Error("reason not shown")
	}
	if strings.Contains(s, "<script") || strings.Contains(s, "http://") || strings.Contains(s, "https://") {
		t.Error("SVG has a script or an external reference")
	}
	if n := strings.Count(s, `class="selected"`); n != 2 {
		t.Errorf("%d selection outlines, want 2", n)
	}
}

func TestSVGEscapesInput(t *testing.T) {
	const evil = `<script>alert(1)</script>`
	tl := Timeline{
		Constraint: evil + `"'&`,
		Versions:   []string{evil, "1.0.0\x1b[2J", "1.0.0\ufffe"},
		Rows: []Row{{Policy: evil, Verdicts: []engine.Verdict{engine.Invalid, engine.Allow, engine.Reject}, Selected: 1,
			Reasons: []string{evil, "", ""}}},
	}
	svg, err := SVG(tl)
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	if strings.Contains(s, "<script") || strings.Contains(s, "\x1b") {
		t.Errorf("input not escaped:\n%s", s)
	}
	if !strings.Contains(s, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("escaped input not shown:\n%s", s)
	}
	marks, text := parse(t, s)
	if len(marks) != 3 || marks[0].Policy != evil || marks[0].Version != evil || marks[0].Verdict != "invalid" {
		t.Errorf("marks: %v", marks)
	}
	if !strings.Contains(text, evil+`"'&`) {
		t.Errorf("constraint text lost: %q", text)
	}
}

func TestSVGRejectsMisalignedRows(t *testing.T) {
	for name, r := range map[string]Row{
		"verdicts": {Policy: "p", Verdicts: []engine.Verdict{engine.Allow}, Selected: -1},
		"reasons":  {Policy: "p", Verdicts: []engine.Verdict{engine.Allow, engine.Allow}, Reasons: []string{"x"}, Selected: -1},
		"selected": {Policy: "p", Verdicts: []engine.Verdict{engine.Allow, engine.Allow}, Selected: 2},
		"verdict":  {Policy: "p", Verdicts: []engine.Verdict{engine.Allow, 9}, Selected: -1},
	} {
		if _, err := SVG(Timeline{Versions: []string{"1.0.0", "2.0.0"}, Rows: []Row{r}}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSVGEmpty(t *testing.T) {
	svg, err := SVG(Timeline{Constraint: "*"})
	if err != nil {
		t.Fatal(err)
	}
	parse(t, string(svg))
}

func TestSort(t *testing.T) {
	tl := Timeline{
		Constraint: "*",
		Versions:   []string{"2.0.0", "bogus", "1.0.0", "1.0.0-rc.1", "v1.0.0+b"},
		Rows: []Row{{Policy: "p",
			Verdicts: []engine.Verdict{engine.Allow, engine.Invalid, engine.Reject, engine.Allow, engine.Reject},
			Reasons:  []string{"two", "bogus", "one", "rc", "one+b"},
			Selected: 0}},
	}
	got := Sort(tl)
	if w := "[1.0.0-rc.1 1.0.0 v1.0.0+b 2.0.0 bogus]"; fmt.Sprint(got.Versions) != w {
		t.Errorf("versions %v, want %s", got.Versions, w)
	}
	r := got.Rows[0]
	if w := "[rc one one+b two bogus]"; fmt.Sprint(r.Reasons) != w {
		t.Errorf("reasons %v, want %s", r.Reasons, w)
	}
	if w := "[allow reject reject allow invalid]"; fmt.Sprint(r.Verdicts) != w {
		t.Errorf("verdicts %v, want %s", r.Verdicts, w)
	}
	if r.Selected != 3 {
		t.Errorf("selected %d, want 3", r.Selected)
	}
	if tl.Versions[0] != "2.0.0" || tl.Rows[0].Verdicts[0] != engine.Allow {
		t.Error("Sort modified its argument")
	}
}

func TestSVGThinsLongTimelines(t *testing.T) {
	const n = 200
	tl := Timeline{Constraint: ">= 0.0.0"}
	a := Row{Policy: "a", Selected: 150}
	b := Row{Policy: "b", Selected: -1}
	for i := range n {
		tl.Versions = append(tl.Versions, fmt.Sprintf("0.%d.0", i))
		a.Verdicts = append(a.Verdicts, engine.Allow)
		v := engine.Allow
		if i%20 == 5 {
			v = engine.Reject
		}
		b.Verdicts = append(b.Verdicts, v)
	}
	tl.Rows = []Row{a, b}
	svg, err := SVG(tl)
	if err != nil {
		t.Fatal(err)
	}
	marks, text := parse(t, string(svg))
	got := map[string]bool{}
	for _, m := range marks {
		got[m.Version] = true
	}
	want := []string{"0.0.0", "0.199.0", "0.150.0"}
	for i := 5; i < n; i += 20 {
		want = append(want, fmt.Sprintf("0.%d.0", i))
	}
	for _, v := range want {
		if !got[v] {
			t.Errorf("version %s not drawn", v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d versions drawn, want %d", len(got), len(want))
	}
	if left := fmt.Sprintf("%d of %d versions not shown", n-len(want), n); !strings.Contains(text, left) {
		t.Errorf("no %q in %q", left, text)
	}
}
