package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/report"
)

// checkTable is a check text report read back: each version's verdict by
// policy, which versions are marked, and the lines around the table.
type checkTable struct {
	verdicts map[string]map[string]string // version → policy → verdict
	versions []string                     // in the order shown (first block)
	marked   map[string]bool
	legend   map[string][]string // column → policies, when there is one
}

// readCheck reads a check text report: a legend of answer columns if
// there is one, then one or more blocks of the table, each headed
// "VERSION".
func readCheck(t *testing.T, out string) checkTable {
	t.Helper()
	ct := checkTable{verdicts: map[string]map[string]string{}, marked: map[string]bool{}}
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.Contains(l, " in ") && strings.HasSuffix(l, "the policies of a column answer alike:"):
			ct.legend = map[string][]string{}
			col := ""
			for i++; i < len(lines) && lines[i] != ""; i++ {
				f := strings.Fields(lines[i])
				if !strings.HasPrefix(lines[i], " ") {
					col, f = f[0], f[1:]
				}
				for _, p := range f {
					ct.legend[col] = append(ct.legend[col], strings.TrimSuffix(p, ","))
				}
			}
		case strings.HasPrefix(strings.TrimSpace(l), "VERSION"):
			heads := strings.Fields(l)[1:]
			first := len(ct.versions) == 0
			for i++; i < len(lines) && lines[i] != ""; i++ {
				row := lines[i]
				mark := strings.TrimSpace(row[:3])
				f := strings.Fields(row[3:])
				if len(f) != len(heads)+1 {
					t.Fatalf("row %q has %d cells, the heading %d:\n%s", row, len(f)-1, len(heads), out)
				}
				v := f[0]
				if first {
					ct.versions = append(ct.versions, v)
				}
				ct.marked[v] = mark == "*"
				if ct.verdicts[v] == nil {
					ct.verdicts[v] = map[string]string{}
				}
				for k, h := range heads {
					policies := []string{h}
					if ct.legend != nil {
						policies = ct.legend[h]
					}
					for _, p := range policies {
						ct.verdicts[v][p] = f[k+1]
					}
				}
			}
		}
	}
	return ct
}

// checkJSON runs check --format json with args.
func checkJSON(t *testing.T, args ...string) report.CheckReport {
	t.Helper()
	code, out, stderr := runCLI(t, "", append([]string{"check", "--format", "json"}, args...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep report.CheckReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// sameAsJSON checks that the text table shows each shown version's
// verdicts as the JSON has them, and marks exactly the versions whose
// verdicts differ.
func sameAsJSON(t *testing.T, ct checkTable, rep report.CheckReport) {
	t.Helper()
	for _, row := range rep.Versions {
		shown, ok := ct.verdicts[row.Version]
		if !ok {
			continue
		}
		differ := false
		for _, r := range row.Results {
			if got := shown[r.Policy]; got != r.Verdict.String() {
				t.Errorf("%s under %s: the table says %q, the JSON %q", row.Version, r.Policy, got, r.Verdict)
			}
			differ = differ || r.Verdict != row.Results[0].Verdict
		}
		if ct.marked[row.Version] != differ {
			t.Errorf("%s: marked %v, want %v", row.Version, ct.marked[row.Version], differ)
		}
	}
}

func TestCheckVersionsFile(t *testing.T) {
	good := writeVersions(t, "# from a registry", "1.0.0-rc.1", "", "v1.0.0-beta")
	odd := writeVersions(t, "1.0", "nope", "0.9.0")
	emptyFile := writeVersions(t, "# nothing")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // the whole report, or a prefix ending in "..."
		stderr string
	}{
		{
			name: "arguments, then the file's versions",
			args: []string{"--policies", "strict,lexical,cargo", "--versions-file", good, ">= 1.0.0-beta, < 1.0.0", "0.9.0"},
			stdout: `constraint: >= 1.0.0-beta, < 1.0.0
policies disagree on 2 of 3 versions (marked *)

   VERSION      strict  lexical  cargo
   0.9.0        reject  reject   reject
*  1.0.0-rc.1   reject  reject   allow
*  v1.0.0-beta  reject  reject   allow

* the policies do not all give this version the same verdict
`,
		},
		{
			name: "the file alone",
			args: []string{"--policies", "strict,cargo", "--versions-file", good, ">= 1.0.0-beta, < 1.0.0"},
			stdout: `constraint: >= 1.0.0-beta, < 1.0.0
policies disagree on 2 of 2 versions (marked *)

   VERSION      strict  cargo
*  1.0.0-rc.1   reject  allow
*  v1.0.0-beta  reject  allow

* the policies do not all give this version the same verdict
`,
		},
		{
			name: "a file's lines are judged as they are",
			args: []string{"--policies", "strict,hashicorp", "--versions-file", odd, ">= 0.9.0"},
			stdout: `constraint: >= 0.9.0
policies disagree on 1 of 3 versions (marked *): allow vs reject on 0

   VERSION  strict   hashicorp
*  1.0      invalid  allow
   nope     invalid  invalid
   0.9.0    allow    allow

* the policies do not all give this version the same verdict
`,
		},
		{
			name: "policies that agree",
			args: []string{"--policies", "strict,cargo", ">= 1.0.0", "1.0.0", "0.9.0", "2.0.0"},
			stdout: `constraint: >= 1.0.0
policies agree on all 3 versions

   VERSION  strict  cargo
   1.0.0    allow   allow
   0.9.0    reject  reject
   2.0.0    allow   allow
`,
		},
		{
			name: "one policy: nothing to disagree on",
			args: []string{"--policies", "strict", ">= 1.0.0", "1.0.0"},
			stdout: `constraint: >= 1.0.0

   VERSION  strict
   1.0.0    allow
`,
		},
		{name: "arguments must still parse", args: []string{"--versions-file", odd, ">= 1.0.0", "1.0"}, code: exitUsage, stderr: `version "1.0": column 4`},
		{name: "missing file", args: []string{"--versions-file", "/nonexistent/versions.txt", ">= 1"}, code: exitUsage,
			stderr: "prerel check: versions file: open /nonexistent/versions.txt: no such file or directory"},
		{name: "a directory", args: []string{"--versions-file", t.TempDir(), ">= 1"}, code: exitUsage, stderr: "is a directory"},
		{name: "no versions at all", args: []string{">= 1"}, code: exitUsage, stderr: "check needs a constraint and at least one version"},
		{name: "a file of comments only", args: []string{"--versions-file", emptyFile, ">= 1"}, code: exitUsage,
			stderr: "the versions file " + emptyFile + " lists no versions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", append([]string{"check"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if tt.stdout != "" && out != tt.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.stdout)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.stderr)
			}
		})
	}
}

