package elide

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHead(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "abcde…"},
		{"ab１２", 4, "ab…"},
		{"１２", 2, "…"},
		{"abc", 0, "…"},
	}
	for _, tt := range tests {
		if got := Head(tt.s, tt.n); got != tt.want {
			t.Errorf("Head(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestMiddle(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdefghij", 6, "abcd…ij"},
		{"１２３４５", 9, "１２…５"},
		{"abc", 0, "…"},
	}
	for _, tt := range tests {
		if got := Middle(tt.s, tt.n); got != tt.want {
			t.Errorf("Middle(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// TestBounded checks that long text, valid UTF-8 or not, comes out at
// most n bytes and the mark long, valid when it went in valid.
func TestBounded(t *testing.T) {
	inputs := []string{
		strings.Repeat("1", 1<<20),
		strings.Repeat("１", 1<<18),
		strings.Repeat("\xff\x80", 1<<18),
		strings.Repeat("é", 1000) + strings.Repeat("x", 1000),
	}
	for _, s := range inputs {
		for _, n := range []int{0, 1, 7, 60, 1024} {
			for name, got := range map[string]string{"Head": Head(s, n), "Middle": Middle(s, n)} {
				if len(got) > n+len(Mark) {
					t.Errorf("%s(%.10q..., %d) is %d bytes", name, s, n, len(got))
				}
				if utf8.ValidString(s) && !utf8.ValidString(got) {
					t.Errorf("%s(%.10q..., %d) = %q is not valid UTF-8", name, s, n, got)
				}
			}
		}
	}
}
