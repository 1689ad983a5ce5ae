package policies

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/prerel/prerel/engine"
)

// CoreOnly is what Terraform's and OpenTofu's required_version check does,
// registered as "core-only".
//
// A constraint that names a prerelease in any comparator is refused:
// Compile returns an error wrapping ErrPrereleaseConstraint that names the
// first such comparator, so every version is engine.Invalid. Any other
// constraint judges a version by its core, GA(v): MAJOR.MINOR.PATCH without
// prerelease and build. A prerelease passes exactly when its release would:
// ">= 1.12.0" admits 1.12.0-beta1, "< 2.0.0" refuses 2.0.0-beta.1, "!= 2.0.0"
// refuses it too, and "= 2.0.0" admits it. On a release the rule is B(c, v).
// The empty constraint admits every version.
//
// Versions and comparators of more than three numeric parts are read with
// engine.ParseMultipartVersion and engine.ParseMultipartConstraint, as
// hashicorp/go-version reads them in required_version: "= 1.15.9.0"
// admits 1.15.9, "~> 1.15.9.0" refuses it, ">= 1.2.3" admits 1.2.3.4. The
// other native policies refuse them.
//
// Terraform and OpenTofu check their own version against required_version
// this way: prerelease version constraints are an error, and a prerelease
// build of the tool matches by its version core only.
//
//	>= 1.12.0                  | 1.12.0-beta1  allow
//	< 2.0.0                    | 2.0.0-beta.1  reject
//	>= 1.12.0-beta1            | 1.12.0        invalid
//
// When B fails for a release, the reason names the failed comparator; a
// reason that starts with "prerelease:" names the comparator the version's
// core fails.
type CoreOnly struct{}

var (
	_ engine.Policy        = CoreOnly{}
	_ engine.Judge         = CoreOnly{}
	_ engine.VersionReader = CoreOnly{}
	_ engine.Explainer     = CoreOnly{}
)

// ErrPrereleaseConstraint is the error CoreOnly's Compile wraps for a
// constraint that names a prerelease.
var ErrPrereleaseConstraint = errors.New("prerelease version constraints are not supported")

const (
	reasonCoreAllow = "prerelease: its version core satisfies every comparator"
	reasonCoreEmpty = "prerelease: the empty constraint admits every version core"
)

// coreFailure names, per operator, why a prerelease's core fails a
// comparator.
var coreFailure = [...]string{
	"prerelease: its version core fails a comparator",
	engine.OpEqual:        "prerelease: its version core is not equal to an = comparator's version",
	engine.OpNotEqual:     "prerelease: its version core is equal to a != comparator's version",
	engine.OpGreater:      "prerelease: its version core is not above a > comparator's version",
	engine.OpGreaterEqual: "prerelease: its version core is below a >= comparator's version",
	engine.OpLess:         "prerelease: its version core is not below a < comparator's version",
	engine.OpLessEqual:    "prerelease: its version core is above a <= comparator's version",
	engine.OpPessimistic:  "prerelease: its version core is not below a ~> comparator's upper bound",
}

const reasonCoreBelowPessimistic = "prerelease: its version core is below a ~> comparator's version"

// Name returns "core-only".
func (CoreOnly) Name() string { return "core-only" }

// Group returns "installers", the catalogue's group of what Terraform
// and OpenTofu do today: this is the rule of Terraform's and OpenTofu's required_version check.
func (CoreOnly) Group() string { return "installers" }

// Rule returns the rule in one line.
func (CoreOnly) Rule() string {
	return "a constraint naming a prerelease is invalid; a version is judged by its core, GA(v) (Terraform's and OpenTofu's required_version)"
}

// Compile parses constraint with the engine's multipart parser
// (engine.ParseMultipartConstraint, which reads more than three numeric
// parts as required_version does) and refuses it when a comparator names
// a prerelease. Its Matcher reads versions with
// engine.ParseMultipartVersion.
func (co CoreOnly) Compile(constraint string) (engine.Matcher, error) {
	c, err := parseCoreOnlyWith(constraint, engine.ParseMultipartConstraint)
	if err != nil {
		return nil, err
	}
	return &coreOnlyMatcher{c: c}, nil
}

