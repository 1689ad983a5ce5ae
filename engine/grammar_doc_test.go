package engine

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// grammarDoc is the page that states the constraint grammar; its tables
// under "### `~>` expansion" and "### What is refused" are checked here.
const grammarDoc = "../docs/policies.md"

// docRow is one row of a table of grammarDoc: its cells, split at the
// pipes that are not escaped, and its line.
type docRow struct {
	cells []string
	line  int
}

// readSectionTable returns the rows of the first table after the heading
// line, without its header and separator rows.
func readSectionTable(t *testing.T, heading string) []docRow {
	t.Helper()
	f, err := os.Open(grammarDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []docRow
	inSection, inTable, header := false, false, true
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == heading:
			inSection = true
		case !inSection:
		case strings.HasPrefix(line, "#"):
			inSection = false
		case strings.HasPrefix(line, "|"):
			inTable = true
			cells := splitCells(line)
			switch {
			case header:
				header = false
			case strings.HasPrefix(cells[0], "---"):
			default:
				rows = append(rows, docRow{cells, n})
			}
		case inTable:
			inSection = false
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table under %q", grammarDoc, heading)
	}
	return rows
}

// splitCells splits a Markdown table row at its pipes, leaving "\|"
// inside a cell, and trims each cell.
func splitCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\':
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(line[start:]))
}

// codeSpans returns the contents of a cell's code spans, in order, as
// written (a trailing space stays).
func codeSpans(cell string) []string {
	var spans []string
	for {
		open := strings.IndexByte(cell, '`')
		if open < 0 {
			return spans
		}
		end := strings.IndexByte(cell[open+1:], '`')
		if end < 0 {
			return spans
		}
		spans = append(spans, cell[open+1:open+1+end])
		cell = cell[open+1+end+1:]
	}
}

// TestDocPessimisticExpansion checks the table "### `~>` expansion" of
// docs/policies.md: each written constraint judges like the constraint it
// is read as, by precedence (Constraint.Holds, B, the rule of the linear
// policy), on probe versions around every bound of either, each as a
// release and with prereleases.
func TestDocPessimisticExpansion(t *testing.T) {
	for _, row := range readSectionTable(t, "### `~>` expansion") {
		if len(row.cells) != 2 {
			t.Fatalf("%s:%d: %d cells, want 2", grammarDoc, row.line, len(row.cells))
		}
		written, readAs := codeSpans(row.cells[0]), codeSpans(row.cells[1])
		if len(written) != 1 || len(readAs) != 1 {
			t.Fatalf("%s:%d: want one constraint in each cell, found %q and %q", grammarDoc, row.line, written, readAs)
		}
		w, err := ParseConstraint(written[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", grammarDoc, row.line, err)
		}
		r, err := ParseConstraint(readAs[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", grammarDoc, row.line, err)
		}
		probes := probeVersions(w, r)
		for _, v := range probes {
			if got, want := w.Holds(v), r.Holds(v); got != want {
				t.Errorf("%s:%d: %q holds for %s: %v, but %q: %v", grammarDoc, row.line, written[0], v, got, readAs[0], want)
			}
		}
		t.Logf("%s: %d probe versions", written[0], len(probes))
	}
}

// probeVersions returns versions around every bound of the constraints:
// each bound's version, its core, each number one below and one above
// (the lower numbers then zero), as releases and with the prereleases
// "0", "beta" and "rc.1", and each bound's own prerelease.
func probeVersions(cs ...Constraint) []Version {
	var bounds []Version
	for _, c := range cs {
		for _, cmp := range c.Comparators() {
			bounds = append(bounds, cmp.Version)
			if upper, ok := cmp.Upper(); ok {
				bounds = append(bounds, upper)
			}
		}
	}
	seen := map[string]bool{}
	var out []Version
	add := func(major, minor, patch uint64, pre string) {
		text := strconv.FormatUint(major, 10) + "." + strconv.FormatUint(minor, 10) + "." + strconv.FormatUint(patch, 10)
		if pre != "" {
			text += "-" + pre
		}
		if !seen[text] {
			seen[text] = true
			out = append(out, MustParseVersion(text))
		}
	}
	for _, b := range bounds {
		nums := [3]uint64{b.Major(), b.Minor(), b.Patch()}
		cores := [][3]uint64{nums}
		for i := range nums {
			for _, step := range []int{-1, 1} {
				n := nums
				switch {
				case step < 0 && n[i] == 0, step > 0 && n[i] == ^uint64(0):
					continue
				case step < 0:
					n[i]--
				default:
					n[i]++
				}
				for j := i + 1; j < len(n); j++ {
					n[j] = 0
				}
				cores = append(cores, n)
			}
		}
		for _, n := range cores {
			for _, pre := range []string{"", "0", "beta", "rc.1", b.Prerelease()} {
				add(n[0], n[1], n[2], pre)
			}
		}
	}
	return out
}

// TestDocRefused checks the table "### What is refused" of
// docs/policies.md: ParseConstraint refuses each constraint of the first
// column with a *ParseError whose message contains the second column's
// first code span, up to any "...".
func TestDocRefused(t *testing.T) {
	for _, row := range readSectionTable(t, "### What is refused") {
		if len(row.cells) != 2 {
			t.Fatalf("%s:%d: %d cells, want 2", grammarDoc, row.line, len(row.cells))
		}
		constraints, messages := codeSpans(row.cells[0]), codeSpans(row.cells[1])
		if len(constraints) == 0 || len(messages) == 0 {
			t.Fatalf("%s:%d: want constraints and an error, found %q and %q", grammarDoc, row.line, constraints, messages)
		}
		want, _, _ := strings.Cut(messages[0], "...")
		for _, c := range constraints {
			_, err := ParseConstraint(c)
			var pe *ParseError
			switch {
			case err == nil:
				t.Errorf("%s:%d: %q is read, the page says it is refused", grammarDoc, row.line, c)
			case !errors.As(err, &pe):
				t.Errorf("%s:%d: %q: error %v is not a *ParseError", grammarDoc, row.line, c, err)
			case !strings.Contains(err.Error(), want):
				t.Errorf("%s:%d: %q: error %q, the page says %q", grammarDoc, row.line, c, err, want)
			}
		}
	}
}
