package notes

import (
	"reflect"
	"strings"
	"testing"
)

func TestShape(t *testing.T) {
	tests := []struct {
		subject, reason, want string
	}{
		{"v1.5.0", `go-versions ParseVersion: a "v" prefix should not be used`, `go-versions ParseVersion: a "v" prefix should not be used`},
		{"1.2", `version "1.2": column 4: expected MAJOR.MINOR.PATCH, found only 2 numeric parts`, `expected MAJOR.MINOR.PATCH, found only 2 numeric parts`},
		{"v0.12", `version "v0.12": column 6: expected MAJOR.MINOR.PATCH, found only 2 numeric parts`, `expected MAJOR.MINOR.PATCH, found only 2 numeric parts`},
		{"1.2rc1", `version "1.2rc1": column 4: expected "." and the patch number, found "rc1"`, `expected "." and the patch number, found "…"`},
		{"1.0.0x1", `go-versions ParseVersion: invalid characters "x1"`, `go-versions ParseVersion: invalid characters "…"`},
		{"nope", `admitted but cannot be ordered: version "nope": column 1: expected a version, found "nope"`, `admitted but cannot be ordered: expected a version, found "…"`},
		{"1.0.0", `cannot read "1.0.0" today`, `cannot read "…" today`},
		{"1.0.0", `Masterminds NewVersion: invalid semantic version`, `Masterminds NewVersion: invalid semantic version`},
		{"1.0.0", `version "2.0.0": column 1: other`, `version "2.0.0": column 1: other`},
	}
	for _, tt := range tests {
		if got := Shape(tt.subject, tt.reason); got != tt.want {
			t.Errorf("Shape(%q, %q) = %q, want %q", tt.subject, tt.reason, got, tt.want)
		}
	}
}

func TestGroupNotes(t *testing.T) {
	const v = `go-versions ParseVersion: a "v" prefix should not be used`
	two := func(s string) string {
		return `version "` + s + `": column 4: expected MAJOR.MINOR.PATCH, found only 2 numeric parts`
	}
	ns := []Note{
		{"strict", "1.0", two("1.0")},
		{"am", "v1.0.0", v},
		{"am-exact", "v1.0.0", v},
		{"am", "v1.1.0", v},
		{"strict", "1.1", two("1.1")},
		{"am-exact", "v1.1.0", v},
		{"am", "v2.0.0", v}, // only am: a group of its own
		{"cargo", "1.0", two("1.0")},
	}
	got := GroupNotes(ns)
	want := []Group{
		{Policies: []string{"am", "am-exact"}, Shape: v, Subjects: []string{"v1.0.0", "v1.1.0"}, Reason: v},
		{Policies: []string{"strict", "cargo"}, Shape: "expected MAJOR.MINOR.PATCH, found only 2 numeric parts", Subjects: []string{"1.0"}, Reason: two("1.0")},
		{Policies: []string{"strict"}, Shape: "expected MAJOR.MINOR.PATCH, found only 2 numeric parts", Subjects: []string{"1.1"}, Reason: two("1.1")},
		{Policies: []string{"am"}, Shape: v, Subjects: []string{"v2.0.0"}, Reason: v},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("GroupNotes:\n got %+v\nwant %+v", got, want)
	}
	if n := got[0].Notes(); n != 4 {
		t.Errorf("Notes() = %d, want 4", n)
	}
}

func TestAndAndCut(t *testing.T) {
	tests := []struct {
		names []string
		max   int
		want  string
		left  int
	}{
		{nil, 3, "", 0},
		{[]string{"a"}, 3, "a", 0},
		{[]string{"a", "b"}, 3, "a and b", 0},
		{[]string{"a", "b", "c"}, 3, "a, b and c", 0},
		{[]string{"a", "b", "c", "d", "e"}, 3, "a, b, c and 2 more", 2},
		{[]string{"a", "b", "c", "d", "e"}, 0, "a, b, c, d and e", 0},
	}
	for _, tt := range tests {
		got, left := Cut(tt.names, tt.max)
		if got != tt.want || left != tt.left {
			t.Errorf("Cut(%q, %d) = %q, %d; want %q, %d", tt.names, tt.max, got, left, tt.want, tt.left)
		}
	}
}

func TestRelevant(t *testing.T) {
	got := Relevant([]string{"bad", "v1.0.0", "v1.10.0", "v1.2.0", "v2.0.0-beta", "worse"}, "v1.2.0")
	want := []string{"v1.2.0", "v2.0.0-beta", "v1.10.0", "v1.0.0", "bad", "worse"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Relevant = %q, want %q", got, want)
	}
}

func TestWrap(t *testing.T) {
	words := strings.Fields("aaa bbb ccc ddd eee")
	got := Wrap(words, "  ", 11)
	want := []string{"  aaa bbb", "  ccc ddd", "  eee"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
	for _, l := range Wrap(append(words, strings.Repeat("x", 20)), "  ", 11) {
		if len(l) > 11 && strings.Contains(l, " ") && strings.TrimSpace(l) != strings.Repeat("x", 20) {
			t.Errorf("line %q is too wide", l)
		}
	}
}

func TestOmitted(t *testing.T) {
	var o Omitted
	if o.Any() || o.String() != "" {
		t.Errorf("empty Omitted = %q", o.String())
	}
	o.Add(0, "line", "lines")
	o.Add(2, "item", "items")
	o.Add(1, "line", "lines")
	o.Add(3, "item", "items")
	if got := o.String(); got != "5 items and 1 line" {
		t.Errorf("Omitted = %q", got)
	}
}
