package policies

import (
	"fmt"
	"strconv"

	"github.com/prerel/prerel/engine"
)

// explanation builds an engine.Explanation step by step. The native
// policies share it: each reads the pair with parse, describes each
// comparator with readAs and its own rule, and ends with verdict, whose
// Result is the policy's Judge on the same parsed pair.
type explanation struct {
	steps []engine.Step
}

func (x *explanation) add(subject, format string, args ...any) {
	x.steps = append(x.steps, engine.Step{Subject: subject, Detail: fmt.Sprintf(format, args...)})
}

// parse parses the pair as Compile and Match do, the constraint first, and
// describes the version. An error is the parser's, already explained.
func (x *explanation) parse(constraint, version string) (engine.Constraint, engine.Version, error) {
	return x.parseWith(constraint, version, engine.ParseConstraint, engine.ParseVersion)
}

// parseWith is parse with the given parsers: core-only's read more than
// three numeric parts.
func (x *explanation) parseWith(constraint, version string, parseC func(string) (engine.Constraint, error), parseV func(string) (engine.Version, error)) (engine.Constraint, engine.Version, error) {
	c, err := parseC(constraint)
	if err != nil {
		x.add("constraint", "the engine's parser refuses it: %v", err)
		return c, engine.Version{}, err
	}
	v, err := parseV(version)
	if err != nil {
		x.add("version", "the engine's parser refuses it: %v", err)
		return c, v, err
	}
	what := show(v) + " is a release"
	if v.IsPrerelease() {
		what = fmt.Sprintf("%s is a prerelease of %s", show(v), show(v.Core()))
	}
	if v.Build() != "" {
		what += "; build metadata +" + v.Build() + " never counts"
	}
	x.add("version", "%s", what)
	if c.Len() == 0 {
		x.add("constraint", "empty: no comparator")
	}
	return c, v, nil
}

// readAs says how a comparator was read: "~>" expanded to its bounds,
// partial versions filled with zeros, a bare version as "=". With tight,
// the upper bound of "~>" excludes the prereleases of the next release.
func (x *explanation) readAs(cmp *engine.Comparator, tight bool) {
	subject := cmp.String()
	var notes string
	note := func(s string) {
		if notes != "" {
			notes += "; "
		}
		notes += s
	}
	if cmp.Bare {
		note("no operator means =")
	}
	if cmp.Precision < 3 {
		note("partial version filled with zeros")
	}
	if cmp.Version.Build() != "" {
		note("build metadata never counts")
	}
	if cmp.Op != engine.OpPessimistic {
		if notes != "" {
			notes = " (" + notes + ")"
		}
		x.add(subject, "read as %s %s%s", cmp.Op, show(cmp.Version), notes)
		return
	}
	switch {
	case cmp.Precision > 3:
		note(fmt.Sprintf("~> with %d parts lets the last part rise, below the next value of the one before it, and admits only versions of at least %d parts (hashicorp/go-version)", cmp.Precision, cmp.Precision))
	case cmp.Precision == 3:
		note("~> with three parts lets the patch rise, below the next minor")
	default:
		note("~> with " + partsText[cmp.Precision] + " lets the minor and patch rise, below the next major")
	}
	if cmp.NamesPrerelease() {
		note("the prerelease stays on the lower bound")
	}
	upper, ok := cmp.Upper()
	if !ok {
		note("the next number would overflow, so there is no upper bound")
		x.add(subject, "read as >= %s (%s)", show(cmp.Version), notes)
		return
	}
	bound := show(upper)
	if tight {
		bound += "-0"
		note("the upper bound " + bound + " keeps the prereleases of " + show(upper) + " out")
	}
	x.add(subject, "read as >= %s, < %s (%s)", show(cmp.Version), bound, notes)
}

// precedence adds a step saying whether w satisfies cmp by precedence
// alone, and returns it.
func (x *explanation) precedence(cmp *engine.Comparator, w engine.Version) bool {
	ok, text := relation(cmp, w)
	x.add(cmp.String(), "by precedence %s", text)
	return ok
}

// relation says whether w satisfies cmp by precedence alone (as
// engine.Comparator.Holds decides) and shows the comparison.
func relation(cmp *engine.Comparator, w engine.Version) (bool, string) {
	holds := cmp.Holds(w)
	if cmp.Op != engine.OpPessimistic {
		return holds, compared(w, cmp.Version) + verdictWord(holds)
	}
	if w.Compare(cmp.Version) < 0 {
		return false, compared(w, cmp.Version) + ": fails, below the lower bound"
	}
	upper, ok := cmp.Upper()
	if !ok {
		return true, compared(w, cmp.Version) + ", and there is no upper bound: holds"
	}
	if !holds {
		return false, compared(w, cmp.Version) + " but " + compared(w, upper) + ": fails, not below the upper bound"
	}
	return true, compared(w, cmp.Version) + " and " + compared(w, upper) + ": holds"
}

func verdictWord(holds bool) string {
	if holds {
		return ": holds"
	}
	return ": fails"
}

// compared shows "a < b", "a = b" or "a > b" by SemVer precedence.
func compared(a, b engine.Version) string {
	sym := "="
	switch a.Compare(b) {
	case -1:
		sym = "<"
	case 1:
		sym = ">"
	}
	return show(a) + " " + sym + " " + show(b)
}

// show writes a version as precedence sees it: MAJOR.MINOR.PATCH and the
// prerelease, without the "v" prefix and build metadata.
func show(v engine.Version) string {
	s := strconv.FormatUint(v.Major(), 10) + "." + strconv.FormatUint(v.Minor(), 10) + "." + strconv.FormatUint(v.Patch(), 10)
	if v.IsPrerelease() {
		s += "-" + v.Prerelease()
	}
	return s
}

// partsText names a comparator's precision: 1 or 2 numeric parts.
var partsText = [...]string{1: "one part", 2: "two parts"}

// verdict ends the explanation with the policy's result.
func (x *explanation) verdict(r engine.Result) engine.Explanation {
	return engine.Explanation{Steps: x.steps, Result: r}
}

// invalid ends the explanation with an Invalid result for err.
func (x *explanation) invalid(err error) engine.Explanation {
	return engine.Explanation{Steps: x.steps, Result: engine.InvalidResult(err)}
}
