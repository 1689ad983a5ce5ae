package resolve

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// The IDs of the SARIF rules of a Report's findings (Report.SARIF).
const (
	RuleInstallerIgnores  = "installer-ignores-version"
	RuleNoAdmissible      = "no-admissible-version"
	RuleNotListed         = "versions-not-listed"
	RuleLockRefused       = "locked-version-refused"
	RuleStalePin          = "stale-pin"
	RuleReadDifferently   = "read-differently"
	RuleConfigWarning     = "configuration-warning"
	sarifInstallTodayHelp = "install-today.md#install-a-prerelease-today"
)

// SARIFRules are the rules of Report.SARIF's results, in the order a
// log lists them.
var SARIFRules = []sarif.Rule{
	{ID: RuleInstallerIgnores, Level: sarif.Warning, HelpURI: sarif.DocsURI + sarifInstallTodayHelp,
		Short: "terraform init installs no version for this constraint, although the registry lists one within it.",
		Help: "Today's module and provider installers ignore a prerelease unless one `=` alone names it, " +
			"and refuse some spellings outright (`= 2.0.0-beta.1` with a space, a `v` prefix): " +
			"`init` then installs nothing for the constraint, or fails. " +
			"Write the bare version (`2.0.0-beta.1`), or run `prerel pin` to write the override that makes `init` " +
			"install what the chosen policy selects."},
	{ID: RuleNoAdmissible, Level: sarif.Error, HelpURI: sarif.DocsURI + "install-today.md",
		Short: "The chosen policy admits no available version for this constraint.",
		Help: "No version the registry lists is admitted by the policy `prerel.hcl` chooses for this module call " +
			"or provider, with every module's constraint on it. `prerel resolve` names the comparator that refuses " +
			"the newest versions and the edits of the constraint under which the policy selects them."},
	{ID: RuleNotListed, Level: sarif.Error, HelpURI: sarif.DocsURI + "install-today.md",
		Short: "The available versions could not be listed.",
		Help:  "The registry (or the offline index) did not answer with the versions of this source: nothing is known of what any policy selects. Check the source address, the registry's URL and its credentials."},
	{ID: RuleLockRefused, Level: sarif.Error, HelpURI: sarif.DocsURI + sarifInstallTodayHelp,
		Short: "The dependency lock file holds a provider version the chosen policy does not admit.",
		Help: "`init` keeps a locked version while the configuration admits it, so the lock file can hold a " +
			"prerelease the chosen policy refuses. Run `prerel pin --update-lock`, or `terraform init -upgrade`."},
	{ID: RuleStalePin, Level: sarif.Error, HelpURI: sarif.DocsURI + sarifInstallTodayHelp,
		Short: "A pin prerel pin wrote is no longer what the chosen policy selects.",
		Help:  "A newer version was published, or the policy or constraint changed: `init` still installs the old pin. Run `prerel pin` to rewrite the override file."},
	{ID: RuleReadDifferently, Level: sarif.Warning, HelpURI: sarif.DocsURI + "readers.md",
		Short: "Terraform and OpenTofu read this constraint or configuration differently.",
		Help: "`.tofu` files, a `v` prefix, four-part versions and version expressions are read by one " +
			"program and not the other: the two install different versions, or one fails. Make the files agree, " +
			"or write the version so that both read it alike."},
	{ID: RuleConfigWarning, Level: sarif.Warning, HelpURI: sarif.DocsURI + "install-today.md",
		Short: "A warning about the configuration, as prerel resolve prints it.",
		Help:  "Something `init` or the registry would stop at or warn about: a required_version the release does not admit, a version that is not a literal, a listed version no policy reads, a lock entry `init` will refuse."},
}

// note is one of Report.Warnings, where it stands and the rule of the
// SARIF result it becomes.
type note struct {
	text string
	// rule is one of the rules above; "" for RuleConfigWarning.
	rule    string
	at      hcl.Range
	related []relatedNote
}

// relatedNote is another place a note involves.
type relatedNote struct {
	at   hcl.Range
	text string
}

// warn adds warnings to the report, with their places.
func (r *Report) warn(notes ...note) {
	for _, n := range notes {
		r.Warnings = append(r.Warnings, n.text)
		r.notes = append(r.notes, n)
	}
}

// diagRule is the rule of a warning diagnostic: read-differently for
// what Terraform and OpenTofu read otherwise, configuration-warning for
// the rest.
func diagRule(d *hcl.Diagnostic) string {
	if strings.HasPrefix(d.Summary, "Not readable by ") || d.Summary == "Version not constant for Terraform" {
		return RuleReadDifferently
	}
	return ""
}

// versionOrEntry is the place of a provider requirement's version, or of
// its entry when it has none.
func versionOrEntry(p *config.ProviderRequirement) hcl.Range {
	if p.VersionPos.Filename != "" {
		return p.VersionPos
	}
	return p.Pos
}

