package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/report"
)

// writeVersions writes a versions file, one version a line.
func writeVersions(t *testing.T, versions ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "versions.txt")
	if err := os.WriteFile(path, []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// afterTable returns the lines of a select or check report after its
// table: the blank line that ends the table and everything below.
func afterTable(out string) []string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	inTable := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "POLICY") || strings.Contains(l, "VERSION"):
			inTable = true
		case inTable && l == "":
			return lines[i+1:]
		}
	}
	return nil
}

func TestSelectGroupsNotes(t *testing.T) {
	const vPrefix = `go-versions ParseVersion: a "v" prefix should not be used`
	const twoParts = "expected MAJOR.MINOR.PATCH, found only 2 numeric parts"
	// Twelve versions strict cannot read, each for a reason of its own
	// shape, and one it can.
	odd := []string{"1.0", "1.2rc1", "1.0.0x1", "01.0.0", "1.01.0", "1.0.01", "1.0.0-01", "1.0.0+", "x", "1.0.0.0", "1.0.0-", "1.0.0-a..b", "1.0.0"}
	tests := []struct {
		name     string
		versions []string
		args     []string
		want     []string // the lines after the table
	}{
		{
			name:     "v prefix: one line for both policies, two examples, what was left out",
			versions: []string{"1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"},
			args:     []string{"--policies", "strict,apparentlymart,apparentlymart-exact", ">= 1.0.0"},
			want: []string{
				// v1.4.0 first: strict selects it.
				"note: apparentlymart and apparentlymart-exact cannot read 4 versions, e.g. v1.4.0 and v1.3.0: " + vPrefix,
				"",
				"4 notes left out; --show-all lists them",
			},
		},
		{
			name:     "v prefix, --show-all: every version below the line",
			versions: []string{"1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"},
			args:     []string{"--policies", "strict,apparentlymart,apparentlymart-exact", "--show-all", ">= 1.0.0"},
			want: []string{
				"note: apparentlymart and apparentlymart-exact cannot read 4 versions: " + vPrefix,
				"  v1.1.0 v1.2.0 v1.3.0 v1.4.0",
			},
		},
		{
			name:     "two versions are both named",
			versions: []string{"v1.1.0", "v1.2.0", "1.0.0"},
			args:     []string{"--policies", "apparentlymart", ">= 1.0.0"},
			want:     []string{"note: apparentlymart cannot read 2 versions, v1.1.0 and v1.2.0: " + vPrefix},
		},
		{
			name:     "a reason of another shape or another policy is another line, the largest first",
			versions: []string{"1.0", "v1.2.0", "1.1", "1.2.0"},
			args:     []string{"--policies", "strict,apparentlymart", ">= 1.0.0"},
			want: []string{
				"note: strict cannot read 2 versions, 1.0 and 1.1: " + twoParts,
				`note: apparentlymart cannot read "v1.2.0": ` + vPrefix,
			},
		},
		{
			name:     "a version alone keeps its reason in full",
			versions: []string{"1.0.0", "nope"},
			args:     []string{"--policies", "strict,cargo", ">= 1.0.0"},
			want:     []string{`note: strict and cargo cannot read "nope": version "nope": column 1: expected a version, found "nope"`},
		},
		{
			name:     "refusals of the same words share a line",
			versions: []string{"1.0.0"},
			args:     []string{"--policies", "core-only,strict", ">= 1.0.0-beta"},
			want:     []string{`note: core-only refuses the constraint: prerelease version constraints are not supported: ">= 1.0.0-beta" (comparator 1 of 1) names the prerelease 1.0.0-beta; a prerelease version matches by its version core only`},
		},
		{
			name:     "at most 10 notes",
			versions: odd,
			args:     []string{"--policies", "strict", ">= 1.0.0"},
			want: append(func() []string {
				var lines []string
				for _, v := range odd[:10] {
					lines = append(lines, fmt.Sprintf("note: strict cannot read %q: ", v))
				}
				return lines
			}(), "", "2 notes left out; --show-all lists them"),
		},
		{
			name:     "at most 10 notes, --show-all",
			versions: odd,
			args:     []string{"--policies", "strict", "--show-all", ">= 1.0.0"},
			want: func() []string {
				var lines []string
				for _, v := range odd[:12] {
					lines = append(lines, fmt.Sprintf("note: strict cannot read %q: ", v))
				}
				return lines
			}(),
		},
		{
			name:     "no notes",
			versions: []string{"1.0.0", "1.1.0"},
			args:     []string{"--policies", "strict,cargo", ">= 1.0.0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeVersions(t, tt.versions...)
			code, out, stderr := runCLI(t, "", append([]string{"select", "--versions-file", file}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.HasPrefix(out, "constraint: ") || !strings.Contains(out, "\n\nPOLICY ") {
				t.Fatalf("the report does not start with the answer:\n%s", out)
			}
			got := afterTable(out)
			if len(got) != len(tt.want) {
				t.Fatalf("after the table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i, w := range tt.want {
				// A want that ends in ": " is a prefix.
				if got[i] != w && !(strings.HasSuffix(w, ": ") && strings.HasPrefix(got[i], w)) {
					t.Errorf("line %d after the table = %q, want %q", i+1, got[i], w)
				}
			}
		})
	}
}

// TestSelectJSONKeepsEveryNote checks that the JSON lists every version
// each policy cannot read, whatever the text report groups or cuts.
func TestSelectJSONKeepsEveryNote(t *testing.T) {
	file := writeVersions(t, "1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0")
	code, out, stderr := runCLI(t, "", "select", "--format", "json", "--policies", "apparentlymart,apparentlymart-exact", "--versions-file", file, ">= 1.0.0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep report.SelectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Policies {
		if len(p.Unreadable) != 4 || p.Unreadable[0].Version != "v1.1.0" || !strings.Contains(p.Unreadable[0].Reason, `"v" prefix`) {
			t.Errorf("%s: unreadable = %+v", p.Policy, p.Unreadable)
		}
	}
	if strings.Contains(out, "left out") {
		t.Errorf("the JSON says it left something out:\n%s", out)
	}
}

// TestSelectTerraformHistory runs the command of the users' report (with
// a fixed list of policies, the three that cannot read a "v" among them):
// the answer first, then one note line for the notes of old.
func TestSelectTerraformHistory(t *testing.T) {
	policies := []string{"strict", "linear", "terraform-module", "apparentlymart", "apparentlymart-exact", "go-versions-cargo", "masterminds-pre"}
	code, out, stderr := runCLI(t, "", "select", "--policies", strings.Join(policies, ","), "--versions-file", "../../testdata/corpus/versions/terraform.txt", "~> 1.5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// The header, a row a policy, and the notes.
	if max := len(policies) + 8; len(lines) > max {
		t.Errorf("%d lines, want at most %d:\n%s", len(lines), max, out)
	}
	want := []string{
		`note: apparentlymart, apparentlymart-exact and go-versions-cargo cannot read 466 versions, e.g. v1.15.9 and v1.17.0-alpha20260812: go-versions ParseVersion: a "v" prefix should not be used`,
		"",
		"1392 notes left out; --show-all lists them",
	}
	if got := afterTable(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after the table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, all, _ := runCLI(t, "", "select", "--show-all", "--policies", strings.Join(policies, ","), "--versions-file", "../../testdata/corpus/versions/terraform.txt", "~> 1.5")
	for _, v := range []string{"v0.1.0", "v1.5.0", "v1.17.0-alpha20260812"} {
		if !strings.Contains(all, " "+v+" ") && !strings.Contains(all, " "+v+"\n") {
			t.Errorf("--show-all does not list %s", v)
		}
	}
	if strings.Contains(all, "left out") {
		t.Errorf("--show-all still leaves something out")
	}
}

// TestVersionsFileKinds checks the files --versions-file reads: a pipe is
// read once, waiting for a writer for at most safefile.WriterWait; a device is
// refused, except the null device, which reads as empty; a file that lists
// no versions is an error that names it; a line too long is named.
func TestVersionsFileKinds(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	comments := writeVersions(t, "# none yet", "")
	long := writeVersions(t, "1.0.0", strings.Repeat("1", lines.Max+1))
	longest := writeVersions(t, "1.0.0", strings.Repeat("1", lines.Max))
	silent := filepath.Join(dir, "silent.fifo")
	if err := syscall.Mkfifo(silent, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// A pipe no program opens for writing is waited for, then refused:
	// the wait runs out whatever the machine's speed, so a short one
	// keeps the test fast.
	defer func(w time.Duration) { safefile.WriterWait = w }(safefile.WriterWait)
	safefile.WriterWait = 50 * time.Millisecond
	tests := []struct {
		name   string
		cmd    string
		file   string
		code   int
		stdout string
		stderr string
	}{
		{"an empty file", "select", empty, exitUsage, "", "prerel select: the versions file " + empty + " lists no versions\n"},
		{"comments only", "check", comments, exitUsage, "", "prerel check: the versions file " + comments + " lists no versions\n"},
		{"the null device", "select", os.DevNull, exitUsage, "", "prerel select: the versions file " + os.DevNull + " lists no versions\n"},
		{"a device", "select", "/dev/zero", exitUsage, "", "prerel select: versions file: /dev/zero is not a regular file (it is a character device)\n"},
		{"a pipe nobody writes to", "select", silent, exitUsage, "", "prerel select: versions file: " + silent + " is a FIFO that no program opened for writing within 50ms\n"},
		{"a line too long", "check", long, exitUsage, "", "prerel check: versions file: " + long + ":2: line longer than 1048576 bytes\n"},
		{"the longest line", "select", longest, exitOK, "strict  1.0.0", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", tt.cmd, "--policies", "strict", "--versions-file", tt.file, ">= 1")
			if code != tt.code || !strings.Contains(out, tt.stdout) || stderr != tt.stderr {
				t.Errorf("exit %d, stdout %.200q, stderr %.200q; want exit %d, %q and %q", code, out, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
	// A pipe with a writer is read to its end: the read waits for the
	// writer to open it (for the default minute), however late it starts.
	safefile.WriterWait = time.Minute
	fed := filepath.Join(dir, "fed.fifo")
	if err := syscall.Mkfifo(fed, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fed, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("1.0.0\n1.1.0\n")
		f.Close()
	}()
	t.Cleanup(func() {
		// Let the writer through if the read failed before opening.
		if f, err := os.OpenFile(fed, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	code, out, stderr := runCLI(t, "", "select", "--policies", "strict", "--versions-file", fed, ">= 1")
	if code != exitOK || !strings.Contains(out, "strict  1.1.0") {
		t.Fatalf("a fed pipe: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// The table path of select, measured against report.NewSelectReport by
// BenchmarkSelect and kept equal to it by TestSelectTableMatchesEngine.
// select does not take it: reading the versions into a table costs more
// than matching each once as text, and select judges them against one
// constraint only.

// selectWithTables is report.NewSelectReport: what each policy of ps
// would install from available. A policy that reads versions its own way
// (engine.VersionReader) and leaves the selection to the engine (it is no
// engine.Selector) judges the versions through its table, which gives
// their verdicts at once and the reasons of only those it cannot read:
// selectTable. Every other policy goes through engine.Select.
func selectWithTables(ps []engine.Policy, constraint string, available []string) report.SelectReport {
	rep := report.NewSelectReport(nil, constraint, available)
	rep.Policies = make([]report.SelectRow, len(ps))
	for i, p := range ps {
		var sel engine.Selection
		var err error
		if selectsByTable(p) {
			sel, err = selectTable(p, constraint, available)
		} else {
			sel, err = engine.Select(p, constraint, available)
		}
		rep.Policies[i] = selectRow(p, sel, err)
	}
	return rep
}

// selectsByTable reports whether selectWithTables judges p's versions
// through p's own table.
func selectsByTable(p engine.Policy) bool {
	_, reader := p.(engine.VersionReader)
	_, selector := p.(engine.Selector)
	return reader && !selector
}

// selectRow is the row of p's selection, or of its refusal err, as
// report.NewSelectReport writes it.
func selectRow(p engine.Policy, sel engine.Selection, err error) report.SelectRow {
	var row report.SelectRow
	if p != nil {
		row.Policy = p.Name()
	}
	switch {
	case err != nil:
		row.Error = engine.ClipReason(err.Error())
	case sel.Found:
		v := sel.Version
		row.Selected = &v
	}
	row.Unreadable = sel.Unreadable
	return row
}

// selectTable is engine.Select for a policy that selects no way of its
// own (engine.SelectNewest), judging available through p's table: the
// newest admitted version by SemVer precedence, ties keeping list order;
// the versions judged Invalid, and those admitted that the engine cannot
// order, are unreadable.
func selectTable(p engine.Policy, constraint string, available []string) (engine.Selection, error) {
	m, err := engine.ReadVersions(p, available).Compile(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	if m == nil {
		return engine.Selection{}, nilMatcherError(p)
	}
	verdicts := make([]engine.Verdict, len(available))
	m.Verdicts(verdicts)
	var sel engine.Selection
	var best engine.Version
	for i, text := range available {
		switch verdicts[i] {
		case engine.Invalid:
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: engine.ClipReason(m.Judge(i).Reason)})
			continue
		case engine.Reject:
			continue
		}
		v, err := engine.ParseVersion(text)
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: "admitted but cannot be ordered: " + engine.ClipReason(err.Error())})
			continue
		}
		if !sel.Found || best.Compare(v) < 0 {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	return sel, nil
}

// selectVersions are available versions for the select tests: the
// versions of compare's exhaustive scope 1, and versions some policies
// cannot read or order.
func selectVersions(tb testing.TB) []string {
	tb.Helper()
	d, err := compare.Exhaustive(1)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	if err := d.Groups(func(g compare.Group) bool {
		out = append(out, g.Versions...)
		return false
	}); err != nil {
		tb.Fatal(err)
	}
	return append(out, "v1.0.0", "1.0", "x", "", "1.0.0+build", "01.0.0", "1.0.0-beta\xff", "2.0.0-"+strings.Repeat("a.", 600)+"z")
}

// TestSelectTableMatchesEngine checks that the report of selectWithTables,
// which judges the versions of the policies that read them their own way
// through their tables, is report.NewSelectReport's, for every registered
// policy,
// for parsedReader versions of the native ones and for a policy that
// compiles to no matcher, on the constraints of compare's exhaustive
// scope 1 and refused ones.
func TestSelectTableMatchesEngine(t *testing.T) {
	longtest.Skip(t) // every case of the domain through select
	ps := append(append(catalogue.New().All(), parsedReaders(t)...), compilesToNil{})
	byTable := 0
	for _, p := range ps {
		if selectsByTable(p) {
			byTable++
		}
	}
	if byTable < len(parsedReaders(t)) {
		t.Fatalf("%d policies select through a table, want at least the %d parsedReaders", byTable, len(parsedReaders(t)))
	}
	versions := selectVersions(t)
	constraints := []string{"=> 1", "", ">= 1.0\r", "~> 1.0.0-rc.1, != 1.0.0-rc.2"}
	for i, l := range exhaustiveLines(t, 1, 1, 0) {
		if i%(3*27) == 0 {
			c, _, _ := strings.Cut(l, "\t")
			constraints = append(constraints, c)
		}
	}
	for _, c := range constraints {
		got := selectWithTables(ps, c, versions)
		want := report.NewSelectReport(ps, c, versions)
		if reflect.DeepEqual(got, want) {
			continue
		}
		rows := false
		for i := range want.Policies {
			if i < len(got.Policies) && !reflect.DeepEqual(got.Policies[i], want.Policies[i]) {
				t.Errorf("constraint %q, %s:\n%+v\nwant (report.NewSelectReport):\n%+v", c, want.Policies[i].Policy, got.Policies[i], want.Policies[i])
				rows = true
			}
		}
		if !rows {
			t.Errorf("constraint %q: report\n%+v\nwant (report.NewSelectReport):\n%+v", c, got, want)
		}
	}
}

// BenchmarkSelect times the table path of select's report on 20,000
// versions (selectWithTables), and in the same run, untimed, the report
// select makes, report.NewSelectReport, which matches every version as
// text. It reports versions/s and x-text, how many times faster the table
// path is (below 1: slower), for every registered policy and for those
// that select through their tables.
func BenchmarkSelect(b *testing.B) {
	var versions []string
	for i := 0; len(versions) < 20000; i++ {
		base := fmt.Sprintf("%d.%d.%d", i/400, i/20%20, i%20)
		versions = append(versions, base, base+"-rc.1", base+"-beta.2")
	}
	all := catalogue.New().All()
	var byTable []engine.Policy
	for _, p := range all {
		if selectsByTable(p) {
			byTable = append(byTable, p)
		}
	}
	const constraint = ">= 1.2.0-beta, < 40.0.0"
	for _, bench := range []struct {
		name string
		ps   []engine.Policy
	}{{"every-policy", all}, {"by-table", byTable}} {
		b.Run(bench.name, func(b *testing.B) {
			if len(bench.ps) == 0 {
				b.Skip("no policy selects through a table")
			}
			var text time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				start := time.Now()
				want := report.NewSelectReport(bench.ps, constraint, versions)
				text += time.Since(start)
				b.StartTimer()
				got := selectWithTables(bench.ps, constraint, versions)
				if len(got.Policies) != len(want.Policies) {
					b.Fatal("reports of different lengths")
				}
			}
			n := float64(len(versions) * len(bench.ps) * b.N)
			b.ReportMetric(n/b.Elapsed().Seconds(), "versions/s")
			b.ReportMetric(text.Seconds()/b.Elapsed().Seconds(), "x-text")
		})
	}
}