// TestCheckFitsEightyColumns checks check with every policy: every line
// fits 80 columns, the summary comes first, the legend names every
// policy once, and the table shows what the JSON says.
func TestCheckFitsEightyColumns(t *testing.T) {
	long := "1.3.0-" + strings.Repeat("very.long.prerelease.", 2) + "1" // 49 columns: blocks of 3 answer columns
	tests := []struct {
		name     string
		args     []string
		versions int // rows shown
	}{
		{"six versions", []string{"~> 1.2", "1.2.0", "1.5.0-beta.1", "2.0.0-beta.1", "1.9.0", "v1.3.0", "1.2.0+build"}, 6},
		{"a long version, columns in blocks", []string{"~> 1.2", "1.2.0", "1.5.0-beta.1", "2.0.0-beta.1", "v1.3.0", long, "1.2.0-rc.1", "2.0.0", "1.2.3+x", "v2.0.0-0"}, 9},
		{"the terraform history", []string{"--versions-file", "../../testdata/corpus/versions/terraform.txt", "~> 1.5"}, 20}, // the most a table shows without --show-all
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", append([]string{"check"}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for i, l := range lines {
				if w := columns(l); w > 80 {
					t.Errorf("line %d is %d columns wide:\n%s", i+1, w, l)
				}
			}
			if !strings.HasPrefix(lines[1], "policies disagree on ") {
				t.Errorf("the second line is not the summary: %q", lines[1])
			}
			ct := readCheck(t, out)
			if ct.legend == nil {
				t.Fatalf("no legend:\n%s", out)
			}
			var named []string
			for _, ps := range ct.legend {
				named = append(named, ps...)
			}
			sort.Strings(named)
			all := catalogue.New().Names()
			sort.Strings(all)
			if fmt.Sprint(named) != fmt.Sprint(all) {
				t.Errorf("the legend names %v, want every policy once: %v", named, all)
			}
			if len(ct.versions) != tt.versions {
				t.Errorf("%d versions shown, want %d:\n%s", len(ct.versions), tt.versions, out)
			}
			sameAsJSON(t, ct, checkJSON(t, tt.args...))
		})
	}
}

