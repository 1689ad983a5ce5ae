package policies

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// policyDoc is the page that states every native rule; its tables are
// the native policies' one input table.
const policyDoc = "../docs/policies.md"

// docTable is a Markdown table of policyDoc: its header cells and its
// rows, each cell with the surrounding backticks removed, and the line
// of each row.
type docTable struct {
	header []string
	rows   [][]string
	lines  []int
}

// readDocTable returns the first table of policyDoc whose header starts
// with the given cells.
func readDocTable(t *testing.T, header ...string) docTable {
	t.Helper()
	f, err := os.Open(policyDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tab docTable
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "|") {
			if in {
				break
			}
			continue
		}
		cells := splitRow(line)
		switch {
		case !in && len(cells) >= len(header) && equalPrefix(cells, header):
			in, tab.header = true, cells
		case in && strings.HasPrefix(cells[0], "---"):
		case in:
			tab.rows = append(tab.rows, cells)
			tab.lines = append(tab.lines, n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(tab.rows) == 0 {
		t.Fatalf("%s: no table with the header %q", policyDoc, header)
	}
	return tab
}

// splitRow splits a Markdown table row into its cells, without
// backticks; "(empty)" is the empty string.
func splitRow(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	cells := make([]string, len(parts))
	for i, p := range parts {
		c := strings.TrimSpace(p)
		c = strings.TrimSuffix(strings.TrimPrefix(c, "`"), "`")
		if c == "(empty)" {
			c = ""
		}
		cells[i] = c
	}
	return cells
}

func equalPrefix(cells, prefix []string) bool {
	for i, p := range prefix {
		if cells[i] != p {
			return false
		}
	}
	return true
}

// nativeByName returns the registered native policy of that name.
func nativeByName(t *testing.T, name string) engine.Policy {
	t.Helper()
	for _, p := range All() {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("%s names a policy %q that is not a native policy", policyDoc, name)
	return nil
}

// TestDocVerdictTable checks every cell of the verdict table of
// docs/policies.md ("The same cases under each native policy") against
// the policy it names, through Compile and Match and through the
// policy's version table, so that the page cannot drift from the code;
// and it requires a column for every native policy.
func TestDocVerdictTable(t *testing.T) {
	tab := readDocTable(t, "constraint", "version", "strict")
	names := tab.header[2:]
	covered := map[string]bool{}
	for _, name := range names {
		covered[name] = true
	}
	for _, p := range All() {
		if !covered[p.Name()] {
			t.Errorf("%s: the verdict table has no column for %s", policyDoc, p.Name())
		}
	}
	cells := 0
	for i, row := range tab.rows {
		if len(row) != len(tab.header) {
			t.Fatalf("%s:%d: %d cells, the header has %d", policyDoc, tab.lines[i], len(row), len(tab.header))
		}
		constraint, version := row[0], row[1]
		for j, name := range names {
			want, err := engine.ParseVerdict(row[2+j])
			if err != nil {
				t.Fatalf("%s:%d: column %s: %v", policyDoc, tab.lines[i], name, err)
			}
			checkDocCell(t, nativeByName(t, name), constraint, version, want, tab.lines[i])
			cells++
		}
	}
	t.Logf("%d cells of %s checked", cells, policyDoc)
}

// TestDocContainmentWitnesses checks the witnesses of docs/policies.md's
// containment table: the first policy admits the case and the second
// does not.
func TestDocContainmentWitnesses(t *testing.T) {
	tab := readDocTable(t, "admitted by", "not by", "constraint", "version")
	for i, row := range tab.rows {
		by, notBy, constraint, version := row[0], row[1], row[2], row[3]
		checkDocCell(t, nativeByName(t, by), constraint, version, engine.Allow, tab.lines[i])
		if r := engine.Evaluate(nativeByName(t, notBy), constraint, version); r.Verdict == engine.Allow {
			t.Errorf("%s:%d: %s admits %q with %q: %s", policyDoc, tab.lines[i], notBy, constraint, version, r.Reason)
		}
	}
}

// checkDocCell requires p's verdict on one case of the page, judged on
// the text and through the policy's table, with a reason.
func checkDocCell(t *testing.T, p engine.Policy, constraint, version string, want engine.Verdict, line int) {
	t.Helper()
	got := engine.Evaluate(p, constraint, version)
	if got.Verdict != want {
		t.Errorf("%s:%d: %s, %q with %q: %s (%s), the page says %s", policyDoc, line, p.Name(), constraint, version, got.Verdict, got.Reason, want)
		return
	}
	if got.Reason == "" {
		t.Errorf("%s:%d: %s, %q with %q: no reason", policyDoc, line, p.Name(), constraint, version)
	}
	if fast := judgeByTable(p, constraint, version); fast != got {
		t.Errorf("%s:%d: %s, %q with %q: the table gives %+v, the text %+v", policyDoc, line, p.Name(), constraint, version, fast, got)
	}
}

// judgeByTable judges one case through p's version table
// (engine.ReadVersions), the path the harness takes.
func judgeByTable(p engine.Policy, constraint, version string) engine.Result {
	m, err := engine.ReadVersions(p, []string{version}).Compile(constraint)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return m.Judge(0)
}

// TestDocMultipartTable checks the native columns of the table "Versions
// of more than three parts" of docs/policies.md: "SemVer natives" is the
// verdict of every native policy but core-only.
func TestDocMultipartTable(t *testing.T) {
	tab := readDocTable(t, "four-part constraint", "version", "SemVer natives", "core-only")
	for i, row := range tab.rows {
		constraint, version := row[0], row[1]
		for _, p := range All() {
			want := row[2]
			if p.Name() == "core-only" {
				want = row[3]
			}
			if got := engine.Evaluate(p, constraint, version).Verdict.String(); got != want {
				t.Errorf("%s:%d: %s: %q | %q = %s, the page says %s", policyDoc, tab.lines[i], p.Name(), constraint, version, got, want)
			}
		}
	}
}
