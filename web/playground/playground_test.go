package playground

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/report"
)

func newPlayground(t *testing.T) *Playground {
	t.Helper()
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// cases are requests whose answers are checked against the engine and
// the catalogue directly.
var cases = []struct {
	name, constraint, versions string
}{
	{"range with prereleases", ">= 1.0.0-alpha, < 2.0.0, != 1.2.0", "0.9.0\n1.0.0-alpha\n1.0.0-rc.1\n1.0.0\n1.1.0-beta.2\n1.2.0\n1.5.0\n2.0.0-beta\n2.0.0"},
	{"pessimistic", "~> 1.2", "1.1.9\n1.2.0\n1.3.0-rc.1\n1.9.9\n2.0.0-alpha"},
	{"pessimistic prerelease", "~> 1.2.0-rc1", "1.2.0-beta\n1.2.0-rc1\n1.2.0-rc2\n1.2.0\n1.2.5\n1.3.0-rc1"},
	{"exact prerelease", "= 2.0.0-rc1", "2.0.0-rc1\n2.0.0\n  # a comment\n\n v2.0.0-rc1 "},
	{"empty constraint", "", "1.0.0\n1.1.0-beta\n2.0.0"},
	{"unreadable versions", ">= 1.0", "1.0\nnot-a-version\n1.0.0_next\n<img src=x onerror=alert(1)>\n1.0.0"},
	{"constraint the engine refuses", ">= 1.0.0, <img src=x onerror=alert(1)>", "1.0.0\n2.0.0"},
	{"no versions", ">= 1.0", "# nothing\n"},
}

// TestEvaluateMatchesEngine checks every verdict, reason and selection
// of Evaluate against engine.Evaluate and engine.Select with each policy
// of the catalogue.
func TestEvaluateMatchesEngine(t *testing.T) {
	p := newPlayground(t)
	all := catalogue.New().All()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := p.Evaluate(Request{Constraint: tc.constraint, Versions: tc.versions})
			if err != nil {
				t.Fatal(err)
			}
			versions := SplitVersions(tc.versions)
			if len(a.Versions) != len(versions) || len(a.Check.Versions) != len(versions) {
				t.Fatalf("%d versions judged, want %d", len(a.Check.Versions), len(versions))
			}
			if len(a.Policies) != len(all) {
				t.Fatalf("%d policies run, want every one of the catalogue's %d", len(a.Policies), len(all))
			}
			_, perr := engine.ParseConstraint(tc.constraint)
			if (perr != nil) != (a.ConstraintError != "") {
				t.Errorf("ConstraintError %q, the parser says %v", a.ConstraintError, perr)
			}
			for j, pol := range all {
				if a.Policies[j].Name != pol.Name() || a.Policies[j].Origin != OriginCatalogue || a.Check.Policies[j] != pol.Name() {
					t.Errorf("policy %d is %+v, want %s", j, a.Policies[j], pol.Name())
				}
				for i, v := range versions {
					got := a.Check.Versions[i].Results[j]
					want := engine.Evaluate(pol, tc.constraint, v)
					if got.Verdict != want.Verdict || got.Reason != engine.ClipReason(want.Reason) {
						t.Errorf("%s on %q: %s (%s), engine.Evaluate says %s (%s)", pol.Name(), v, got.Verdict, got.Reason, want.Verdict, want.Reason)
					}
				}
				sel, err := engine.Select(pol, tc.constraint, versions)
				row := a.Select.Policies[j]
				switch {
				case err != nil:
					if row.Error == "" || row.Selected != nil {
						t.Errorf("%s selects %v, engine.Select refuses: %v", pol.Name(), row.Selected, err)
					}
				case !sel.Found:
					if row.Selected != nil {
						t.Errorf("%s selects %q, engine.Select none", pol.Name(), *row.Selected)
					}
				case row.Selected == nil || *row.Selected != sel.Version:
					t.Errorf("%s selects %v, engine.Select %q", pol.Name(), row.Selected, sel.Version)
				}
			}
			if a.Summary == "" {
				t.Error("no summary")
			}
			if len(versions) > 0 {
				checkSVG(t, a.Timeline, len(all)*len(versions))
			} else if a.Timeline != "" {
				t.Errorf("a timeline without versions: %.80q", a.Timeline)
			}
		})
	}
}

