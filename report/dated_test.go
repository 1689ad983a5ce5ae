package report

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
)

func TestSplitDated(t *testing.T) {
	day := time.Date(2026, 2, 27, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		in       []string
		versions []string
		dates    engine.Dates
		err      string
	}{
		{"none", nil, []string{}, engine.Dates{}, ""},
		{"dated and not", []string{"1.0.0@2026-02-27T12:00:00Z", "1.1.0"}, []string{"1.0.0", "1.1.0"}, engine.Dates{day, {}}, ""},
		{"a bad date", []string{"1.0.0", "1.1.0@yesterday\x1b"}, nil, nil, `version 1.1.0@yesterday\x1b: the date after @: `},
	} {
		versions, dates, err := SplitDated(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
		case err != nil || !reflect.DeepEqual(versions, tt.versions) || len(dates) != len(tt.dates):
			t.Errorf("%s: %q, %v, %v; want %q, %v", tt.name, versions, dates, err, tt.versions, tt.dates)
		default:
			for i := range dates {
				if !dates[i].Equal(tt.dates[i]) {
					t.Errorf("%s: date %d is %v, want %v", tt.name, i, dates[i], tt.dates[i])
				}
			}
		}
	}
}
