package readers

import (
	"errors"
	"fmt"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// OpenTofuEngine is how OpenTofu's new, experimental engine resolves a
// registry module's version constraint, registered as "opentofu-engine".
//
// Read from opentofu/opentofu's main branch at commit f831fa1a
// (2026-08-22, version 1.13.0-dev), where "tofu init" installs modules
// through the new engine when the build is a development or nightly one
// and TOFU_X_EXPERIMENTAL_RUNTIME is set (internal/command/temp_new_runtime.go
// NewRuntimeEnabled; installDescendentModulesNewRuntime in
// internal/initwd/module_install_runtime.go, since commit 136b3e9c of
// 2026-06-30):
//
//  1. The configuration loader reads the version argument with go-version's
//     NewConstraint (internal/configs/version_constraint.go
//     decodeVersionConstraintValue) and stops on what it refuses.
//  2. The engine reads it again with go-versions'
//     MeetingConstraintsStringRuby, the provider installer's reading
//     (internal/lang/eval/internal/configgraph/module_call.go
//     SourceArguments), and stops on what that refuses; no version
//     argument is versions.All.
//  3. The module installer (internal/initwd/module_install.go
//     installRegistryModule) gets that set as the request's
//     VersionConstraint.RequiredSet. For a prerelease, its gate parses
//     VersionConstraint.String() with the npm-style
//     MeetingConstraintsString: with a RequiredSet that String() is the
//     set's GoString ("versions.Intersection(versions.Released, ...)"),
//     and with no constraint it is "", both of which the parser refuses,
//     and the retry with "v" prefixes stripped changes nothing, so every
//     prerelease is skipped: no prerelease is ever installed, not even
//     one pinned exactly.
//  4. For a release, VersionConstraint.Check asks the set about
//     versions.ParseVersion of go-version's String() of it (every release
//     with no constraint). A release go-version reads and go-versions
//     does not (1.0.0.0) makes OpenTofu panic there (the code says "This
//     should not be possible"): invalid here.
//
// Selection is the installer's loop: the newest admitted version by
// go-version's GreaterThan, the first of equal ones kept.
//
//	= 2.0.0-beta.1   | 2.0.0-beta.1  reject (the exact pin too)
//	>= 1.0.0-beta    | 1.0.0         allow
//	~> 1.2           | 1.9.0         allow  (Ruby-style ~>: below 2.0.0)
//	~> 1.2.0         | 1.3.0         reject
//	= 1.0.0          | 1.0.0+b       reject (go-versions' exact set: build metadata counts)
//	>= v1.0.0        | 1.0.0         invalid (go-versions refuses a "v")
//	=> 1.0           | 1.0.0         invalid (go-version refuses it)
//	(empty)          | 1.0.0.0       allow
//	>= 1.0.0         | 1.0.0.0       invalid (OpenTofu panics)
//
// OpenTofu v1.12.6, the newest release the module proxy serves, has the
// experimental engine but not this path. Built from the module proxy with
// `go build -ldflags="-X 'main.experimentsAllowed=yes'" ./cmd/tofu` and
// run with TOFU_X_EXPERIMENTAL_RUNTIME=1 against a module registry on
// 127.0.0.1 listing 1.0.0, 1.5.0, 2.0.0-beta.1 and 2.0.0-beta.2, its
// "tofu init" installs modules with the ordinary installer (the
// opentofu-module policy: ">= 1.0.0" installs 1.5.0, "= 2.0.0-beta.1"
// finds no version), and its "tofu plan" reads the constraint with
// MeetingConstraintsStringRuby (">= v1.0.0": "Cannot use ">= v1.0.0" as
// module version constraints: ... a "v" prefix should not be used") and
// then stops on every registry module ("New runtime codepath only
// supports local module sources", internal/tofu/context_temp_runtime.go
// ModuleConfig). The main branch is not served by the module proxy, so
// the reading above could not be run here: it is written from the
// source.
type OpenTofuEngine struct{}

var (
	_ engine.Policy        = OpenTofuEngine{}
	_ engine.Selector      = OpenTofuEngine{}
	_ engine.VersionReader = OpenTofuEngine{}
)

// Name returns "opentofu-engine".
func (OpenTofuEngine) Name() string { return "opentofu-engine" }

// Rule returns the rule in one line.
func (OpenTofuEngine) Rule() string {
	return "OpenTofu's experimental engine (main): releases by go-versions' Ruby-style MeetingConstraints, after go-version reads the constraint; never a prerelease, not even an exact pin"
}

// Reasons of the opentofu-engine policy.
const (
	reasonEnginePre     = "prerelease: the installer's gate cannot parse the engine's constraint (its String() is the set's GoString, or \"\"), so it skips every prerelease, an exact pin too"
	reasonEngineAll     = "no constraint: every release (versions.All)"
	reasonEngineAllow   = "go-versions MeetingConstraintsStringRuby: the set has it"
	reasonEngineReject  = "go-versions MeetingConstraintsStringRuby: the set does not have it"
	reasonEngineDropped = "OpenTofu's installer warns and skips it"
)

// engineJudge is a compiled constraint: the engine's set, or every
// release.
type engineJudge struct {
	set versions.Set
	all bool
}

func compileEngine(constraint string) (versionJudge, error) {
	if constraint == "" {
		return engineJudge{all: true}, nil
	}
	if _, err := parseGoConstraint(constraint); err != nil {
		return nil, fmt.Errorf("OpenTofu's configuration loader refuses it: %w", err)
	}
	set, err := meetingConstraintsStringRuby(constraint)
	if err != nil {
		return nil, fmt.Errorf("OpenTofu's experimental engine refuses it: %w", err)
	}
	return engineJudge{set: set}, nil
}

// meetingConstraintsStringRuby is versions.MeetingConstraintsStringRuby,
// turning a panic (numbers beyond uint64) into an error.
func meetingConstraintsStringRuby(text string) (set versions.Set, err error) {
	defer func() {
		if p := recover(); p != nil {
			set, err = versions.None, fmt.Errorf("go-versions MeetingConstraintsStringRuby panicked on this input: %v", p)
		}
	}()
	set, err = versions.MeetingConstraintsStringRuby(text)
	if err != nil {
		return versions.None, fmt.Errorf("go-versions MeetingConstraintsStringRuby: %w", err)
	}
	return set, nil
}

// Compile reads constraint as OpenTofu's loader and experimental engine
// do: an error is a refusal that stops "tofu init".
func (OpenTofuEngine) Compile(constraint string) (engine.Matcher, error) {
	j, err := compileEngine(constraint)
	if err != nil {
		return nil, err
	}
	return goMatcher{j, reasonEngineDropped}, nil
}

// errEnginePanic marks a release whose check makes OpenTofu panic.
var errEnginePanic = errors.New("OpenTofu panics here")

func (j engineJudge) judge(v *goversion.Version, _ bool) engine.Result {
	if v.Prerelease() != "" {
		return engine.Rejected(reasonEnginePre)
	}
	if j.all {
		return engine.Allowed(reasonEngineAll)
	}
	nv, err := versions.ParseVersion(v.String())
	if err != nil {
		return engine.InvalidResult(fmt.Errorf("%w: VersionConstraint.Check reads %q with go-versions ParseVersion, which refuses it (%v)", errEnginePanic, v.String(), err))
	}
	if j.set.Has(nv) {
		return engine.Allowed(reasonEngineAllow)
	}
	return engine.Rejected(reasonEngineReject)
}

// Select runs the installer's loop over available: the newest admitted
// version by go-version's GreaterThan, the first of equal ones kept.
func (OpenTofuEngine) Select(constraint string, available []string) (engine.Selection, error) {
	j, err := compileEngine(constraint)
	if err != nil {
		return engine.Selection{}, err
	}
	m := goMatcher{j, reasonEngineDropped}
	var sel engine.Selection
	var best *goversion.Version
	for _, text := range available {
		r := m.Match(text)
		switch r.Verdict {
		case engine.Invalid:
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: engine.ClipReason(r.Reason)})
			continue
		case engine.Reject:
			continue
		}
		v, err := parseGoVersion(text)
		if err != nil {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	return sel, nil
}

// ReadVersions reads versions with go-version, once.
func (OpenTofuEngine) ReadVersions(versions []string) engine.VersionTable {
	return newGoTable(versions, reasonEngineDropped, compileEngine)
}

// SelectsPairwise marks Select as the newest version Match admits: under a
// cooldown (engine.SelectCooled) the order makes no difference.
func (OpenTofuEngine) SelectsPairwise() {}
