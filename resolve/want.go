package resolve

import (
	"fmt"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/suggest"
)

// Wanted is the exact version the configuration wants for an item,
// whatever its policy selects (prerel.hcl's want, or --want), and where
// it was set.
type Wanted struct {
	Version string `json:"version"`
	From    string `json:"from"`
}

// applyWant makes the wanted version the item's selection when the
// registry lists it: as listed, or listed with a "v" the wish left out
// (or the reverse), or the same version by SemVer precedence and build.
// A wanted version that is not listed leaves no selection; status then
// says so.
func (it *Item) applyWant(w Wanted, versions []string) {
	it.Wanted = &w
	it.Selected = nil
	if v, ok := engine.FindListed(w.Version, versions); ok {
		it.Selected = &v
	}
}

// didYouMean returns "; did you mean X?" naming the listed version
// closest to version, or "" when none is close.
func didYouMean(version string, listed []string) string {
	if c := suggest.Closest(version, listed); c != "" {
		return fmt.Sprintf("; did you mean %s?", c)
	}
	return ""
}
