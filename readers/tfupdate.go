package readers

import (
	"sort"

	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// TFUpdate is how minamijoyo/tfupdate reads a constraint when it updates
// it to the latest version, registered as "tfupdate".
//
// tfupdate does not read the constraint: it replaces it. minamijoyo/tfupdate
// v0.10.2: release.Latest (release/release.go) lists the releases
// (ListReleases: the registry's versions for `tfupdate release latest -s
// tfregistryModule`, the GitHub release tags without a leading "v" for
// `tfupdate provider NAME -v latest`), reads them with go-version's
// NewVersion (toVersions in release/version.go, dropping what it
// refuses), sorts them with sort.Sort(version.Collection), drops every
// version with a prerelease (excludePreReleases) and returns the last,
// as go-version's String() writes it. The updaters
// (tfupdate/module.go ModuleUpdater, tfupdate/provider.go
// ProviderUpdater) then write that version as the new version argument,
// in place of whatever constraint was there; `tfupdate module` takes the
// version from -v alone (it has no "latest" of its own), so the release
// command's answer is the version that lands. A module call without a
// version argument is left without one.
//
// So the policy admits every release go-version reads, whatever the
// constraint, and never a prerelease; it refuses no constraint:
//
//	~> 1.0          | 2.0.0          allow  (the constraint is replaced)
//	= 2.0.0-beta.1  | 2.0.0-beta.1   reject (never a prerelease)
//	= 2.0.0-beta.1  | 1.5.0          allow
//	=> 1.0          | 1.0.0          allow
//	(any)           | 1.0.0.0        allow  (go-version reads four parts)
//	(any)           | x              invalid (dropped from the list)
//
// Selection is release.Latest's: the last release of the list sorted by
// sort.Sort(version.Collection), the newest by go-version's order; of
// releases go-version orders equal (1.0.0+a and 1.0.0+b), the one Go's
// sort.Sort puts last. The version written is go-version's String() of
// it (v1.0.0 is written 1.0.0, 1.0 is written 1.0.0).
type TFUpdate struct{}

var (
	_ engine.Policy        = TFUpdate{}
	_ engine.Selector      = TFUpdate{}
	_ engine.VersionReader = TFUpdate{}
)

// Name returns "tfupdate".
func (TFUpdate) Name() string { return "tfupdate" }

// Rule returns the rule in one line.
func (TFUpdate) Rule() string {
	return "tfupdate -v latest: the constraint is not read but replaced by the newest release by go-version's order; never a prerelease"
}

// Reasons of the tfupdate policy.
const (
	reasonTFUpdateAllow   = "a release: tfupdate replaces the constraint, whatever it says, with the newest release"
	reasonTFUpdatePre     = "prerelease: tfupdate's latest is a release, never a prerelease (excludePreReleases)"
	reasonTFUpdateDropped = "tfupdate drops it from the list of releases"
)

// tfupdateJudge judges a version whatever the constraint.
type tfupdateJudge struct{}

func (tfupdateJudge) judge(v *goversion.Version, _ bool) engine.Result {
	if v.Prerelease() != "" {
		return engine.Rejected(reasonTFUpdatePre)
	}
	return engine.Allowed(reasonTFUpdateAllow)
}

// Compile never fails: tfupdate does not read the constraint.
func (TFUpdate) Compile(string) (engine.Matcher, error) {
	return goMatcher{tfupdateJudge{}, reasonTFUpdateDropped}, nil
}

// Select returns the version release.Latest returns, as written in the
// list.
func (TFUpdate) Select(_ string, available []string) (engine.Selection, error) {
	var sel engine.Selection
	list := make(goversion.Collection, 0, len(available))
	for _, text := range available {
		v, err := parseGoVersion(text)
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: engine.ClipReason(err.Error())})
			continue
		}
		list = append(list, v)
	}
	sort.Sort(list)
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Prerelease() == "" {
			sel.Found, sel.Version = true, list[i].Original()
			break
		}
	}
	return sel, nil
}

// ReadVersions reads versions with go-version, once.
func (TFUpdate) ReadVersions(versions []string) engine.VersionTable {
	return newGoTable(versions, reasonTFUpdateDropped, func(*goList, string) (goJudge, error) { return tfupdateJudge{}, nil })
}

// verdicts is Allow on every release and Reject on every prerelease
// go-version read.
func (tfupdateJudge) verdicts(l *goList, out []engine.Verdict) {
	l.releases(out, func(int) engine.Verdict { return engine.Allow })
}