// SARIF returns the report's findings as SARIF results of SARIFRules,
// each at the constraint it is about (a lock file entry, a pin), with
// the constraints of the other modules involved as related locations:
// the versions the installer silently ignores, items with no admissible
// version or no listed versions, locked versions the chosen policy
// refuses, stale pins, what Terraform and OpenTofu read differently and
// every other warning. Files are named as they were opened: relative to
// the working directory, or absolute.
//
// Code scanning refuses a log with a result at no place: a finding
// without one (a warning about the CLI configuration, an implied
// provider) stands at the report's first file, or at its directory.
func (r *Report) SARIF() []sarif.Result {
	if r == nil {
		return nil
	}
	out := r.sarifResults()
	fallback := r.Dir
	for i := len(out) - 1; i >= 0; i-- {
		if f := out[i].Location.File; f != "" {
			fallback = f
		}
	}
	for i := range out {
		if out[i].Location.File == "" {
			out[i].Location = sarif.Location{File: fallback}
		}
	}
	return out
}

// sarifResults are the results of SARIF, some maybe at no place.
func (r *Report) sarifResults() []sarif.Result {
	var out []sarif.Result
	for i := range r.Items {
		it := &r.Items[i]
		what := fmt.Sprintf("%s %q", it.Kind, it.Name)
		switch it.Status {
		case StatusError:
			out = append(out, it.result(RuleNotListed, fmt.Sprintf("%s (%s): the versions could not be listed: %s", what, it.Source, it.Problem)))
		case StatusUnsatisfied:
			out = append(out, it.result(RuleNoAdmissible, fmt.Sprintf("%s: %s", what, it.Problem)))
		}
		if n := it.NoneToday(); n != nil {
			msg := fmt.Sprintf("%s: terraform init installs no version: %s", what, n.Why)
			if len(n.Selects) > 0 {
				msg += "; " + strings.Join(n.Selects, "; ")
			}
			if n.Pin != "" {
				msg += "; pin: " + n.Pin + " (prerel pin writes it)"
			}
			out = append(out, it.result(RuleInstallerIgnores, msg))
		}
		if tf, tofu := it.ByPolicy[it.TerraformPolicy], it.ByPolicy[it.OpenTofuPolicy]; it.Status != StatusError && it.TerraformPolicy != it.OpenTofuPolicy && !sameVersion(tf, tofu) {
			out = append(out, it.result(RuleReadDifferently, fmt.Sprintf("%s: today's Terraform selects %s for %q, today's OpenTofu %s",
				what, selectedOr(tf), it.Constraint, selectedOr(tofu))))
		}
		if p := it.Pinned; p != nil && p.Stale {
			res := sarif.Result{Rule: RuleStalePin, Location: sarif.At(p.Range),
				Message: fmt.Sprintf("%s is pinned at %s, but %s now selects %s: run prerel pin", what, p.Version, it.Policy, selectedOr(it.Selected))}
			for _, q := range it.Requirements {
				res.Related = append(res.Related, q.SARIFLocation())
			}
			out = append(out, res)
		}
	}
	for _, l := range r.RefusedLocks() {
		res := sarif.Result{Rule: RuleLockRefused, Location: sarif.At(l.Range),
			Message: fmt.Sprintf("locked provider %s %s is not admitted by %s for %q: %s: %s", l.Address, l.Version, l.Policy, l.Constraint, verdictText(l), l.Reason)}
		for _, it := range r.Items {
			if it.Kind == KindProvider && it.Address == l.Address {
				for _, q := range it.Requirements {
					res.Related = append(res.Related, q.SARIFLocation())
				}
			}
		}
		out = append(out, res)
	}
	for i, w := range r.Warnings {
		n := note{text: w}
		if i < len(r.notes) {
			n = r.notes[i]
		}
		rule := n.rule
		if rule == "" {
			rule = RuleConfigWarning
		}
		res := sarif.Result{Rule: rule, Message: registry.RedactURL(w), Location: sarif.At(n.at)}
		for _, rel := range n.related {
			loc := sarif.At(rel.at)
			loc.Message = rel.text
			res.Related = append(res.Related, loc)
		}
		out = append(out, res)
	}
	return out
}

// result is a result of rule about it, at its constraint, with every
// other module's constraint on it as related locations.
func (it *Item) result(rule, msg string) sarif.Result {
	res := sarif.Result{Rule: rule, Message: msg, Location: sarif.At(it.Range)}
	for _, q := range it.Requirements {
		if q.Range != it.Range {
			res.Related = append(res.Related, q.SARIFLocation())
		}
	}
	return res
}

// SARIFLocation is where the constraint is written, as a related
// location of a SARIF result: "the constraint of module.eks: ...".
func (q Requirement) SARIFLocation() sarif.Location {
	loc := sarif.At(q.Range)
	loc.Message = fmt.Sprintf("the constraint of %s: %q", q.Module, q.Constraint)
	return loc
}

func selectedOr(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}

func verdictText(l Lock) string {
	if l.Verdict == nil {
		return "no verdict"
	}
	return l.Verdict.String()
}
