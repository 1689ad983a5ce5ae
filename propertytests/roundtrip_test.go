package propertytests

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/prerel/prerel/compare/generate"
	"github.com/prerel/prerel/engine"
)

// TestParsePrintParse: printing a parsed constraint or version and parsing
// the text again gives the same value and the same text; the compact
// spelling without spaces parses to the same comparators.
func TestParsePrintParse(t *testing.T) {
	tests := []struct {
		name string
		prop gopter.Prop
	}{
		{
			name: "constraint parse, print, parse is stable",
			prop: prop.ForAll(func(c generate.ConstraintSpec) string {
				text := c.String()
				first, err := engine.ParseConstraint(text)
				if err != nil {
					return err.Error()
				}
				printed := first.String()
				if printed != text {
					return fmt.Sprintf("%q prints as %q", text, printed)
				}
				for _, s := range []string{printed, strings.ReplaceAll(text, " ", "")} {
					again, err := engine.ParseConstraint(s)
					if err != nil {
						return err.Error()
					}
					if again.String() != printed {
						return fmt.Sprintf("%q prints as %q, want %q", s, again.String(), printed)
					}
					if !sameComparators(first.Comparators(), again.Comparators()) {
						return fmt.Sprintf("%q and %q parse to different comparators", text, s)
					}
				}
				return ""
			}, generate.Constraint(maxComparators)),
		},
		{
			name: "version parse, print, parse is stable",
			prop: prop.ForAll(func(v generate.VersionSpec) string {
				text := v.String()
				first, err := engine.ParseVersion(text)
				if err != nil {
					return err.Error()
				}
				if first.String() != text {
					return fmt.Sprintf("%q prints as %q", text, first.String())
				}
				again, err := engine.ParseVersion(first.String())
				if err != nil {
					return err.Error()
				}
				if again != first {
					return fmt.Sprintf("%q parses to %#v, then %#v", text, first, again)
				}
				return ""
			}, generate.Version()),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireHolds(t, tt.name, tt.prop.Check(parameters(t)), nil)
		})
	}
}

func sameComparators(a, b []engine.Comparator) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
