package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/terraform/credentials"
	"github.com/prerel/prerel/terraform/registry"

	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/updaters"
)

// pairVar defines on fs the repeatable flag name of NAME=VALUE pairs,
// value naming what follows "=", each kept with the flag as written
// (policyconfig.Override); a NAME given twice is refused.
func pairVar(fs *flagSet, list *[]policyconfig.Override, name, value, usage string) {
	add := func(l []policyconfig.Override, s string) ([]policyconfig.Override, error) {
		k, v, ok := strings.Cut(s, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("expected NAME=%s, got %q", value, s)
		}
		for _, p := range l {
			if p.Name == k {
				return nil, fmt.Errorf("%q given twice: %s=%s and %s=%s", k, p.Name, p.Value, k, v)
			}
		}
		return append(l, policyconfig.Override{Name: k, Value: v, Flag: "--" + name + " " + s}), nil
	}
	text := func(p policyconfig.Override) string { return p.Name + "=" + p.Value }
	fs.Var(&listFlag[policyconfig.Override]{list, "NAME=" + value, " ", text, add}, name, usage)
}

// registryURLs is the repeatable --registry-url flag: URL for every host,
// or HOST=URL for one (registry.URLs).
type registryURLs struct{ registry.URLs }

func (r *registryURLs) Type() string { return "URL" }

func (r *registryURLs) Set(s string) error { return r.Add(s) }

// addVersionSourceFlags defines the flags that say where available
// versions come from: --index, --registry-url, --timeout, --retries and
// --registry-deadline, of resolve, impact and serve.
func (f *resolveFlags) addVersionSourceFlags(fs *flagSet) {
	fs.StringVar(&f.index, "index", "", "read available versions from the offline index `FILE` instead of a\nregistry")
	fs.Var(&f.urls, "registry-url", "send service discovery to `URL` instead of each source's host, or\nHOST=URL for one host (repeatable); an http or https URL without a\nquery or fragment")
	durationVar(fs, &f.timeout, "timeout", registry.DefaultTimeout, "the `DURATION` to wait for each registry request, such as 10s or\n1m")
	fs.IntVar(&f.retries, "retries", registry.DefaultRetries, fmt.Sprintf("retries of a registry request answered 429 or 5xx, at most %d; a\nhost that keeps answering 5xx is no longer retried", registry.MaxRetries))
	durationVar(fs, &f.deadline, "registry-deadline", registry.DefaultDeadline, "the `DURATION` the registry requests of a run (of one lookup, for\nserve) may take together, retries included")
}

// resolveFlags are the flags of prerel resolve; impact and serve share
// its version source flags.
type resolveFlags struct {
	configFile, policy, index, modulesDir, lockFile string
	// loaded is the policy configuration file resolve read, "" for none.
	loaded                           string
	modulePolicies, providerPolicies []policyconfig.Override
	// wants are --want's CALL=VERSION and SOURCE=VERSION.
	wants             []policyconfig.Override
	extra             policyList
	urls              registryURLs
	timeout, deadline time.Duration
	retries           int
	installers        *installerFlag
	cool              *cooldownFlags
}

// resolveCommand is prerel resolve.
var resolveCommand = command{
	name:    "resolve",
	args:    "[flags] DIR",
	summary: "each module and provider in DIR: its policy's version next to today's",
	help: `For each module call and provider of the Terraform/OpenTofu configuration
rooted at DIR, show the version its chosen policy selects next to what
Terraform and OpenTofu select today. The module tree is read as terraform
init reads it: local modules from disk, remote ones from .terraform/modules
(or --modules-dir); provider constraints of every module are intersected.
Versions come from --index FILE or a registry (service discovery on each
source's host, or --registry-url). Today's Terraform and OpenTofu are the
releases --installer names, the newest of each by default: a registry
answer one of them cannot read is that release's error. The text report
fits 80 columns: each provider's constraint in short, --show-all lists
every module's. --policies adds policies: in text, under a row where they
select another version than today, saying when it is a prerelease of a new
major; in Markdown as columns. Where the chosen policy selects no version,
the report says why, which policies select the newest versions, and the
edits of the constraint, each tried, under which the chosen policy does.
Exit status 1 when some module or provider has no admissible version under
its chosen policy, or a locked provider version is not admitted by it; 3
when some versions could not be listed. Every problem is named on stderr.`,
	policySources: true,
	flags:         resolveCommandFlags,
}

