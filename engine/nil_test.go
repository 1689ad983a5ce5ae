package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/quick"
)

// valuePolicy has value-receiver methods, so a nil *valuePolicy is a
// Policy whose methods cannot be called.
type valuePolicy struct{ name string }

func (p valuePolicy) Name() string                     { return p.name }
func (valuePolicy) Rule() string                       { return "admits everything" }
func (valuePolicy) Compile(string) (Matcher, error)    { return allowAll{}, nil }
func (valuePolicy) Judge(*Constraint, *Version) Result { return Allowed("always") }

type allowAll struct{}

func (allowAll) Match(string) Result { return Allowed("always") }

// nilCompiler compiles every constraint to a nil Matcher with no error.
type nilCompiler struct{}

func (nilCompiler) Name() string                    { return "nil-compiler" }
func (nilCompiler) Rule() string                    { return "compiles to nothing" }
func (nilCompiler) Compile(string) (Matcher, error) { return nil, nil }

// typedNilCompiler compiles every constraint to a nil *nilMatcher.
type typedNilCompiler struct{}

func (typedNilCompiler) Name() string { return "typed-nil-compiler" }
func (typedNilCompiler) Rule() string { return "compiles to a nil pointer" }
func (typedNilCompiler) Compile(string) (Matcher, error) {
	var m *nilMatcher
	return m, nil
}

type nilMatcher struct{ r Result }

func (m nilMatcher) Match(string) Result { return m.r }

// wantInvalid checks r is Invalid with the given reason.
func wantInvalid(r Result, reason string) error {
	if r.Verdict != Invalid || r.Reason != reason {
		return fmt.Errorf("got %v %q, want invalid %q", r.Verdict, r.Reason, reason)
	}
	return nil
}

// wantErr checks err wraps target.
func wantErr(err, target error) error {
	if !errors.Is(err, target) {
		return fmt.Errorf("got error %v, want %v", err, target)
	}
	return nil
}

