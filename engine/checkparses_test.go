package engine

import (
	"strings"
	"testing"
)

func TestCheckParses(t *testing.T) {
	for _, tt := range []struct {
		constraint string
		versions   []string
		err        string // "" when it parses
	}{
		{">= 1.0", []string{"1.0.0", "v2.0.0-rc.1"}, ""},
		{"= 1.15.9.0", []string{"1.15.9.0", "1.2.3.4-beta1"}, ""},
		{"", nil, ""},
		{">= 1.0 ,,", nil, "constraint"},
		{">= 1.0", []string{"1.0.0", "1.0"}, "expected MAJOR.MINOR.PATCH, found only 2 numeric parts"},
		{">= 1.0", []string{"01.0.0"}, "leading zero"},
	} {
		err := CheckParses(tt.constraint, tt.versions)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("CheckParses(%q, %q) = %v, want %q", tt.constraint, tt.versions, err, tt.err)
		}
	}
}
