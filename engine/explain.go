package engine

// Explainer is implemented by a Policy that can show how it reaches a
// verdict: how it read the constraint, which comparators held, which
// prerelease rule applied and why. For a wrapped library it says what the
// library was asked and what it answered.
//
// Explain must return the same Result as Evaluate for the same pair,
// Invalid included. It is for people, not for the hot path: it may
// allocate freely.
type Explainer interface {
	Explain(constraint, version string) Explanation
}

// Explanation is a policy's reasoning for one (constraint, version) pair:
// the steps in order, then the verdict.
type Explanation struct {
	Steps  []Step
	Result Result
}

// Step is one line of reasoning: what it is about and what was found.
// Consecutive steps about the same subject belong together.
type Step struct {
	// Subject is what the step is about: a comparator as written
	// (">= 1.2"), "constraint", "version", "rule", or a library call.
	Subject string `json:"subject"`
	// Detail is what was found, in words.
	Detail string `json:"detail"`
}

// Explain returns p's reasoning for the pair. A policy that implements
// Explainer gives its own; for any other policy the explanation is what
// Compile and Match answered, with the verdict and reason. Like Evaluate,
// a nil p gives Invalid with ErrNilPolicy's text, in a single "policy"
// step, and a p whose Compile returns neither a Matcher nor an error gives
// Invalid with ErrNilMatcher under the policy's name.
func Explain(p Policy, constraint, version string) Explanation {
	if isNil(p) {
		return Explanation{
			Steps:  []Step{{"policy", "no policy was given (nil)"}},
			Result: InvalidResult(ErrNilPolicy),
		}
	}
	if x, ok := p.(Explainer); ok {
		return x.Explain(constraint, version)
	}
	var steps []Step
	steps = append(steps, Step{"policy", p.Name() + " does not explain its rule step by step; this is what it answered"})
	m, err := p.Compile(constraint)
	if err != nil {
		steps = append(steps, Step{"Compile", "refused the constraint: " + ClipReason(err.Error())})
		return Explanation{Steps: steps, Result: InvalidResult(err)}
	}
	if isNil(m) {
		err := nilMatcherError(p)
		steps = append(steps, Step{"Compile", "returned a nil matcher and no error, so no version can be judged"})
		return Explanation{Steps: steps, Result: InvalidResult(err)}
	}
	steps = append(steps, Step{"Compile", "accepted the constraint"})
	r := m.Match(version)
	steps = append(steps, Step{"Match", r.Verdict.String() + ": " + ClipReason(r.Reason)})
	return Explanation{Steps: steps, Result: r}
}
