package engine

import (
	"errors"
	"fmt"
	"reflect"
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

// UnmarshalText implements encoding.TextUnmarshaler. A nil v is an
// error.
func (v *Verdict) UnmarshalText(b []byte) error {
	if v == nil {
		return errors.New("engine: UnmarshalText into a nil *Verdict")
	}
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

// InvalidResult returns an Invalid result whose reason is err's text. A
// nil err gives an Invalid result whose reason is NoReason.
func InvalidResult(err error) Result {
	if err == nil {
		return Result{Invalid, NoReason}
	}
	return Result{Invalid, ClipReason(err.Error())}
}

// NoReason is the reason of InvalidResult(nil).
const NoReason = "invalid, with no reason given"

// MaxReason bounds the reasons of results and reports: a library's error
// can repeat the whole constraint or version, however long.
const MaxReason = 1024

// ClipReason returns reason when it is at most MaxReason bytes long, and
// otherwise its start and its end, about MaxReason bytes together.
// InvalidResult and the reports clip every reason with it.
func ClipReason(reason string) string { return elideMiddle(reason, MaxReason) }

// ErrNilPolicy is the error for a Policy that is nil: a nil interface, or
// one that holds a nil pointer or a nil function. Evaluate, Select,
// Explain and Registry.Register refuse such a policy with it.
var ErrNilPolicy = errors.New("nil policy")

// ErrNilMatcher is the error for a Policy whose Compile returns a nil
// Matcher (or one that holds a nil pointer) and no error. Evaluate,
// Select and Explain wrap it with the policy's name and treat it as a
// refusal of the constraint.
var ErrNilMatcher = errors.New("compiled the constraint to a nil matcher with no error")

// ErrNilJudge is the error of CompileNative for a nil Judge (or one that
// holds a nil pointer or a nil function).
var ErrNilJudge = errors.New("nil judge")

// isNil reports whether x is nil or holds a nil pointer or a nil
// function, whose methods cannot be called safely. A nil map or slice can
// have working methods, so it is not nil here.
func isNil(x any) bool {
	if x == nil {
		return true
	}
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// IsNil reports whether x (a Policy, a Matcher or a Judge) is nil or
// holds a nil pointer or a nil function, whose methods cannot be called
// safely: the policies Evaluate, Select and Explain refuse with
// ErrNilPolicy.
func IsNil(x any) bool { return isNil(x) }

// Compile is p.Compile as Evaluate calls it: a nil p gives ErrNilPolicy
// and a nil Matcher with no error gives ErrNilMatcher under p's name, so
// that a nil error always comes with a Matcher that can be called.
func Compile(p Policy, constraint string) (Matcher, error) { return compile(p, constraint) }

// compile is p.Compile that turns a nil p into ErrNilPolicy and a nil
// Matcher with no error into ErrNilMatcher, so that a nil error always
// comes with a Matcher that can be called.
func compile(p Policy, constraint string) (Matcher, error) {
	if isNil(p) {
		return nil, ErrNilPolicy
	}
	m, err := p.Compile(constraint)
	if err != nil {
		return nil, err
	}
	if isNil(m) {
		return nil, nilMatcherError(p)
	}
	return m, nil
}

// nilMatcherError is ErrNilMatcher with p's name.
func nilMatcherError(p Policy) error {
	return fmt.Errorf("policy %q %w", p.Name(), ErrNilMatcher)
}

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

// BatchMatcher is implemented by a Matcher that judges many versions
// faster together than one at a time, such as one that asks another
// process. MatchAll judges versions[i] into results[i], exactly as Match
// would judge it alone; results has the length of versions. Like Match, it
// must be safe for concurrent use. A caller that judges a list of versions
// against one constraint uses MatchAll when the Matcher has it.
type BatchMatcher interface {
	Matcher
	MatchAll(versions []string, results []Result)
}

// Quieter is a Policy that keeps a record of the cases it failed on, as
// a policy file's does for the command that runs it to report. Quiet
// returns the same rule without that record: what a program uses to look
// again at a case it has judged (a witness's reasons) or to probe a case
// outside its run (a cause's counterfactual), so that the record counts
// the cases of the run once each.
type Quieter interface {
	Policy
	Quiet() Policy
}

// Quiet returns p.Quiet() when p is a Quieter, and p otherwise.
func Quiet(p Policy) Policy {
	if q, ok := p.(Quieter); ok && !isNil(p) {
		return q.Quiet()
	}
	return p
}

// Evaluate compiles constraint with p and judges version: the one-shot form
// of Compile and Match. A nil p gives Invalid with ErrNilPolicy's text, and
// a p whose Compile returns neither a Matcher nor an error gives Invalid
// with ErrNilMatcher under the policy's name.
func Evaluate(p Policy, constraint, version string) Result {
	m, err := compile(p, constraint)
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
// Native policies implement Policy.Compile with it. A nil j is
// ErrNilJudge.
func CompileNative(j Judge, constraint string) (Matcher, error) {
	if isNil(j) {
		return nil, ErrNilJudge
	}
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
