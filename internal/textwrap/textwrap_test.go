package textwrap

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 25)
	tests := []struct {
		s           string
		first, rest int
		want        []string
	}{
		{"", 0, 2, []string{""}},
		{"a b c", 0, 2, []string{"a b c"}},
		{"aaaa bbbb cccc dddd", 0, 2, []string{"aaaa bbbb", "  cccc", "  dddd"}},
		{"aaaa bbbb cc dd", 0, 2, []string{"aaaa bbbb", "  cc dd"}},
		{"aaaa bbbb cccc dddd", 2, 4, []string{"  aaaa", "    bbbb", "    cccc", "    dddd"}},
		{"a " + long + " b", 0, 2, []string{"a", "  " + long, "  b"}},
		{"é é é é é é", 0, 0, []string{"é é é é é", "é"}},
		{"a  b", 0, 0, []string{"a  b"}},
	}
	for _, tt := range tests {
		got := Lines(tt.s, 10, tt.first, tt.rest)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Lines(%q, 10, %d, %d) = %q, want %q", tt.s, tt.first, tt.rest, got, tt.want)
		}
	}
}