// checkSVG checks that svg is a well-formed XML document in the SVG
// namespace, as the page parses it, with the given number of marks (one
// per verdict, for at most timeline.MaxVersions versions).
func checkSVG(t *testing.T, svg string, marks int) {
	t.Helper()
	if !strings.HasPrefix(svg, svgNamespace) {
		t.Errorf("the timeline does not start with %q: %.80q", svgNamespace, svg)
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the timeline is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("element %s is in namespace %q", se.Name.Local, se.Name.Space)
			}
			for _, a := range se.Attr {
				if a.Name.Local == "data-verdict" {
					n++
				}
			}
		}
	}
	if n != marks {
		t.Errorf("the timeline has %d marks, want %d", n, marks)
	}
}

func TestEvaluateChosenPolicies(t *testing.T) {
	p := newPlayground(t)
	tests := []struct {
		name      string
		policies  []string
		want      []string
		wantNotes int
	}{
		{"all", nil, catalogue.New().Names(), 0},
		{"in the order given", []string{"strict", "cargo"}, []string{"strict", "cargo"}, 0},
		{"repeated", []string{"cargo", "cargo"}, []string{"cargo"}, 0},
		{"unknown", []string{"cargo", "no-such", "<b>x</b>"}, []string{"cargo"}, 2},
		{"none known", []string{"no-such"}, []string{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := p.Evaluate(Request{Constraint: ">= 1.0", Versions: "1.0.0\n2.0.0-beta", Policies: tt.policies})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.Check.Policies, tt.want) || len(a.Policies) != len(tt.want) {
				t.Errorf("policies %q, want %q", a.Check.Policies, tt.want)
			}
			if len(a.Notes) != tt.wantNotes {
				t.Errorf("notes %q, want %d", a.Notes, tt.wantNotes)
			}
		})
	}
}

// TestHCLPolicies checks pasted HCL against the same file loaded by
// hclpolicy.Load, as prerel check --policy-file loads it.
func TestHCLPolicies(t *testing.T) {
	p := newPlayground(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "designs", "*.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no designs: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, diags := hclpolicy.Load(file, hclpolicy.Options{})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			for _, tc := range cases {
				a, err := p.Evaluate(Request{Constraint: tc.constraint, Versions: tc.versions, HCL: string(src)})
				if err != nil {
					t.Fatal(err)
				}
				if len(a.HCLErrors) > 0 {
					t.Fatalf("HCL errors: %q", a.HCLErrors)
				}
				n := len(catalogue.New().All())
				if len(a.Policies) != n+len(want) {
					t.Fatalf("%d policies, want %d and the file's %d", len(a.Policies), n, len(want))
				}
				for k, pol := range want {
					j := n + k
					if a.Policies[j].Name != pol.Name() || a.Policies[j].Origin != OriginHCL {
						t.Fatalf("policy %d is %+v, want %s from the HCL", j, a.Policies[j], pol.Name())
					}
					for i, v := range a.Versions {
						got := a.Check.Versions[i].Results[j]
						w := engine.Evaluate(pol, tc.constraint, v)
						if got.Verdict != w.Verdict {
							t.Errorf("%s: %s on %q: %s, loaded from the file: %s", tc.name, pol.Name(), v, got.Verdict, w.Verdict)
						}
					}
					x, err := p.Explain(ExplainRequest{Request: Request{Constraint: tc.constraint, Versions: tc.versions, HCL: string(src)}, Policy: pol.Name(), Version: "1.0.0"})
					if err != nil {
						t.Fatal(err)
					}
					if w := engine.Explain(pol, tc.constraint, "1.0.0"); x.Verdict != w.Result.Verdict || len(x.Steps) != len(w.Steps) {
						t.Errorf("%s: explain %s: %s in %d steps, loaded from the file: %s in %d", tc.name, pol.Name(), x.Verdict, len(x.Steps), w.Result.Verdict, len(w.Steps))
					}
				}
			}
		})
	}
}

