package report

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// SplitDated splits each VERSION@DATE of in into the version and its
// date (engine.ParseNow), for NewCooledSelectReport; a version without
// "@" has none. A date that does not parse is an error naming the item.
func SplitDated(in []string) ([]string, engine.Dates, error) {
	versions := make([]string, len(in))
	dates := make(engine.Dates, len(in))
	for i, s := range in {
		v, d, ok := strings.Cut(s, "@")
		versions[i] = v
		if !ok {
			continue
		}
		t, err := engine.ParseNow(d)
		if err != nil {
			return nil, nil, fmt.Errorf("version %s: the date after @: %v", printable.String(s), err)
		}
		dates[i] = t
	}
	return versions, dates, nil
}