// TestCheckCutsLongLists checks that without --show-all the table shows
// 20 versions, those the policies disagree on first and in
// their order, and says how many it left out.
func TestCheckCutsLongLists(t *testing.T) {
	var versions []string
	for i := 0; i < 30; i++ {
		versions = append(versions, fmt.Sprintf("1.%d.0", i))
	}
	// Five the policies disagree on, late in the list; one allow/reject
	// among them comes first.
	versions = append(versions, "1.31.0-beta.1", "v1.32.0", "v1.33.0", "v1.34.0", "v1.35.0")
	file := writeVersions(t, versions...)
	args := []string{"--policies", "strict,linear,apparentlymart", "--versions-file", file, ">= 1.0.0"}

	code, out, _ := runCLI(t, "", append([]string{"check"}, args...)...)
	if code != exitOK {
		t.Fatal(out)
	}
	ct := readCheck(t, out)
	want := append(append([]string{}, versions[:15]...), versions[30:]...)
	if fmt.Sprint(ct.versions) != fmt.Sprint(want) {
		t.Errorf("versions shown:\n%v\nwant:\n%v", ct.versions, want)
	}
	if !strings.HasPrefix(out, "constraint: >= 1.0.0\npolicies disagree on 5 of 35 versions (marked *): allow vs reject on 1\n") {
		t.Errorf("summary:\n%s", out)
	}
	if !strings.HasSuffix(out, "\n15 versions (the policies agree on each) left out; --show-all lists them\n") {
		t.Errorf("the report does not say what it left out:\n%s", out)
	}
	sameAsJSON(t, ct, checkJSON(t, args...))

	code, out, _ = runCLI(t, "", append([]string{"check", "--show-all"}, args...)...)
	if code != exitOK {
		t.Fatal(out)
	}
	if ct := readCheck(t, out); fmt.Sprint(ct.versions) != fmt.Sprint(versions) {
		t.Errorf("--show-all shows %v", ct.versions)
	}
	if strings.Contains(out, "left out") {
		t.Errorf("--show-all leaves something out:\n%s", out)
	}
}

// TestCheckNamesNonASCII checks that a constraint or version written with
// characters that look like ASCII ones is refused with the character
// named, at its column.
func TestCheckNamesNonASCII(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"check", "１.０", "1.0.0"}, `prerel check: constraint "１.０": column 1: non-ASCII character U+FF11 (FULLWIDTH DIGIT ONE); write "1" instead` + "\n"},
		{[]string{"check", ">= 1.0", "１.０.０"}, `prerel check: version "１.０.０": column 1: non-ASCII character U+FF11 (FULLWIDTH DIGIT ONE); write "1" instead` + "\n"},
		{[]string{"check", ">= 1.0", "1.０.0"}, `prerel check: version "1.０.0": column 3: non-ASCII character U+FF10 (FULLWIDTH DIGIT ZERO); write "0" instead` + "\n"},
		{[]string{"select", "≥ 1.0", "1.0.0"}, `prerel select: constraint "≥ 1.0": column 1: non-ASCII character U+2265 (GREATER-THAN OR EQUAL TO); write ">=" instead` + "\n"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, "", tt.args...)
		if code != exitUsage || out != "" || stderr != tt.stderr {
			t.Errorf("prerel %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.stderr)
		}
	}
}

// TestCheckHTMLGroups checks that prerel check --format html groups the
// versions after the answer, the prerelease groups first, and names
// today's rule as package catalogue marks it. The policies are a fixed
// list: today's rule and those that set the versions apart.
func TestCheckHTMLGroups(t *testing.T) {
	args := []string{"check", "--format", "html", "--policies", "terraform-module,strict,lexical,cargo,any-pre,linear,ga-bound,core-only,masterminds-pre,terraform-module-versions", "~> 1.2", "1.2.0"}
	for m := 3; m < 25; m++ {
		args = append(args, fmt.Sprintf("1.%d.0", m))
	}
	args = append(args, "1.25.0-rc.1", "2.0.0-beta.1", "2.0.0")
	code, stdout, stderr := runCLI(t, "", args...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	answer := strings.Index(stdout, `<p class="answer">`)
	groups := strings.Index(stdout, "<h2>The versions by their verdicts</h2>")
	svg := strings.Index(stdout, "<svg")
	if answer < 0 || groups < answer || svg < groups {
		t.Fatalf("the page shows the answer at %d, the groups at %d and the timeline at %d; want them in that order", answer, groups, svg)
	}
	rest := stdout[groups:svg]
	want := []string{
		`<tr class="prerelease"><td class="size">1 prerelease</td><td><code>1.25.0-rc.1</code></td><td>admitted by linear, ga-bound, core-only, masterminds-pre; rejected by today&#39;s rule and 5 others</td></tr>`,
		`<tr class="prerelease"><td class="size">1 prerelease</td><td><code>2.0.0-beta.1</code></td>`,
		`<tr class="disagree"><td class="size">22 versions</td>`,
		`only terraform-module-versions dissents: it rejects, the other 9 allow`,
		`<tr class="agree">`,
	}
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("the groups lack %q, or it comes too early:\n%s", w, stdout[groups:svg])
		}
		rest = rest[i+len(w):]
	}
}
