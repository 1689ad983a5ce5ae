package main

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/internal/diag"
)

// impactCommand is prerel impact.
var impactCommand = command{
	name:          "impact",
	args:          "--policy P [flags] [--domain corpus | --domain DIR...]",
	summary:       "what would install differently for real module calls under policy P",
	help:          impactHelp,
	policySources: true,
	flags:         impactFlags,
}

// impactHelp is the help text of prerel impact.
const impactHelp = `If Terraform adopted policy P, what would install differently for real
users? For each real module call and provider requirement, paired with the
real version history of what it names, compare the version P installs with
the version B installs (--against; default: today's installers,
terraform-module for module calls, apparentlymart for providers), and count
each call in one class:

  prerelease-later-minor-or-major  P: a prerelease of a later minor or major
  prerelease-later-patch           P: a prerelease of a later patch
  prerelease-same-release          P: a prerelease of the release B installs
  other-prerelease                 P: a prerelease of an earlier release
  release-instead-of-prerelease    B installs a prerelease, P a release
  other-release                    both releases, different ones
  version-instead-of-none          P installs something, B nothing
  none-instead-of-version          P installs nothing, B something
  refused                          one of them refuses the constraint
  unchanged                        the same version, or both nothing

Each change has a cause: "prerelease rule" when P and B agree once the
prereleases are taken out of the history and the constraint, else
"reading" (of the constraint: go-version reads "~> 1" as ">= 1").

The domain is the built-in corpus (6289 calls in 119 public repositories, a
sample, not a census; one leading v is stripped from each git tag, as the
registry does) or the configurations rooted at DIR..., read as prerel
resolve reads them, with versions from --index or a registry. Calls without
a history are counted, not classified. --index, --registry-url, --timeout,
--retries and --registry-deadline apply to directory domains only. The text
report shows the first 5 cases of each class and notes; --format html is a
page with a timeline of each of the most relevant changed calls. Exit status
1 when a call falls in a --fail-on class.`

// classList is the --fail-on flag: class names, or "changed" for every
// change (impact.ClassList). The flag may be repeated, adding to the
// list; a name given twice is an error, as with --policies.
type classList struct{ impact.ClassList }

func (l *classList) Type() string { return "CLASSES" }

// impactFlags defines the flags of prerel impact and returns its run.
func impactFlags(fs *flagSet) runFunc {
	policy := fs.String("policy", "", "the `POLICY` P whose adoption is asked about (required)")
	against := fs.String("against", "", "the `POLICY` B to compare with, for every call (default: today's\ninstallers, terraform-module for modules, apparentlymart for providers)")
	var domains []string
	stringsVar(fs, &domains, "domain", "DOMAIN", " ", appendTo, "`DOMAIN`: corpus (the default), or a root module directory; more\ndirectories follow as arguments or as more --domain flags")
	var failOn classList
	fs.Var(&failOn, "fail-on", "exit 1 when a call falls in one of these comma-separated `CLASSES`\n("+impact.FailOnChanged+": every class but unchanged)")
	simulate := fs.Bool("simulate-prereleases", false, "insert X.Y.Z-beta.1 and X.Y.Z-rc.1 before each release X.Y.Z of every\nhistory that publishes no prerelease (the output says which figures\nare simulated)")
	showAll := addShowAll(fs)
	format := addFormat(fs, impact.Formats)
	var vf resolveFlags
	vf.addVersionSourceFlags(fs)
	vf.installers = addInstallerFlag(fs)
	cool := addCooldownFlags(fs)
	return func(e *env, args []string) (output, error) {
		if *policy == "" {
			return output{}, usagef("impact needs --policy P, the policy whose adoption is asked about")
		}
		opts := impact.Options{Policies: e.registry, SimulatePrereleases: *simulate}
		var err error
		if opts.Policy, err = e.policy(*policy); err != nil {
			return output{}, err
		}
		if *against != "" {
			if opts.Against, err = e.policy(*against); err != nil {
				return output{}, err
			}
		}
		d, err := impactDomain(e, fs, append(domains, args...), &vf)
		if err != nil {
			return output{}, err
		}
		if opts.Cooldown, err = impactCooldown(cool, d, *simulate); err != nil { // cooldown.go
			return output{}, err
		}
		// Directories have detected today's releases (impactDomain); the
		// corpus takes PREREL_INSTALLER's.
		if err := vf.installers.fromEnv(e); err != nil {
			return output{}, err
		}
		opts.Terraform, opts.OpenTofu = vf.installers.Releases()
		rep, err := impact.Run(d, opts)
		if err != nil {
			return output{}, failure(err)
		}
		return rendered(impact.Render, format.value, rep, renderOptions(*showAll), reportOutcome(rep.Outcome(failOn.Classes, *showAll))), nil
	}
}

// impactDomain reads the domain the --domain flags and the arguments
// name: the corpus by default, else every directory, with versions from
// the index or registry the version flags name.
func impactDomain(e *env, fs *flagSet, domains []string, vf *resolveFlags) (*impact.Domain, error) {
	if len(domains) == 0 || len(domains) == 1 && domains[0] == "corpus" {
		if set := given(fs, "index", "registry-url", "retries", "timeout"); len(set) > 0 {
			return nil, usagef("%s: only for directory domains (--domain DIR)", strings.Join(set, ", "))
		}
		d, err := impact.LoadCorpus(prerel.Corpus())
		return d, failure(err) // the corpus is built in: an error is prerel's own
	}
	for _, dir := range domains {
		if dir == "corpus" {
			return nil, usagef("--domain corpus cannot be combined with directories")
		}
		if err := vf.check(dir); err != nil {
			return nil, err
		}
	}
	// Today is the Terraform and OpenTofu the user runs there.
	if err := vf.installers.detect(e, domains[0]); err != nil {
		return nil, err
	}
	// The CLI configuration as terraform init run here reads it.
	src, err := vf.versionsIn(e, "prerel impact", "", true)
	if err != nil {
		return nil, err
	}
	tf, tofu := vf.installers.Releases()
	d, err := impact.LoadDirsAs(context.Background(), domains, src, e.registry, tf, tofu)
	var diags hcl.Diagnostics
	if errors.As(err, &diags) {
		return nil, usage(errors.New(diag.Lines(diags)))
	}
	return d, usage(err)
}