func TestHCLErrors(t *testing.T) {
	p := newPlayground(t)
	tests := []struct {
		name, text, want string
	}{
		{"syntax", `policy "x" {`, "pasted.hcl:1:"},
		{"no policy", `# nothing`, "No policy in the policy text"},
		{"other content", "x = 1\npolicy \"a\" { admit = true }", "Unsupported argument"},
		{"registered name", `policy "cargo" { admit = true }`, "Policy name already registered"},
		{"command", `policy "run" { command = ["sh"] }`, "command policies are not available here"},
		{"unknown variable", `policy "x" { admit = versoin.is_prerelease }`, "versoin"},
		{"not UTF-8", "policy \"x\" { rule = \"\xff\" admit = true }", "not valid UTF-8"},
		{"deep", `policy "x" { admit = ` + strings.Repeat("(", 5000) + "true" + strings.Repeat(")", 5000) + " }", "nested deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := p.Evaluate(Request{Constraint: ">= 1.0", Versions: "1.0.0", HCL: tt.text})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.HCLErrors) == 0 || !strings.Contains(strings.Join(a.HCLErrors, "\n"), tt.want) {
				t.Errorf("HCL errors %q, want one with %q", a.HCLErrors, tt.want)
			}
			if n := len(catalogue.New().All()); len(a.Policies) != n {
				t.Errorf("%d policies, want the catalogue's %d", len(a.Policies), n)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	p := newPlayground(t)
	for _, pol := range catalogue.New().All() {
		for _, tc := range cases[:3] {
			for _, v := range SplitVersions(tc.versions) {
				got, err := p.Explain(ExplainRequest{Request: Request{Constraint: tc.constraint}, Policy: pol.Name(), Version: v})
				if err != nil {
					t.Fatal(err)
				}
				if want := report.NewExplainReport(pol, tc.constraint, v); !reflect.DeepEqual(got, want) {
					t.Errorf("%s %q %q: %+v, want %+v", pol.Name(), tc.constraint, v, got, want)
				}
			}
		}
	}
	if _, err := p.Explain(ExplainRequest{Policy: "no-such"}); err == nil || !strings.Contains(err.Error(), `"no-such"`) {
		t.Errorf("an unknown policy: %v", err)
	}
}

func TestLimits(t *testing.T) {
	p := newPlayground(t)
	many := strings.Repeat("1.0.0\n", MaxVersions+1)
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"constraint", Request{Constraint: strings.Repeat(">= 1.0, ", MaxConstraint)}, "the constraint is"},
		{"versions text", Request{Versions: strings.Repeat("x", MaxVersionsText+1)}, "the versions are"},
		{"versions", Request{Versions: many}, "versions are given"},
		{"hcl", Request{HCL: strings.Repeat("#", MaxHCL+1)}, "HCL policy text"},
		{"policies", Request{Policies: make([]string, MaxPolicies+1)}, "policies are chosen"},
	}
	for _, tt := range tests {
		if _, err := p.Evaluate(tt.req); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	// At the limit, it answers.
	if a, err := p.Evaluate(Request{Constraint: ">= 1.0", Versions: strings.Repeat("1.0.0\n", MaxVersions)}); err != nil || len(a.Versions) != MaxVersions {
		t.Errorf("%d versions: %v", MaxVersions, err)
	}
}

func TestHistories(t *testing.T) {
	p := newPlayground(t)
	info := p.Info()
	files, err := fs.Glob(prerel.Corpus(), "versions/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Histories) != len(files) || len(files) == 0 {
		t.Fatalf("%d histories, the corpus has %d", len(info.Histories), len(files))
	}
	kinds := map[string]bool{}
	for _, hi := range info.Histories {
		h, err := p.History(hi.Name)
		if err != nil {
			t.Fatal(err)
		}
		data, err := fs.ReadFile(prerel.Corpus(), "versions/"+hi.Name+".txt")
		if err != nil {
			t.Fatal(err)
		}
		if want := SplitVersions(string(data)); !slices.Equal(h.Versions, want) || hi.Count != len(want) {
			t.Errorf("history %s: %d versions, the file has %d", hi.Name, len(h.Versions), len(want))
		}
		kinds[hi.Kind] = true
	}
	for _, k := range []string{"core", "provider", "module", "tool"} {
		if !kinds[k] {
			t.Errorf("no history of kind %s", k)
		}
	}
	if _, err := p.History("no-such"); err == nil {
		t.Error("an unknown history has versions")
	}
	if got, want := len(info.Policies), len(catalogue.New().All()); got != want {
		t.Errorf("info lists %d policies, want %d", got, want)
	}
}

func TestNewWith(t *testing.T) {
	if _, err := NewWith(nil, nil); err == nil {
		t.Error("no registry: no error")
	}
	p, err := NewWith(engine.NewRegistry(), fstest.MapFS{"versions/a.txt": {Data: []byte("1.0.0\n\n2.0.0\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := p.History("a"); err != nil || h.Kind != "tool" || !slices.Equal(h.Versions, []string{"1.0.0", "2.0.0"}) {
		t.Errorf("history a: %+v, %v", h, err)
	}
	a, err := p.Evaluate(Request{Constraint: ">= 1.0", Versions: "1.0.0"})
	if err != nil || a.Summary != "no policy is chosen" || a.Timeline != "" {
		t.Errorf("no policies: %+v, %v", a, err)
	}
}

func TestSplitVersions(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"1.0.0", []string{"1.0.0"}},
		{" 1.0.0 \r\n\n# c\n  #c\n2.0.0-beta\n", []string{"1.0.0", "2.0.0-beta"}},
		{"a b\n<x>", []string{"a b", "<x>"}},
	}
	for _, tt := range tests {
		if got := SplitVersions(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("SplitVersions(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestCall checks the JSON protocol the page speaks.
func TestCall(t *testing.T) {
	p := newPlayground(t)
	tests := []struct {
		method, arg string
		wantError   string
		wantResult  string
	}{
		{"info", "", "", `"policies"`},
		{"info", "{}", "", `"histories"`},
		{"history", `{"name":"terraform"}`, "", `"versions"`},
		{"history", `{"name":"<b>"}`, `no history named "<b>"`, ""},
		{"evaluate", `{"constraint":">= 1.0","versions":"1.0.0\n<script>x</script>"}`, "", `"version":"<script>x</script>"`},
		{"evaluate", `{"constraint":1}`, "not the JSON expected", ""},
		{"evaluate", `[`, "not the JSON expected", ""},
		{"explain", `{"constraint":">= 1.0","policy":"cargo","version":"1.0.0"}`, "", `"verdict":"allow"`},
		{"explain", `{"policy":""}`, `no policy named ""`, ""},
		{"nope", "", `unknown method "nope"`, ""},
		{"evaluate", strings.Repeat(" ", MaxArgument+1), "more than", ""},
	}
	for _, tt := range tests {
		out := p.Call(tt.method, []byte(tt.arg))
		var r struct {
			Result json.RawMessage `json:"result"`
			Error  string          `json:"error"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s %.40q: the answer is not JSON: %v: %.200s", tt.method, tt.arg, err, out)
		}
		switch {
		case tt.wantError != "" && !strings.Contains(r.Error, tt.wantError):
			t.Errorf("%s %.40q: error %q, want %q", tt.method, tt.arg, r.Error, tt.wantError)
		case tt.wantError == "" && (r.Error != "" || !strings.Contains(string(r.Result), tt.wantResult)):
			t.Errorf("%s %.40q: error %q, result %.200s; want %s in the result", tt.method, tt.arg, r.Error, r.Result, tt.wantResult)
		}
	}
}

// panicky is a policy that panics, to check that Call recovers.
type panicky struct{}

func (panicky) Name() string { return "panicky" }
func (panicky) Rule() string { return "panics" }
func (panicky) Compile(string) (engine.Matcher, error) {
	panic("boom")
}

func TestCallRecovers(t *testing.T) {
	reg := engine.NewRegistry()
	if err := reg.Register(panicky{}); err != nil {
		t.Fatal(err)
	}
	p, err := NewWith(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := string(p.Call("evaluate", []byte(`{"constraint":">= 1","versions":"1.0.0"}`)))
	if !strings.Contains(out, `"error":"internal error in evaluate: boom`) {
		t.Errorf("a panicking policy: %.200s", out)
	}
}

func FuzzCall(f *testing.F) {
	f.Add("evaluate", `{"constraint":">= 1.0","versions":"1.0.0\n2.0.0-rc1","hcl":"policy \"x\" { admit = true }"}`)
	f.Add("explain", `{"constraint":"~> 1.2","policy":"cargo","version":"1.2.0-beta"}`)
	f.Add("history", `{"name":"helm"}`)
	p, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, arg string) {
		out := p.Call(method, []byte(arg))
		var r struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if strings.Contains(r.Error, "internal error") {
			t.Fatalf("%s %q: %s", method, arg, r.Error)
		}
	})
}

// TestGroups checks that every policy carries its group from package
// catalogue, HCL policies theirs, and that Info gives the groups' order
// and today's rule, so that the page places a policy added later.
func TestGroups(t *testing.T) {
	p := newPlayground(t)
	info := p.Info()
	if !slices.Equal(info.Groups, catalogue.Groups()) || !slices.Equal(info.Today, catalogue.TodayPolicies()) {
		t.Errorf("Info: groups %q, today %q", info.Groups, info.Today)
	}
	for _, name := range info.Today {
		if !slices.ContainsFunc(info.Policies, func(pi PolicyInfo) bool { return pi.Name == name }) {
			t.Errorf("today's rule %q is not a policy of the playground", name)
		}
	}
	for _, pi := range info.Policies {
		if pi.Group != catalogue.Group(pi.Name) || !slices.Contains(info.Groups, pi.Group) {
			t.Errorf("%s: group %q, want %q", pi.Name, pi.Group, catalogue.Group(pi.Name))
		}
	}
	a, err := p.Evaluate(Request{Constraint: "~> 1.0", Versions: "1.0.0", HCL: `policy "mine" { admit = true }`})
	if err != nil {
		t.Fatal(err)
	}
	for _, pi := range append(a.Policies, a.Available...) {
		want := catalogue.Group(pi.Name)
		if pi.Origin == OriginHCL {
			want = catalogue.GroupOwn
		}
		if pi.Group != want {
			t.Errorf("%s (%s): group %q, want %q", pi.Name, pi.Origin, pi.Group, want)
		}
	}
	var raw map[string]any
	if err := json.Unmarshal(p.Call("info", nil), &raw); err != nil || fmt.Sprint(raw["result"].(map[string]any)["today"]) != fmt.Sprint(catalogue.TodayPolicies()) {
		t.Errorf("the info call does not give today's rule: %v", err)
	}
}

// TestHostileHCL evaluates and explains with a policy text whose admit,
// without the budget of package hclpolicy, asks for 24 GB: the answer
// comes within the time limit, each version invalid with the exceeded
// budget as the reason, and Progress was told it read the text and which
// policy judged, for the page to name it should a request run too long.
func TestHostileHCL(t *testing.T) {
	p := newPlayground(t)
	var told []string
	p.Progress = func(what string) { told = append(told, what) }
	req := Request{
		Constraint: ">= 1.0",
		Versions:   "1.0.0\n1.1.0-beta\n",
		Policies:   []string{"cargo", "hostile"},
		HCL:        "policy \"hostile\" {\n  admit = length(setproduct(range(1000), range(1000), range(1000))) > 0\n}\n",
	}
	done := make(chan struct{})
	var a Answer
	var err error
	go func() {
		defer close(done)
		a, err = p.Evaluate(req)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("Evaluate still running after a minute")
	}
	if err != nil || len(a.HCLErrors) > 0 {
		t.Fatalf("%v %v", err, a.HCLErrors)
	}
	for _, row := range a.Check.Versions {
		r := row.Results[1]
		if r.Verdict != engine.Invalid || !strings.HasPrefix(r.Reason, HCLFile+":2:18: Evaluation budget exceeded; setproduct") {
			t.Errorf("%s: %+v", row.Version, r)
		}
	}
	if want := []string{ProgressLoading, "hostile"}; !slices.Equal(told[:2], want) {
		t.Errorf("Progress was told %q, want %q first", told, want)
	}
	told = nil
	x, err := p.Explain(ExplainRequest{Request: req, Policy: "hostile", Version: "1.0.0"})
	if err != nil || x.Verdict != engine.Invalid || !slices.Equal(told, []string{"hostile"}) {
		t.Errorf("explain: %v %+v, told %q", err, x.Verdict, told)
	}
}

// TestVersionGroups checks the groups of versions an answer carries:
// every version in one group, the groups the page shows first, what
// they say with the policies named in the order of the columns, and an
// HCL policy never named as today's rule.
func TestVersionGroups(t *testing.T) {
	p := newPlayground(t)
	var releases strings.Builder
	for m := 3; m < 20; m++ {
		fmt.Fprintf(&releases, "1.%d.0\n", m)
	}
	tests := []struct {
		name string
		req  Request
		// want are the first groups: versions, then what the group says.
		want [][2]string
	}{
		{
			name: "prereleases first",
			req: Request{Constraint: "~> 1.2", Versions: "1.2.0\n" + releases.String() + "1.20.0-rc.1\n2.0.0-beta.1\n2.0.0\n",
				Policies: []string{"terraform-module", "strict", "linear", "ga-bound", "core-only", "masterminds-pre", "terraform-module-versions", "tfupdate"}},
			want: [][2]string{
				{"1.20.0-rc.1", "admitted by core-only, masterminds-pre, linear, ga-bound; rejected by today's rule and 3 others"},
				{"2.0.0-beta.1", "admitted by masterminds-pre, linear; rejected by today's rule and 5 others"},
				{"1.3.0 … 1.19.0", "only terraform-module-versions dissents: it rejects, the other 7 allow"},
				{"2.0.0", "only tfupdate dissents: it allows, the other 7 reject"},
				{"1.2.0", "every policy agrees: allow"},
			},
		},
		{
			name: "chosen policies, an HCL one first",
			req: Request{Constraint: ">= 1.0.0", Versions: "1.0.0\n1.1.0-beta\n", Policies: []string{"mine", "linear", "cargo", "masterminds-pre", "apparentlymart"},
				HCL: `policy "mine" { admit = !version.is_prerelease }`},
			want: [][2]string{
				{"1.1.0-beta", "admitted by masterminds-pre, linear; rejected by cargo, mine and today's rule"},
				{"1.0.0", "every policy agrees: allow"},
			},
		},
		{
			name: "an HCL policy named as no rule of today",
			req:  Request{Constraint: ">= 1.0.0", Versions: "1.1.0-beta\n", Policies: []string{"linear", "mine", "cargo"}, HCL: `policy "mine" { admit = false }`},
			want: [][2]string{{"1.1.0-beta", "only linear dissents: it allows, the other 2 reject"}},
		},
		{
			name: "no versions",
			req:  Request{Constraint: ">= 1.0.0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := p.Evaluate(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var got [][2]string
			seen := make([]int, len(a.Versions))
			for _, g := range a.Groups {
				for _, i := range g.Rows {
					seen[i]++
				}
				which := a.Versions[g.Rows[0]]
				if len(g.Rows) > 1 {
					which += " … " + a.Versions[g.Rows[len(g.Rows)-1]]
				}
				got = append(got, [2]string{which, g.Says})
			}
			for i, n := range seen {
				if n != 1 {
					t.Errorf("%s is in %d groups", a.Versions[i], n)
				}
			}
			if len(got) < len(tt.want) || !reflect.DeepEqual(got[:len(tt.want)], tt.want) {
				t.Errorf("the groups are\n%q\nwant them to begin with\n%q", got, tt.want)
			}
			raw := p.Call("evaluate", mustJSON(t, tt.req))
			if !strings.Contains(string(raw), `"groups":[`) {
				t.Errorf("the evaluate call has no list of groups: %.200s", raw)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
