package lines

import (
	"bufio"
	"strings"
	"testing"
)

func TestSplitDropsExactlyOneCR(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{"a\r\r\n", []string{"a\r"}},
		{"a\rb\n", []string{"a\rb"}},
		{"\n\n", []string{"", ""}},
		{"", nil},
	}
	for _, tt := range tests {
		sc := bufio.NewScanner(strings.NewReader(tt.in))
		sc.Split(Split)
		var got []string
		for sc.Scan() {
			got = append(got, string(TrimCR(sc.Bytes())))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("lines of %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}
