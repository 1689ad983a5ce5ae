package compare

import (
	"strings"

	"github.com/prerel/prerel/engine"
)

// constraintInfo is a group's constraint as the engine reads it, with the
// parts of the witness order that depend on the constraint alone.
type constraintInfo struct {
	text   string
	parsed engine.Constraint
	ok     bool   // the engine parses the text
	comps  int    // comparators (for text the engine refuses, comma-separated fields)
	nums   uint64 // sum of the numbers written in the text
}

func newConstraintInfo(text string) constraintInfo {
	ci := constraintInfo{text: text, nums: sumNumbers(text)}
	c, err := engine.ParseConstraint(text)
	if err == nil {
		ci.parsed, ci.ok, ci.comps = c, true, c.Len()
		return ci
	}
	for _, f := range strings.Split(text, ",") {
		if strings.TrimSpace(f) != "" {
			ci.comps++
		}
	}
	return ci
}

// versionInfo is a version as the engine reads it.
type versionInfo struct {
	text   string
	parsed engine.Version
	ok     bool
	marks  uint8 // versionMarks of parsed, when ok
	nums   uint64
}

func newVersionInfo(text string) versionInfo {
	vi := versionInfo{text: text, nums: sumNumbers(text)}
	v, err := engine.ParseVersion(text)
	if err == nil {
		vi.parsed, vi.ok, vi.marks = v, true, versionMarks(v)
	}
	return vi
}

// sumNumbers adds up every run of decimal digits in s, saturating at the
// largest uint64 so that no input overflows.
func sumNumbers(s string) uint64 {
	const max = ^uint64(0)
	var sum, n uint64
	in := false
	add := func() {
		if sum > max-n {
			sum = max
		} else {
			sum += n
		}
		n, in = 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			if in {
				add()
			}
			continue
		}
		in = true
		d := uint64(c - '0')
		if n > (max-d)/10 {
			n = max
		} else {
			n = n*10 + d
		}
	}
	if in {
		add()
	}
	return sum
}
