package policies

import "github.com/prerel/prerel/engine"

// Reasons shared by the native policies. Every reason is a constant string,
// so that judging a parsed pair never allocates.
const (
	reasonReleaseHolds = "release satisfies every comparator"
	reasonEmptyRelease = "empty constraint: every release is admitted"
)

// precedenceFailure names, per operator, why a version fails a comparator
// by SemVer precedence alone. Index by engine.Op; index 0 is unused.
var precedenceFailure = [...]string{
	"fails a comparator by precedence",
	engine.OpEqual:        "not equal by precedence to an = comparator's version",
	engine.OpNotEqual:     "equal by precedence to a != comparator's version",
	engine.OpGreater:      "not above a > comparator's version",
	engine.OpGreaterEqual: "below a >= comparator's version",
	engine.OpLess:         "not below a < comparator's version",
	engine.OpLessEqual:    "above a <= comparator's version",
	engine.OpPessimistic:  "not below a ~> comparator's upper bound",
}

const reasonBelowPessimistic = "below a ~> comparator's version"

// failedBase returns the first comparator of c that v does not satisfy by
// precedence alone, or nil when B(c, v) holds.
func failedBase(c *engine.Constraint, v *engine.Version) *engine.Comparator {
	if i := c.FirstFailure(v); i >= 0 {
		return &c.Comparators()[i]
	}
	return nil
}

// precedenceReason says why v fails cmp by precedence alone.
func precedenceReason(cmp *engine.Comparator, v *engine.Version) string {
	if cmp.Op == engine.OpPessimistic && v.Compare(cmp.Version) < 0 {
		return reasonBelowPessimistic
	}
	return byOp(&precedenceFailure, cmp.Op)
}

// byOp returns tab[op], or tab[0] for an operator outside the table.
func byOp(tab *[8]string, op engine.Op) string {
	if int(op) < len(tab) {
		return tab[op]
	}
	return tab[0]
}

// judgeRelease is the rule every native policy in this package applies to a
// release version, except where a policy says otherwise: B(c, v).
func judgeRelease(c *engine.Constraint, v *engine.Version) engine.Result {
	if cmp := failedBase(c, v); cmp != nil {
		return engine.Rejected(precedenceReason(cmp, v))
	}
	if c.Len() == 0 {
		return engine.Allowed(reasonEmptyRelease)
	}
	return engine.Allowed(reasonReleaseHolds)
}