// coreOnlyMatcher is CoreOnly's Matcher.
type coreOnlyMatcher struct{ c engine.Constraint }

func (m *coreOnlyMatcher) Match(version string) engine.Result {
	v, err := engine.ParseMultipartVersion(version)
	if err != nil {
		return engine.InvalidResult(err)
	}
	return CoreOnly{}.Judge(&m.c, &v)
}

// ReadVersions reads versions once for the fast path: each constraint is
// compiled against the table (or refused, as Compile refuses it) and
// judged with integer comparisons, with the results Compile and Match
// give. A version or a constraint of more than three numeric parts,
// which the integer keys do not hold, is judged with Compile and Match.
func (co CoreOnly) ReadVersions(versions []string) engine.VersionTable {
	fast := coreOnlyRule.readVersions(versions)
	t := &coreOnlyTable{fast: fast, text: engine.TextTable(co, versions)}
	if nt, ok := fast.(*nativeTable[noFacts]); ok {
		for i := range nt.versions {
			if !nt.versions[i].invalid {
				continue
			}
			_, err := engine.ParseMultipartVersion(versions[i])
			if err == nil {
				t.multipart = true
				break
			}
			if t.bad == nil {
				t.bad = map[int]engine.Result{}
			}
			t.bad[i] = engine.InvalidResult(err)
		}
	}
	return t
}

// coreOnlyTable is CoreOnly's table: the native one, and Compile and
// Match where it does not reach.
type coreOnlyTable struct {
	fast, text engine.VersionTable
	// multipart is set when some version has more than three parts.
	multipart bool
	// bad are the results of the versions neither parser reads: Match
	// names the multipart parser's error.
	bad map[int]engine.Result
}

// coreOnlyTableMatcher is the native table's matcher with Match's
// reasons for the versions neither parser reads.
type coreOnlyTableMatcher struct {
	engine.TableMatcher
	bad map[int]engine.Result
}

func (m *coreOnlyTableMatcher) Judge(i int) engine.Result {
	if r, ok := m.bad[i]; ok {
		return r
	}
	return m.TableMatcher.Judge(i)
}

func (t *coreOnlyTable) Len() int { return t.fast.Len() }

// Compile is the native table's, or the text table's for a constraint
// that table refuses for its syntax (it reads three parts only; the text
// table gives Compile's own answer) and for every constraint when some
// version has more than three parts. A constraint the native table
// refuses for naming a prerelease is refused with that error: the
// engine's parser read it, so the multipart parser Compile uses reads it
// alike, and Compile refuses it with the same words.
func (t *coreOnlyTable) Compile(constraint string) (engine.TableMatcher, error) {
	if !t.multipart {
		m, err := t.fast.Compile(constraint)
		switch {
		case err == nil && t.bad != nil:
			return &coreOnlyTableMatcher{TableMatcher: m, bad: t.bad}, nil
		case err == nil, errors.Is(err, ErrPrereleaseConstraint):
			return m, err
		}
	}
	return t.text.Compile(constraint)
}

// parseCoreOnly parses constraint and refuses it when a comparator names a
// prerelease.
func parseCoreOnly(constraint string) (engine.Constraint, error) {
	return parseCoreOnlyWith(constraint, parseNative)
}

// parseCoreOnlyWith is parseCoreOnly with parse in place of the engine's
// parser.
func parseCoreOnlyWith(constraint string, parse func(string) (engine.Constraint, error)) (engine.Constraint, error) {
	c, err := parse(constraint)
	if err != nil {
		return c, err
	}
	cs := c.Comparators()
	for i := range cs {
		if cs[i].NamesPrerelease() {
			return c, prereleaseConstraintError(c, i)
		}
	}
	return c, nil
}

// prereleaseConstraintError is Compile's refusal of c, whose comparator
// i names a prerelease.
func prereleaseConstraintError(c engine.Constraint, i int) error {
	return &prereleaseError{cmp: c.Comparators()[i], i: i, n: c.Len()}
}

// prereleaseError is core-only's refusal of a constraint whose comparator
// i of n names a prerelease, worded when it is read: a run of the harness
// refuses thousands of constraints and shows the words of a few.
type prereleaseError struct {
	cmp  engine.Comparator
	i, n int
}

