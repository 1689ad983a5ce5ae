package age

import (
	"fmt"
	"strings"
)

// Domain is a set of dated cases.
type Domain interface {
	// Description says what the domain holds, in a line.
	Description() string
	// Cases yields every case in a fixed order; an error from yield
	// ends the run with it.
	Cases(yield func(Case) error) error
}

// The alphabet of the exhaustive dated domain: releases and prereleases
// of two minors and a major.
var (
	alphabet    = []string{"1.0.0", "1.1.0-rc.1", "1.1.0", "2.0.0-rc.1", "2.0.0"}
	bounds      = []string{"1.0.0", "1.1.0-rc.1", "1.1.0", "2.0.0-rc.1", "2.0.0", "1.1", "1"}
	operators   = []string{"", ">=", ">", "<", "<=", "~>", "!="}
	upperBounds = []string{"< 2.0.0", "< 2.0.0-0", "< 1.1.0"}
)

// Exhaustive is every history over the alphabet (1.0.0, 1.1.0-rc.1,
// 1.1.0, 2.0.0-rc.1, 2.0.0), each version absent, old or young, against
// every constraint of one comparator over the bounds (the alphabet, "1.1"
// and "1", with each of the seven operators) and every pair of a ">="
// comparator and an upper bound.
func Exhaustive() Domain { return exhaustive{} }

type exhaustive struct{}

func (exhaustive) Description() string {
	return fmt.Sprintf("every history over %s, each version absent, old or young, against every constraint of one comparator over them (and 1.1, 1) and of a lower and an upper bound",
		strings.Join(alphabet, ", "))
}

func (exhaustive) constraints() []string {
	var out []string
	for _, op := range operators {
		for _, b := range bounds {
			if op == "" {
				out = append(out, b)
			} else {
				out = append(out, op+" "+b)
			}
		}
	}
	for _, lo := range alphabet {
		for _, hi := range upperBounds {
			out = append(out, ">= "+lo+", "+hi)
		}
	}
	return out
}

func (e exhaustive) Cases(yield func(Case) error) error {
	constraints := e.constraints()
	n := 1
	for range alphabet {
		n *= 3
	}
	for code := 1; code < n; code++ {
		var versions, young []string
		c := code
		for _, v := range alphabet {
			switch c % 3 {
			case 1:
				versions = append(versions, v)
			case 2:
				versions = append(versions, v)
				young = append(young, v)
			}
			c /= 3
		}
		for _, con := range constraints {
			if err := yield(Case{Constraint: con, Versions: versions, Young: young}); err != nil {
				return err
			}
		}
	}
	return nil
}
