package readers_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/readers"
)

// policyDoc is the page whose readers' table these tests check.
const policyDoc = "../docs/policies.md"

// TestDocVerdictTable checks every cell of the readers' verdict table of
// docs/policies.md, and that it has a column for every reader.
func TestDocVerdictTable(t *testing.T) {
	f, err := os.Open(policyDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var head []string
	var rows [][]string
	var lines []int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, "|") {
			if head != nil {
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
		case head == nil && len(cells) > 2 && cells[0] == "constraint" && cells[1] == "version" && cells[2] == "terraform-ls":
			head = cells
		case head != nil && strings.HasPrefix(cells[0], "---"):
		case head != nil:
			rows, lines = append(rows, cells), append(lines, n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table whose header starts constraint | version | terraform-ls", policyDoc)
	}
	names := head[2:]
	for _, p := range readers.All() {
		if !strings.Contains("|"+strings.Join(names, "|")+"|", "|"+p.Name()+"|") {
			t.Errorf("%s: the readers' table has no column for %s", policyDoc, p.Name())
		}
	}
	reg := catalogue.New()
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
