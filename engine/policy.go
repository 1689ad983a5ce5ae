package engine

import (
	"fmt"
)

// Verdict is a policy's answer for one (constraint, version) pair.
type Verdict uint8

// The three verdicts. Invalid means the implementation does not accept the
// constraint or the version: it is never a silent Reject.
const (
	Reject Verdict = iota
	Allow
	Invalid
)

var verdictText = [...]string{"reject", "allow", "invalid"}

// String returns "allow", "reject" or "invalid".
func (v Verdict) String() string {
	if int(v) < len(verdictText) {
		return verdictText[v]
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// ParseVerdict is the inverse of Verdict.String.
func ParseVerdict(s string) (Verdict, error) {
	for i, t := range verdictText {
		if s == t {
			return Verdict(i), nil
		}
	}
	return 0, fmt.Errorf("unknown verdict %q: expected allow, reject or invalid", s)
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Verdict) UnmarshalText(b []byte) error {
	w, err := ParseVerdict(string(b))
	if err != nil {
		return err
	}
	*v = w
	return nil
}

// Result is a verdict with a short reason a person can read.
type Result struct {
	Verdict Verdict
	Reason  string
}

// Allowed returns an Allow result with the given reason.
func Allowed(reason string) Result { return Result{Allow, reason} }

// Rejected returns a Reject result with the given reason.
func Rejected(reason string) Result { return Result{Reject, reason} }

// InvalidResult returns an Invalid result whose reason is err's text.
func InvalidResult(err error) Result { return Result{Invalid, err.Error()} }

// Policy is one prerelease-matching rule, native or a wrapped library.
//
// Compile reads a constraint the policy's own way: an error means this
// policy refuses the constraint, and every version then gets Invalid. The
// returned Matcher judges versions given as text; it must be safe for
// concurrent use and must depend on nothing but the constraint and the
// version.
type Policy interface {
	// Name is the registry name: lower case letters, digits and '-'.
	Name() string
	// Rule is the rule in one line, for listings.
	Rule() string
	Compile(constraint string) (Matcher, error)
}

// Matcher judges versions against one compiled constraint.
type Matcher interface {
	// Match judges the version text. A version the policy cannot read is
	// Invalid, with the parse error as the reason.
	Match(version string) Result
}

// Evaluate compiles constraint with p and judges version: the one-shot form
// of Compile and Match.
func Evaluate(p Policy, constraint, version string) Result {
	m, err := p.Compile(constraint)
	if err != nil {
		return InvalidResult(err)
	}
	return m.Match(version)
}

// Judge is the rule of a native policy over parsed values. It takes
// pointers so that the hot path of every comparison copies nothing; an
// implementation must not modify c or v, and should not allocate.
type Judge interface {
	Judge(c *Constraint, v *Version) Result
}

// CompileNative compiles constraint with the engine's parser and returns a
// Matcher that parses each version with ParseVersion and hands both to j.
// Native policies implement Policy.Compile with it.
func CompileNative(j Judge, constraint string) (Matcher, error) {
	c, err := ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	return &nativeMatcher{j: j, c: c}, nil
}

type nativeMatcher struct {
	j Judge
	c Constraint
}

func (m *nativeMatcher) Match(version string) Result {
	v, err := ParseVersion(version)
	if err != nil {
		return InvalidResult(err)
	}
	return m.j.Judge(&m.c, &v)
}

// Preparer is implemented by policies that can read a (constraint, version)
// pair once and judge it many times. Benchmarks use it to time only the
// check, on the same pre-parsed pairs for every policy. The error is the
// policy's refusal of the constraint or the version.
type Preparer interface {
	Prepare(constraint, version string) (func() Result, error)
}

// PrepareNative parses the pair with the engine's parsers and returns a
// check that calls j.Judge on the parsed values. Native policies implement
// Preparer with it.
func PrepareNative(j Judge, constraint, version string) (func() Result, error) {
	c, err := ParseConstraint(constraint)
	if err != nil {
		return nil, err
	}
	v, err := ParseVersion(version)
	if err != nil {
		return nil, err
	}
	return func() Result { return j.Judge(&c, &v) }, nil
}
