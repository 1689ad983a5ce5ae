package main

import (
	"strings"
	"testing"
)

// helpWidth is the widest a line of help may be, in terminal columns.
const helpWidth = 80

// TestHelpWidth checks that every line of 'prerel --help' and of each
// command's -h fits in helpWidth columns, tabs expanded to the next
// multiple of 8 as a terminal shows them.
func TestHelpWidth(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"prerel --help", []string{"--help"}},
		{"prerel policies -h", []string{"policies", "-h"}},
		{"prerel check -h", []string{"check", "-h"}},
		{"prerel eval -h", []string{"eval", "-h"}},
		{"prerel select -h", []string{"select", "-h"}},
		{"prerel explain -h", []string{"explain", "-h"}},
		{"prerel compare -h", []string{"compare", "-h"}},
		{"prerel resolve -h", []string{"resolve", "-h"}},
		{"prerel impact -h", []string{"impact", "-h"}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.args[0]] = true
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != exitOK || stdout != "" || stderr == "" {
				t.Fatalf("%s: exit %d, stdout %q, stderr %q; want exit %d and help on stderr only",
					tt.name, code, stdout, stderr, exitOK)
			}
			for i, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				if w := columns(line); w > helpWidth {
					t.Errorf("%s: line %d is %d columns wide, more than %d:\n%s",
						tt.name, i+1, w, helpWidth, line)
				}
			}
		})
	}
	for _, c := range commands {
		if !covered[c.name] {
			t.Errorf("command %s has no case in TestHelpWidth", c.name)
		}
	}
}

// columns is how many terminal columns line takes, a tab advancing to the
// next multiple of 8.
func columns(line string) int {
	n := 0
	for _, r := range line {
		if r == '\t' {
			n += 8 - n%8
		} else {
			n++
		}
	}
	return n
}

func TestColumns(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\tx", 9},
		{"    \tx", 9},
		{"1234567\tx", 9},
		{"12345678\tx", 17},
		{"é", 1},
	}
	for _, tt := range tests {
		if got := columns(tt.line); got != tt.want {
			t.Errorf("columns(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}
