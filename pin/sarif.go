package pin

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/resolve"
)

// The IDs of the SARIF rules of a check (SARIF).
const (
	RuleOverrideDiffers = "override-file-differs"
	RulePinRefused      = "provider-pin-refused"
)

// SARIFRules are the rules of a check's SARIF results: resolve's, then
// pin's own.
var SARIFRules = append(append([]sarif.Rule(nil), resolve.SARIFRules...),
	sarif.Rule{ID: RuleOverrideDiffers, Level: sarif.Error, HelpURI: sarif.DocsURI + "install-today.md#install-a-prerelease-today",
		Short: "An override file is not what prerel pin would write.",
		Help: "A version was published, or a policy or constraint changed, since `prerel pin` last ran: the file is missing, " +
			"changed, stale or a leftover of a stopped run. Run `prerel pin DIR` and commit the result."},
	sarif.Rule{ID: RulePinRefused, Level: sarif.Warning, HelpURI: sarif.DocsURI + "install-today.md#install-a-prerelease-today",
		Short: "A provider pin is not written: a child module's constraint refuses the version.",
		Help: "Terraform intersects every module's constraints on a provider: a pin in the root module that a child " +
			"module's constraint refuses makes `init` fail. Relax that constraint, or choose a policy for the provider " +
			"that selects a version it admits."},
)

// SARIF returns what a check found as SARIF results of SARIFRules: the
// findings of the report the plan was built from (resolve.Report.SARIF;
// rep when the plan has none), then each file that differs, at its first
// changed line (a missing file at the constraint of its first pin), with
// the constraints its pins override as related locations, then each
// provider pin other modules' constraints refuse, at the first of them.
func SARIF(p *Plan, diffs []Difference, rep *resolve.Report) []sarif.Result {
	if p != nil && p.report != nil {
		rep = p.report
	}
	out := rep.SARIF()
	if p == nil {
		return out
	}
	for _, d := range diffs {
		path := filepath.Join(p.Dir, d.File)
		res := sarif.Result{Rule: RuleOverrideDiffers, Location: sarif.Location{File: path, Line: d.Line}}
		if d.Kind == "changed" && d.Line == 0 {
			res.Location.Line = 1
		}
		var pins []string
		for _, pn := range p.Pins {
			if filepath.Join(p.Dir, pn.File) != path {
				continue
			}
			pins = append(pins, fmt.Sprintf("%s %s at %s", pn.Kind, pn.Name, pn.Version))
			loc := sarif.At(pn.Range)
			loc.Message = fmt.Sprintf("the constraint the pin of %s %s overrides: %q", pn.Kind, pn.Name, pn.Constraint)
			res.Related = append(res.Related, loc)
		}
		switch d.Kind {
		case "missing":
			res.Message = fmt.Sprintf("%s is missing: prerel pin would write it", d.File)
			if len(res.Related) > 0 {
				// The file is not there to point at: the first constraint
				// it would override is.
				res.Location, res.Related = res.Related[0], res.Related[1:]
				res.Location.Message = ""
			}
		case "changed":
			res.Message = fmt.Sprintf("%s is not what prerel pin would write, from line %d", d.File, res.Location.Line)
		case "stale":
			res.Message = fmt.Sprintf("%s is stale: prerel pin would remove it", d.File)
		default:
			res.Message = fmt.Sprintf("%s is a temporary file a stopped run left: prerel pin would remove it", d.File)
		}
		if len(pins) > 0 {
			res.Message += "; it pins " + strings.Join(pins, ", ")
		}
		out = append(out, res)
	}
	for _, u := range p.Unpinned {
		if len(u.Refusing) == 0 {
			continue
		}
		res := sarif.Result{Rule: RulePinRefused, Location: sarif.At(u.Refusing[0].Range),
			Message: fmt.Sprintf("%s %s: the pin of %s is not written: %s", u.Kind, u.Name, orNone(u.Selected), u.Reason)}
		for _, q := range u.Refusing[1:] {
			res.Related = append(res.Related, q.SARIFLocation())
		}
		if u.Range.Filename != "" {
			loc := sarif.At(u.Range)
			loc.Message = "the constraint of the root module"
			res.Related = append(res.Related, loc)
		}
		out = append(out, res)
	}
	return out
}
