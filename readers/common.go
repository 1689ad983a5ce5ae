package readers

import (
	"fmt"
	"strings"

	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// parseGoVersion reads a version with hashicorp/go-version NewVersion, as
// each of the three programs reads the registry's list, turning a panic
// into an error.
func parseGoVersion(text string) (v *goversion.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("go-version NewVersion panicked on this input: %v", p)
		}
	}()
	v, err = goversion.NewVersion(text)
	if err != nil {
		return nil, fmt.Errorf("go-version NewVersion: %w", err)
	}
	return v, nil
}

// parseGoConstraint reads a constraint with go-version NewConstraint,
// turning a panic into an error.
func parseGoConstraint(text string) (cs goversion.Constraints, err error) {
	defer func() {
		if p := recover(); p != nil {
			cs, err = nil, fmt.Errorf("go-version NewConstraint panicked on this input: %v", p)
		}
	}()
	cs, err = goversion.NewConstraint(text)
	if err != nil {
		return nil, fmt.Errorf("go-version NewConstraint: %w", err)
	}
	return cs, nil
}

// check is go-version's Constraints.Check, with the first piece that
// refuses v named in the reason when withReason is set.
func check(cs goversion.Constraints, v *goversion.Version, admits string, withReason bool) engine.Result {
	if cs.Check(v) {
		return engine.Allowed(admits)
	}
	if withReason {
		for _, c := range cs {
			if !c.Check(v) {
				return engine.Rejected(fmt.Sprintf("go-version Check: false (%q refuses it)", strings.TrimSpace(c.String())))
			}
		}
	}
	return engine.Rejected("go-version Check: false")
}

// versionJudge is a compiled constraint of one of this package's
// policies: it judges a version go-version has read, with a reason a
// person can read when withReason is set (the verdict is the same).
type versionJudge interface {
	judge(v *goversion.Version, withReason bool) engine.Result
}

// goMatcher is a Matcher that reads each version with go-version and
// hands it to a versionJudge; what go-version refuses is Invalid, with
// the program's treatment of it as the reason.
type goMatcher struct {
	j       versionJudge
	dropped string
}

func (m goMatcher) Match(version string) (r engine.Result) {
	defer func() {
		if p := recover(); p != nil {
			r = engine.InvalidResult(fmt.Errorf("panicked on this input: %v", p))
		}
	}()
	v, err := parseGoVersion(version)
	if err != nil {
		return engine.InvalidResult(fmt.Errorf("%v; %s", err, m.dropped))
	}
	return m.j.judge(v, true)
}
