package policies

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// policyDoc is the page that states every native rule; its verdict table
// and verdictFile are the native policies' one input table.
const policyDoc = "../docs/policies.md"

// docTable is the Markdown tables of a file whose header starts with the
// same cells: the first table's header cells and the rows of them all,
// each cell with the surrounding backticks removed, and where each row
// is written (file:line).
type docTable struct {
	header []string
	rows   [][]string
	at     []string
}

// readDocTable returns the tables of policyDoc whose header starts with
// the given cells.
func readDocTable(t *testing.T, header ...string) docTable {
	t.Helper()
	return readTables(t, policyDoc, header...)
}

// readTables returns the tables of the Markdown file path whose header
// starts with the given cells, which must have the same header.
func readTables(t *testing.T, path string, header ...string) docTable {
	t.Helper()
	f, err := os.Open(path)
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
			in = false
			continue
		}
		cells := splitRow(line)
		switch {
		case !in && len(cells) >= len(header) && equalPrefix(cells, header):
			if tab.header != nil && !slices.Equal(tab.header, cells) {
				t.Fatalf("%s:%d: the header %q differs from the first, %q", path, n, cells, tab.header)
			}
			in, tab.header = true, cells
		case in && strings.HasPrefix(cells[0], "---"):
		case in:
			tab.rows = append(tab.rows, cells)
			tab.at = append(tab.at, fmt.Sprintf("%s:%d", path, n))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(tab.rows) == 0 {
		t.Fatalf("%s: no table with the header %q", path, header)
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
	t.Fatalf("a verdict table names a policy %q that is not a native policy", name)
	return nil
}

// TestDocContainmentWitnesses checks the witnesses of docs/policies.md's
// containment table: the first policy admits the case and the second
// does not.
func TestDocContainmentWitnesses(t *testing.T) {
	tab := readDocTable(t, "admitted by", "not by", "constraint", "version")
	for i, row := range tab.rows {
		by, notBy, constraint, version := row[0], row[1], row[2], row[3]
		checkDocCell(t, nativeByName(t, by), constraint, version, engine.Allow, tab.at[i])
		if r := engine.Evaluate(nativeByName(t, notBy), constraint, version); r.Verdict == engine.Allow {
			t.Errorf("%s: %s admits %q with %q: %s", tab.at[i], notBy, constraint, version, r.Reason)
		}
	}
}

// checkDocCell requires p's verdict on one case of the page, judged on
// the text and through the policy's table, with a reason.
func checkDocCell(t *testing.T, p engine.Policy, constraint, version string, want engine.Verdict, at string) {
	t.Helper()
	got := engine.Evaluate(p, constraint, version)
	if got.Verdict != want {
		t.Errorf("%s: %s, %q with %q: %s (%s), the table says %s", at, p.Name(), constraint, version, got.Verdict, got.Reason, want)
		return
	}
	if got.Reason == "" {
		t.Errorf("%s: %s, %q with %q: no reason", at, p.Name(), constraint, version)
	}
	if fast := judgeByTable(p, constraint, version); fast != got {
		t.Errorf("%s: %s, %q with %q: the version table gives %+v, the text %+v", at, p.Name(), constraint, version, fast, got)
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
				t.Errorf("%s: %s: %q | %q = %s, the page says %s", tab.at[i], p.Name(), constraint, version, got, want)
			}
		}
	}
}
