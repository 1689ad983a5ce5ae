package compare_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/prerel/prerel/compare"
)

func groupsOf(t *testing.T, d compare.Domain) []compare.Group {
	t.Helper()
	var out []compare.Group
	if err := d.Groups(func(g compare.Group) bool {
		out = append(out, g)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileDomain(t *testing.T) {
	text := "# comment\n" +
		">= 1.0.0\t1.0.0\r\n" +
		">= 1.0.0\t1.1.0-beta\n" +
		"\n" +
		"\t2.0.0\n" +
		" ~> 1.2 \t 1.2.0\n" +
		">= 1.0.0\t3.0.0\n"
	path := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []compare.Group{
		{Constraint: ">= 1.0.0", Versions: []string{"1.0.0", "1.1.0-beta"}},
		{Constraint: "", Versions: []string{"2.0.0"}},
		{Constraint: " ~> 1.2 ", Versions: []string{" 1.2.0"}},
		{Constraint: ">= 1.0.0", Versions: []string{"3.0.0"}},
	}
	fromPath, err := compare.File(path)
	if err != nil {
		t.Fatal(err)
	}
	fromFS, err := compare.FileFS(fstest.MapFS{"cases.tsv": {Data: []byte(text)}}, "cases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	fromLines, err := compare.Lines("stdin", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []compare.Domain{fromPath, fromFS, fromLines} {
		if got := groupsOf(t, d); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: groups\n  %q\nwant\n  %q", d.Info().Description, got, want)
		}
		if info := d.Info(); info.Cases != 5 || info.Name != "file" {
			t.Errorf("info = %+v, want 5 cases of a file", info)
		}
	}
	if got := fromLines.Info().Description; got != "file stdin: 5 cases" {
		t.Errorf("description %q", got)
	}
}

func TestFileDomainErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"no tab", ">= 1.0.0\t1.0.0\n>= 1.0.0 1.0.0\n", "bad.tsv:2: no tab"},
		{"two tabs", "# header\n\n>= 1.0.0\t1.0.0\textra\n", "bad.tsv:3: more than one tab"},
		{"no version", ">= 1.0.0\t\n", "bad.tsv:1: no version after the tab"},
		{"no cases", "# only a comment\n\n", "bad.tsv: no cases"},
		{"a line too long", "x\t" + strings.Repeat("1", 2<<20) + "\n", "bad.tsv:1: line longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compare.Lines("bad.tsv", []byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := compare.File(filepath.Join(t.TempDir(), "missing.tsv")); err == nil {
		t.Error("a missing file is no error")
	}
}

// A file that goes bad after it was checked fails the run with the line.
func TestFileDomainChangedOnDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(path, []byte(">= 1.0.0\t1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := compare.File(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(">= 1.0.0\t1.0.0\nbroken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = d.Groups(func(compare.Group) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "cases.tsv:2: no tab") {
		t.Errorf("error %v, want cases.tsv:2: no tab", err)
	}
}
