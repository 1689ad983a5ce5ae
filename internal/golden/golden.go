// Package golden compares test output with golden files, the expected
// output kept beside the tests, and rewrites them on request.
//
// Importing the package registers the -update flag of the test binary:
//
//	go test ./compare -update
//
// rewrites the golden files the tests of ./compare check, instead of
// comparing with them; review the change with version control, then run
// the tests again without the flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with the output of the tests")

// Update reports whether the tests run with -update, for tests that keep
// other generated files up to date the same way. It is meaningful once
// the flags are parsed, that is inside a test.
func Update() bool { return *update }

// Check compares got with the golden file at path. With -update it
// writes got to path instead, creating the directories it needs. A
// golden file that is missing or differs fails the test; the message
// names the first line that differs, by number, with both versions of
// it.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run the test with -update to write it)", err)
	}
	if msg := diff(got, want); msg != "" {
		t.Errorf("output differs from %s (run the test with -update to rewrite it, then review the change):\n%s", path, msg)
	}
}

// diff describes where got first differs from want, the golden file's
// content, or returns "" when they are equal: the number of the first
// line that differs, that line of each quoted (so that white space and
// line endings show), and how many lines each has.
func diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, w := lines(got), lines(want)
	i := 0
	for i < len(g) && i < len(w) && bytes.Equal(g[i], w[i]) {
		i++
	}
	return fmt.Sprintf("first difference at line %d:\n  got:  %s\n  want: %s\ngot %s, the golden file %s",
		i+1, lineAt(g, i), lineAt(w, i), countLines(len(g)), countLines(len(w)))
}

// lines splits b into lines, each with its line ending, so that a
// missing final newline or a CR LF shows as a difference of its own.
func lines(b []byte) [][]byte {
	ls := bytes.SplitAfter(b, []byte("\n"))
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// lineAt quotes line i of ls, or says that ls ends before it.
func lineAt(ls [][]byte, i int) string {
	if i >= len(ls) {
		return "(end of file)"
	}
	return strconv.Quote(string(ls[i]))
}

// countLines says how many lines there are.
func countLines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return strconv.Itoa(n) + " lines"
}