// resolveCommandFlags defines the flags of prerel resolve and returns its
// run.
func resolveCommandFlags(fs *flagSet) runFunc {
	f := addTreeFlags(fs)
	// resolve's --policies adds columns: not addPolicies, whose policies
	// are those a command runs, all by default.
	stringsVar(fs, &f.extra, "policies", "POLICIES", ",", addPolicyNames, "comma-separated `POLICIES` to show as extra columns (default: none)")
	updater := fs.String("updater", "", "also show what the updater `NAME` (renovate, dependabot or\nterraform-module-versions) selects and proposes next to what init\ninstalls, and where they disagree")
	readers := fs.Bool("readers", false, "also show what every program that reads a constraint assumes: today's\ninit, the bots (Renovate, Dependabot, terraform-module-versions) and the\nother readers of the catalogue, differences first")
	format := addFormat(fs, resolve.Formats)
	showAll := addShowAll(fs)
	return func(e *env, args []string) (output, error) {
		if len(args) != 1 {
			return output{}, usagef("resolve needs exactly one root module directory, got %d arguments", len(args))
		}
		up, err := updaterPolicy(*updater)
		if err != nil {
			return output{}, err
		}
		// The files prerel pin wrote are read apart: the report judges
		// the configuration's own constraints and shows each pin.
		rep, err := f.resolve(e, args[0], pin.Skip)
		if err != nil {
			return output{}, err
		}
		if up != nil {
			if err := rep.AddUpdater(up, e.registry); err != nil {
				return output{}, failure(err)
			}
		}
		if *readers {
			if err := rep.AddReaders(rep.WithRFC4444(e.registry, constraintReaders(e.registry))); err != nil {
				return output{}, failure(err)
			}
		}
		return rendered(resolve.Render, format.value, rep, renderOptions(*showAll), errors.Join(reportOutcome(rep.Outcome(*showAll)), stalePins(rep))), nil
	}
}

// stalePins is a finding for every pin prerel pin wrote that is not what
// the chosen policy selects now, as a stale lock entry is.
func stalePins(rep *resolve.Report) error {
	if lines := rep.StalePinLines(); len(lines) > 0 {
		return finding(errors.New(strings.Join(lines, "\n")))
	}
	return nil
}

// resolve reads the configuration rooted at dir as the flags say and
// resolves it, leaving out the files for which skip returns true (see
// resolve.Options.SkipFile). The policies of the policy configuration
// become e's.
func (f *resolveFlags) resolve(e *env, dir string, skip func(string) bool) (*resolve.Report, error) {
	if err := f.check(dir); err != nil {
		return nil, err
	}
	cfg, err := f.policyConfig(e, dir)
	if err != nil {
		return nil, err
	}
	// The policies prerel.hcl declares are usable everywhere below.
	e.registry = cfg.Registry()
	f.loaded = cfg.File()
	extra, err := f.extraPolicies(e)
	if err != nil {
		return nil, err
	}
	versions, err := f.versionsIn(e, "prerel resolve", dir, true)
	if err != nil {
		return nil, err
	}
	if err := f.installers.detect(e, dir); err != nil {
		return nil, err
	}
	tf, tofu := f.installers.Releases()
	rep, err := resolve.Run(context.Background(), resolve.Options{
		TerraformFrom: f.installers.TerraformFrom, OpenTofuFrom: f.installers.OpenTofuFrom,
		Dir: dir, ModulesDir: f.modulesDir, Config: cfg, Versions: versions, Policies: e.registry, Extra: extra, LockFile: f.lockFile,
		SkipFile: skip, Terraform: tf, OpenTofu: tofu, Now: f.cool.now,
	})
	var diags hcl.Diagnostics
	if errors.As(err, &diags) {
		return nil, diagnosticsError(diags)
	} else if err != nil {
		return nil, usage(err)
	}
	return rep, nil
}

// addTreeFlags defines the flags that say how a configuration is read
// and resolved, of resolve and pin: the policy configuration (--config,
// --policy, --module-policy, --provider-policy), where versions come from
// (addVersionSourceFlags), --modules-dir and --lock-file.
func addTreeFlags(fs *flagSet) *resolveFlags {
	f := &resolveFlags{}
	fs.StringVar(&f.configFile, "config", "", "the policy configuration `FILE` (default: DIR/"+policyconfig.DefaultFile+" when it exists)")
	fs.StringVar(&f.policy, "policy", "", "the default `POLICY`, overriding default_policy (built-in default: "+policyconfig.FallbackPolicy+")")
	pairVar(fs, &f.modulePolicies, "module-policy", "POLICY", "`CALL=POLICY` for one module call, overriding the config file\n(repeatable); CALL is the call path, such as vpc or eks.node_group")
	pairVar(fs, &f.providerPolicies, "provider-policy", "POLICY", "`SOURCE=POLICY` for one provider, such as hashicorp/aws=strict\n(repeatable)")
	pairVar(fs, &f.wants, "want", "VERSION", "`CALL=VERSION`: the exact version wanted for the module call CALL\n(db, eks.node_group), or SOURCE=VERSION for a provider\n(hashicorp/aws=6.0.0-beta1), whatever its policy selects (repeatable)")
	f.addVersionSourceFlags(fs)
	fs.StringVar(&f.modulesDir, "modules-dir", "", "the `DIR` holding modules.json, the module manifest terraform init\nwrites (default: DIR/.terraform/modules, or modules in TF_DATA_DIR)")
	fs.StringVar(&f.lockFile, "lock-file", "", "the dependency lock `FILE` to check (default: DIR/.terraform.lock.hcl\nwhen it exists; - for none)")
	f.installers = addInstallerFlag(fs)
	f.cool = addCooldownFlags(fs)
	return f
}

