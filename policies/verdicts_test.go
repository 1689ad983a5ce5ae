package policies

import (
	"crypto/sha256"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
)

// verdictFile holds the native policies' cases that the verdict table of
// policyDoc does not show, in its format.
const verdictFile = "testdata/verdicts.md"

// pinLine is the last line of verdictFile: it pins the cases of both
// tables, their count and the digest of their sorted constraint and
// version texts, so that a row deleted (or added) fails until the pin is
// changed with it.
const pinLine = "Pinned cases of both tables: %d, digest %s."

// verdictRow is one case of the verdict tables and each native policy's
// verdict on it, with where it is written.
type verdictRow struct {
	constraint, version string
	verdicts            map[string]engine.Verdict // by policy name
	at                  string
}

// verdictRows returns the rows of the native policies' input table: the
// verdict table of policyDoc ("The same cases under each native
// policy"), then every table of verdictFile.
func verdictRows(t *testing.T) []verdictRow {
	t.Helper()
	var rows []verdictRow
	for _, tab := range []docTable{
		readTables(t, policyDoc, "constraint", "version", "strict"),
		readTables(t, verdictFile, "constraint", "version", "strict"),
	} {
		names := tab.header[2:]
		for i, cells := range tab.rows {
			if len(cells) != len(tab.header) {
				t.Fatalf("%s: %d cells, the header has %d", tab.at[i], len(cells), len(tab.header))
			}
			r := verdictRow{constraint: cells[0], version: cells[1], verdicts: map[string]engine.Verdict{}, at: tab.at[i]}
			for j, name := range names {
				v, err := engine.ParseVerdict(cells[2+j])
				if err != nil {
					t.Fatalf("%s: column %s: %v", tab.at[i], name, err)
				}
				r.verdicts[name] = v
			}
			for _, p := range All() {
				if _, ok := r.verdicts[p.Name()]; !ok {
					t.Fatalf("%s: no column for %s", tab.at[i], p.Name())
				}
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// TestVerdictTables checks every cell of the native policies' input table
// against the policy its column names, through Compile and Match and
// through the policy's version table, with a reason; it refuses a case
// written twice and pins the cases, so that a deleted row fails.
func TestVerdictTables(t *testing.T) {
	rows := verdictRows(t)
	seen := map[[2]string]string{}
	var keys []string
	cells := 0
	for _, r := range rows {
		k := [2]string{r.constraint, r.version}
		if first, ok := seen[k]; ok {
			t.Errorf("%s: %q | %q is already a row at %s", r.at, r.constraint, r.version, first)
		}
		seen[k] = r.at
		keys = append(keys, r.constraint+"\x00"+r.version)
		for name, want := range r.verdicts {
			checkDocCell(t, nativeByName(t, name), r.constraint, r.version, want, r.at)
			cells++
		}
	}
	slices.Sort(keys)
	digest := fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(keys, "\n"))))[:16]
	text, err := os.ReadFile(verdictFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if want := fmt.Sprintf(pinLine, len(keys), digest); lines[len(lines)-1] != want {
		t.Errorf("%s ends in %q; the tables now hold %q: a row was added or deleted, and the pin changes only with the rows", verdictFile, lines[len(lines)-1], want)
	}
	t.Logf("%d cells of %d cases checked", cells, len(keys))
}
