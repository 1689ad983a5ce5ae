// Package suggest finds the name that a mistyped name was likely meant to
// be, for the "did you mean" of an error message.
//
// Names are compared without regard to case, by their Levenshtein edit
// distance: the number of runes to insert, delete or replace to turn one
// into the other. A candidate is close enough when that distance is at
// most MaxDistance(name): one edit, one more for every three runes of the
// name, and three at most. A short name is so not matched to every other
// short name, a longer one may hold a typo or two more, and names that
// share a long prefix ("hashicorp/helm", "hashicorp/aws") are not taken
// for each other.
package suggest

import (
	"strings"
	"unicode/utf8"

	"github.com/agext/levenshtein"
)

// MaxDistance is the largest edit distance at which a candidate is
// suggested for name: 1 plus a third of name's length in runes, rounded
// down, and at most 3.
func MaxDistance(name string) int {
	return min(3, 1+utf8.RuneCountInString(name)/3)
}

// Closest returns the candidate closest to name when it is within
// MaxDistance(name) of it, and "" when none is. Of candidates at the same
// distance, the first is returned. Case is ignored, so a candidate that
// differs from name only in case is the closest.
func Closest(name string, candidates []string) string {
	best, bestD := "", MaxDistance(name)+1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if d := levenshtein.Distance(lower, strings.ToLower(c), nil); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