// check validates the flags and the root directory.
func (f *resolveFlags) check(dir string) error {
	if dir == "" {
		return usagef("the root module directory is empty: give a directory, such as . for the current one")
	}
	if fi, err := os.Stat(dir); err != nil {
		return inputError(err)
	} else if !fi.IsDir() {
		return usagef("%s is not a directory", printable.String(dir))
	}
	if f.index != "" && f.urls.Given() {
		return usagef("--index and --registry-url cannot be used together")
	}
	if f.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	return nil
}

// policyConfig reads --config, or DIR/prerel.hcl when it exists, and
// applies the policy flags on top (policyconfig.Config.Apply); every
// mistake is reported at once.
func (f *resolveFlags) policyConfig(e *env, dir string) (*policyconfig.Config, error) {
	cfg, diags := loadPolicyConfig(e, dir, f.configFile)
	if cfg == nil {
		return nil, diagnosticsError(diags)
	}
	o := policyconfig.Overrides{Default: policyconfig.Override{Value: f.policy, Flag: "--policy " + f.policy},
		Modules: f.modulePolicies, Providers: f.providerPolicies, Wants: f.wants}
	f.cool.overrides(&o)
	if diags = append(diags, cfg.Apply(o)...); diags.HasErrors() {
		return nil, usage(errors.New(diag.Lines(diags)))
	}
	return cfg, nil
}

func (f *resolveFlags) extraPolicies(e *env) ([]engine.Policy, error) {
	if len(f.extra) == 0 {
		return nil, nil
	}
	return e.resolve(f.extra)
}

// versionsIn returns the source of versions the flags name
// (credentials.NewSource), with, when cli is set, what Terraform's CLI
// configuration adds as terraform init run in workDir would read it.
// Errors in the CLI configuration are warnings, as Terraform makes them,
// named on stderr after cmd ("prerel resolve").
func (f *resolveFlags) versionsIn(e *env, cmd, workDir string, cli bool) (registry.Source, error) {
	if f.index == "" && (f.retries < 0 || f.retries > registry.MaxRetries) {
		return nil, usagef("--retries must be between 0 and %d, got %d", registry.MaxRetries, f.retries)
	}
	if f.index == "" && f.deadline <= 0 {
		return nil, usagef("--registry-deadline must be positive")
	}
	src, diags, err := credentials.NewSource(credentials.SourceOptions{Index: f.index, BaseURL: f.urls.All, HostURLs: f.urls.Hosts,
		Timeout: f.timeout, Deadline: f.deadline, Retries: f.retries, Environ: e.environ, CLIConfig: cli, WorkDir: workDir})
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			fmt.Fprintf(e.stderr, "%s: warning: the CLI configuration: %s\n", cmd, printable.String(diag.Format(d)))
		}
	}
	return src, inputError(err)
}

// loadPolicyConfig reads path, or DIR/prerel.hcl when it exists, or
// starts from no settings. The Config is nil when there are errors.
func loadPolicyConfig(e *env, dir, path string) (*policyconfig.Config, hcl.Diagnostics) {
	if path == "" {
		return policyconfig.LoadDir(e.registry, dir)
	}
	return policyconfig.Load(e.registry, path)
}

// diagnosticsError is the error of a configuration that cannot be used:
// an outside failure when a file could not be read for a reason other
// than the input (permission, I/O), bad input otherwise.
func diagnosticsError(diags hcl.Diagnostics) error {
	err := errors.New(diag.Lines(diags))
	for _, d := range diags {
		if cause, ok := hcl.DiagnosticExtra[error](d); ok && d.Severity == hcl.DiagError && exitStatus(inputError(cause)) == exitFailure {
			return failure(err)
		}
	}
	return usage(err)
}

// updaterPolicy is the policy --updater names (updaters.Named), nil for
// none.
func updaterPolicy(name string) (engine.Policy, error) {
	if name == "" {
		return nil, nil
	}
	p, err := updaters.Named(name)
	if err != nil {
		return nil, usagef("--updater %q: %v", name, err)
	}
	return p, nil
}

// constraintReaders are the programs besides init that read a
// constraint: every registered policy of the catalogue's updaters (the
// bots) and readers (the editor, tfupdate, OpenTofu's new engine), in
// registration order.
func constraintReaders(reg *engine.Registry) []resolve.Reader {
	var out []resolve.Reader
	for _, p := range reg.All() {
		if g := catalogue.Group(p.Name()); g == catalogue.GroupUpdaters || g == catalogue.GroupReaders {
			out = append(out, resolve.ReaderOf(p))
		}
	}
	return out
}