func (e *prereleaseError) Error() string {
	where := "comparator " + strconv.Itoa(e.i+1) + " of " + strconv.Itoa(e.n)
	return fmt.Sprintf("%s: %q (%s) names the prerelease %s; a prerelease version matches by its version core only",
		ErrPrereleaseConstraint, e.cmp.String(), where, show(e.cmp.Version))
}

// Unwrap returns ErrPrereleaseConstraint.
func (e *prereleaseError) Unwrap() error { return ErrPrereleaseConstraint }

// Judge applies the core-only rule to a parsed pair. A constraint that
// names a prerelease is Invalid (Compile gives the full error). It does not
// allocate.
func (CoreOnly) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if c.NamesPrerelease() {
		return engine.Result{Verdict: engine.Invalid, Reason: ErrPrereleaseConstraint.Error()}
	}
	if !v.IsPrerelease() {
		return judgeRelease(c, v)
	}
	core := v.Core()
	if cmp := failedBase(c, &core); cmp != nil {
		if cmp.Op == engine.OpPessimistic && core.Compare(cmp.Version) < 0 {
			return engine.Rejected(reasonCoreBelowPessimistic)
		}
		return engine.Rejected(byOp(&coreFailure, cmp.Op))
	}
	if c.Len() == 0 {
		return engine.Allowed(reasonCoreEmpty)
	}
	return engine.Allowed(reasonCoreAllow)
}

// Explain shows a refused constraint's prerelease comparators, or each
// comparator checked against the version's core.
func (co CoreOnly) Explain(constraint, version string) engine.Explanation {
	var x explanation
	c, err := engine.ParseMultipartConstraint(constraint)
	if err != nil {
		x.add("constraint", "the engine's parser refuses it: %v", err)
		return x.invalid(err)
	}
	if c.NamesPrerelease() {
		first := -1
		cs := c.Comparators()
		for i := range cs {
			x.readAs(&cs[i], false)
			if cs[i].NamesPrerelease() {
				x.add(cs[i].String(), "names the prerelease %s: prerelease version constraints are not supported", show(cs[i].Version))
				if first < 0 {
					first = i
				}
			}
		}
		x.add("rule", "a constraint that names a prerelease is refused, so every version is invalid; the version is not read")
		return x.invalid(prereleaseConstraintError(c, first))
	}
	c, v, err := x.parseWith(constraint, version, engine.ParseMultipartConstraint, engine.ParseMultipartVersion)
	if err != nil {
		return x.invalid(err)
	}
	core := v.Core()
	cs := c.Comparators()
	for i := range cs {
		cmp := &cs[i]
		x.readAs(cmp, false)
		if v.IsPrerelease() {
			_, text := relation(cmp, core)
			x.add(cmp.String(), "judges the version core %s: %s", show(core), text)
			continue
		}
		x.precedence(cmp, v)
	}
	x.add("rule", "the constraint names no prerelease, so it is accepted; a version is judged by its core, GA(v), so a prerelease passes exactly when its release would")
	return x.verdict(co.Judge(&c, &v))
}

// coreOnlyRule is CoreOnly's rule for the fast path.
var coreOnlyRule = &nativeRule[noFacts]{judge: CoreOnly{}, parse: parseCoreOnly, fast: fastCoreOnly}

// fastCoreOnly is Judge on the compiled form of a constraint that names no
// prerelease: a prerelease is judged by the key of its core.
func fastCoreOnly(m *compiled, _ *noFacts, v *fastVersion) engine.Result {
	if !v.pre {
		if m.admits(v.k) {
			return m.releaseAllow
		}
		return m.fastRelease(v)
	}
	core := v.ga()
	if !m.admits(core) {
		if i := m.failure(core); i >= 0 {
			c := &m.cmps[i]
			if c.op == engine.OpPessimistic && !le(c.lo, core) {
				return engine.Rejected(reasonCoreBelowPessimistic)
			}
			return engine.Rejected(byOp(&coreFailure, c.op))
		}
	}
	if len(m.cmps) == 0 {
		return engine.Allowed(reasonCoreEmpty)
	}
	return engine.Allowed(reasonCoreAllow)
}