func TestNilAndZeroInputs(t *testing.T) {
	nilMatcherReason := `policy "nil-compiler" ` + ErrNilMatcher.Error()
	typedNilMatcherReason := `policy "typed-nil-compiler" ` + ErrNilMatcher.Error()
	available := []string{"1.0.0", "2.0.0"}
	tests := []struct {
		name  string
		check func() error
	}{
		{"Evaluate nil policy", func() error {
			return wantInvalid(Evaluate(nil, ">= 1.0", "1.0.0"), ErrNilPolicy.Error())
		}},
		{"Evaluate nil pointer policy", func() error {
			return wantInvalid(Evaluate((*valuePolicy)(nil), ">= 1.0", "1.0.0"), ErrNilPolicy.Error())
		}},
		{"Evaluate nil matcher", func() error {
			return wantInvalid(Evaluate(nilCompiler{}, ">= 1.0", "1.0.0"), nilMatcherReason)
		}},
		{"Evaluate nil pointer matcher", func() error {
			return wantInvalid(Evaluate(typedNilCompiler{}, ">= 1.0", "1.0.0"), typedNilMatcherReason)
		}},
		{"Select nil policy", func() error {
			sel, err := Select(nil, ">= 1.0", available)
			if sel.Found || len(sel.Unreadable) != 0 {
				return fmt.Errorf("selection %+v, want none", sel)
			}
			return wantErr(err, ErrNilPolicy)
		}},
		{"Select nil pointer policy", func() error {
			_, err := Select((*valuePolicy)(nil), ">= 1.0", available)
			return wantErr(err, ErrNilPolicy)
		}},
		{"Select nil matcher", func() error {
			sel, err := Select(nilCompiler{}, ">= 1.0", available)
			if sel.Found {
				return fmt.Errorf("selection %+v, want none", sel)
			}
			if err == nil || err.Error() != nilMatcherReason {
				return fmt.Errorf("got error %v, want %q", err, nilMatcherReason)
			}
			return wantErr(err, ErrNilMatcher)
		}},
		{"Explain nil policy", func() error {
			x := Explain(nil, ">= 1.0", "1.0.0")
			if len(x.Steps) != 1 || x.Steps[0].Subject != "policy" {
				return fmt.Errorf("steps %+v, want one policy step", x.Steps)
			}
			return wantInvalid(x.Result, ErrNilPolicy.Error())
		}},
		{"Explain nil matcher", func() error {
			x := Explain(nilCompiler{}, ">= 1.0", "1.0.0")
			if len(x.Steps) != 2 || x.Steps[1].Subject != "Compile" || !strings.Contains(x.Steps[1].Detail, "nil matcher") {
				return fmt.Errorf("steps %+v, want a Compile step about the nil matcher", x.Steps)
			}
			return wantInvalid(x.Result, nilMatcherReason)
		}},
		{"SelectNewest nil matcher", func() error {
			sel := SelectNewest(nil, available)
			if sel.Found || sel.Version != "" || len(sel.Unreadable) != len(available) {
				return fmt.Errorf("selection %+v, want every version unreadable", sel)
			}
			for i, u := range sel.Unreadable {
				if u.Version != available[i] || u.Reason != NilMatcherReason {
					return fmt.Errorf("unreadable %+v, want %q with %q", u, available[i], NilMatcherReason)
				}
			}
			return nil
		}},
		{"SelectNewest nil pointer matcher", func() error {
			sel := SelectNewest((*nilMatcher)(nil), available)
			if sel.Found || len(sel.Unreadable) != len(available) {
				return fmt.Errorf("selection %+v, want every version unreadable", sel)
			}
			return nil
		}},
		{"CompileNative nil judge", func() error {
			m, err := CompileNative(nil, ">= 1.0")
			if m != nil {
				return fmt.Errorf("matcher %v, want nil", m)
			}
			return wantErr(err, ErrNilJudge)
		}},
		{"CompileNative nil pointer judge", func() error {
			_, err := CompileNative((*valuePolicy)(nil), ">= 1.0")
			return wantErr(err, ErrNilJudge)
		}},
		{"InvalidResult nil error", func() error {
			return wantInvalid(InvalidResult(nil), NoReason)
		}},
		{"Register nil policy", func() error {
			return wantErr(NewRegistry().Register(nil), ErrNilPolicy)
		}},
		{"Register nil pointer policy", func() error {
			err := NewRegistry().Register((*valuePolicy)(nil))
			if err == nil || !strings.Contains(err.Error(), "*engine.valuePolicy") {
				return fmt.Errorf("got error %v, want one naming the type", err)
			}
			return wantErr(err, ErrNilPolicy)
		}},
		{"zero Registry", func() error {
			var r Registry
			if err := r.Register(valuePolicy{"a"}); err != nil {
				return err
			}
			if err := r.Register(valuePolicy{"a"}); err == nil {
				return errors.New("second registration of a succeeded")
			}
			if p, ok := r.Lookup("a"); !ok || p.Name() != "a" {
				return errors.New("Lookup(a) failed")
			}
			if got := strings.Join(r.Names(), ","); got != "a" {
				return fmt.Errorf("Names = %s, want a", got)
			}
			return nil
		}},
		{"nil Registry", func() error {
			var r *Registry
			if p, ok := r.Lookup("strict"); p != nil || ok {
				return fmt.Errorf("Lookup = %v, %v, want nothing", p, ok)
			}
			if len(r.All()) != 0 || len(r.Names()) != 0 {
				return errors.New("All or Names is not empty")
			}
			if ps, err := r.Resolve(nil); ps != nil || err != nil {
				return fmt.Errorf("Resolve(nil) = %v, %v, want nothing", ps, err)
			}
			if _, err := r.Resolve([]string{"strict"}); err == nil || !strings.Contains(err.Error(), `unknown policy "strict"`) {
				return fmt.Errorf("Resolve(strict) = %v, want unknown policy", err)
			}
			if err := r.Register(valuePolicy{"a"}); err == nil || !strings.Contains(err.Error(), "nil registry") {
				return fmt.Errorf("Register = %v, want nil registry", err)
			}
			return nil
		}},
		{"Version UnmarshalText nil receiver", func() error {
			err := (*Version)(nil).UnmarshalText([]byte("1.0.0"))
			if err == nil || !strings.Contains(err.Error(), "nil *Version") {
				return fmt.Errorf("got %v, want an error about the nil *Version", err)
			}
			return nil
		}},
		{"Verdict UnmarshalText nil receiver", func() error {
			err := (*Verdict)(nil).UnmarshalText([]byte("allow"))
			if err == nil || !strings.Contains(err.Error(), "nil *Verdict") {
				return fmt.Errorf("got %v, want an error about the nil *Verdict", err)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestNilPolicyAnswersAgree checks, for any constraint and version, that
// a nil policy and a policy with a nil matcher are Invalid everywhere and
// that Evaluate, Select, Explain and SelectNewest tell the same story.
func TestNilPolicyAnswersAgree(t *testing.T) {
	for _, p := range []Policy{nil, nilCompiler{}, typedNilCompiler{}, (*valuePolicy)(nil)} {
		agree := func(constraint, version string, more []string) bool {
			r := Evaluate(p, constraint, version)
			if r.Verdict != Invalid || r.Reason == "" {
				return false
			}
			if x := Explain(p, constraint, version); x.Result != r {
				return false
			}
			sel, err := Select(p, constraint, append([]string{version}, more...))
			if err == nil || err.Error() != r.Reason || sel.Found {
				return false
			}
			newest := SelectNewest(nil, append([]string{version}, more...))
			return !newest.Found && len(newest.Unreadable) == 1+len(more)
		}
		if err := quick.Check(agree, nil); err != nil {
			t.Errorf("%T: %v", p, err)
		}
	}
}
