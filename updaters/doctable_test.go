package updaters_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/updaters"
)

// policyDoc is the page whose updater tables these tests check.
const policyDoc = "../docs/policies.md"

// docTable returns the rows of the first table of policyDoc whose header
// starts with the given cells: the header, then each row's cells without
// backticks ("(empty)" is ""), with the line of each row.
func docTable(t *testing.T, header ...string) (head []string, rows [][]string, lines []int) {
	t.Helper()
	f, err := os.Open(policyDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			c = strings.Trim(strings.TrimSpace(c), "`")
			if c == "(empty)" {
				c = ""
			}
			cells = append(cells, c)
		}
		switch {
		case !in && len(cells) >= len(header) && strings.Join(cells[:len(header)], "|") == strings.Join(header, "|"):
			in, head = true, cells
		case in && strings.HasPrefix(cells[0], "---"):
		case in:
			rows, lines = append(rows, cells), append(lines, n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table with the header %q", policyDoc, header)
	}
	return head, rows, lines
}

// TestDocVerdictTable checks every cell of the updaters' verdict table of
// docs/policies.md, and that it has a column for every updater.
func TestDocVerdictTable(t *testing.T) {
	head, rows, lines := docTable(t, "constraint", "version", "renovate")
	reg := catalogue.New()
	names := head[2:]
	for _, p := range updaters.All() {
		if !strings.Contains("|"+strings.Join(names, "|")+"|", "|"+p.Name()+"|") {
			t.Errorf("%s: the updaters' table has no column for %s", policyDoc, p.Name())
		}
	}
	for i, row := range rows {
		if len(row) != len(head) {
			t.Fatalf("%s:%d: %d cells, the header has %d", policyDoc, lines[i], len(row), len(head))
		}
		for j, name := range names {
			p, ok := reg.Lookup(name)
			if !ok {
				t.Fatalf("%s:%d: no policy %q", policyDoc, lines[i], name)
			}
			want, err := engine.ParseVerdict(row[2+j])
			if err != nil {
				t.Fatalf("%s:%d: %v", policyDoc, lines[i], err)
			}
			if got := engine.Evaluate(p, row[0], row[1]); got.Verdict != want || got.Reason == "" {
				t.Errorf("%s:%d: %s, %q with %q: %s (%s), the page says %s", policyDoc, lines[i], name, row[0], row[1], got.Verdict, got.Reason, want)
			}
		}
	}
}

// TestDocGemOrderTable checks the table of RubyGems' order: Dependabot
// orders each row's first version below its second, and SemVer the other
// way round.
func TestDocGemOrderTable(t *testing.T) {
	_, rows, lines := docTable(t, "older", "newer", "SemVer says")
	for i, row := range rows {
		a, errA := updaters.ParseGemVersion(row[0])
		b, errB := updaters.ParseGemVersion(row[1])
		if errA != nil || errB != nil {
			t.Fatalf("%s:%d: %v %v", policyDoc, lines[i], errA, errB)
		}
		if a.Compare(b) >= 0 {
			t.Errorf("%s:%d: RubyGems does not order %s below %s", policyDoc, lines[i], row[0], row[1])
		}
		if engine.MustParseVersion(row[0]).Compare(engine.MustParseVersion(row[1])) <= 0 {
			t.Errorf("%s:%d: SemVer orders %s below %s too", policyDoc, lines[i], row[0], row[1])
		}
	}
}
