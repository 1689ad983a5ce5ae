package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/terraform/registry"

	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
)

// pairList is a repeatable KEY=VALUE flag; each value keeps the flag text
// for error messages.
type pairList struct {
	flag  string
	pairs []pair
}

type pair struct{ key, value, text string }

func (l *pairList) String() string {
	var s []string
	for _, p := range l.pairs {
		s = append(s, p.key+"="+p.value)
	}
	return strings.Join(s, " ")
}

func (l *pairList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("expected NAME=POLICY, got %q", s)
	}
	l.pairs = append(l.pairs, pair{k, v, "--" + l.flag + " " + s})
	return nil
}

// registryURLs is the repeatable --registry-url flag: URL for every host,
// or HOST=URL for one.
type registryURLs struct {
	all   string
	hosts map[string]string
}

func (r *registryURLs) String() string { return r.all }

func (r *registryURLs) Set(s string) error {
	host, u := "", s
	if i, j := strings.Index(s, "="), strings.Index(s, "://"); i > 0 && (j < 0 || i < j) {
		host, u = strings.ToLower(s[:i]), s[i+1:]
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return fmt.Errorf("%q is not an http:// or https:// URL", u)
	}
	if host == "" {
		if r.all != "" {
			return errors.New("a URL for every host is already given; use HOST=URL for more")
		}
		r.all = u
		return nil
	}
	if r.hosts == nil {
		r.hosts = map[string]string{}
	}
	r.hosts[host] = u
	return nil
}

// resolveFlags are the flags of prerel resolve.
// addVersionSourceFlags defines the flags that say where available
// versions come from: --index, --registry-url, --timeout and --retries.
// scope, when set, names what they apply to ("directory domains") at the
// start of each usage.
func (f *resolveFlags) addVersionSourceFlags(fs *flag.FlagSet, scope string) {
	if scope != "" {
		scope += ": "
	}
	fs.StringVar(&f.index, "index", "", scope+"read available versions from the offline index\n`FILE` instead of a registry")
	fs.Var(&f.urls, "registry-url", scope+"send service discovery to `URL` instead of each\nsource's host, or HOST=URL for one host (repeatable)")
	fs.DurationVar(&f.timeout, "timeout", registry.DefaultTimeout, scope+"timeout of each registry request")
	fs.IntVar(&f.retries, "retries", registry.DefaultRetries, scope+"retries of a registry request answered 429\nor 5xx")
}

type resolveFlags struct {
	configFile, policy, index, modulesDir, lockFile string
	modulePolicies, providerPolicies                pairList
	extra                                           policyList
	urls                                            registryURLs
	timeout                                         time.Duration
	retries                                         int
	format                                          formatFlag
}

func runResolve(e *env, args []string) error {
	fs := newFlags(e, "resolve", "[flags] DIR",
		"For each module call and provider of the Terraform/OpenTofu configuration\n"+
			"rooted at DIR, show the version its chosen policy selects next to what\n"+
			"Terraform and OpenTofu select today. The module tree is read as terraform\n"+
			"init reads it: local modules from disk, remote ones from .terraform/modules\n"+
			"(or --modules-dir); provider constraints of every module are intersected.\n"+
			"Versions come from --index FILE or a registry (service discovery on each\n"+
			"source's host, or --registry-url). Exit status 1 when some module or\n"+
			"provider has no admissible version under its chosen policy.")
	f := resolveFlags{
		modulePolicies:   pairList{flag: "module-policy"},
		providerPolicies: pairList{flag: "provider-policy"},
		format:           formatFlag{"text", []string{"text", "markdown", "json"}},
	}
	fs.StringVar(&f.configFile, "config", "", "the policy configuration `FILE` (default: DIR/"+policyconfig.DefaultFile+" when it exists)")
	fs.StringVar(&f.policy, "policy", "", "the default `POLICY`, overriding default_policy (built-in default: "+policyconfig.FallbackPolicy+")")
	fs.Var(&f.modulePolicies, "module-policy", "`CALL=POLICY` for one module call, overriding the config file\n(repeatable); CALL is the call path, such as vpc or eks.node_group")
	fs.Var(&f.providerPolicies, "provider-policy", "`SOURCE=POLICY` for one provider, such as hashicorp/aws=strict\n(repeatable)")
	fs.Var(&f.extra, "policies", "comma-separated policies to show as extra columns")
	f.addVersionSourceFlags(fs, "")
	fs.StringVar(&f.modulesDir, "modules-dir", "", "the `DIR` holding modules.json, the module manifest terraform init\nwrites (default: DIR/.terraform/modules)")
	fs.StringVar(&f.lockFile, "lock-file", "", "the dependency lock `FILE` to check (default: DIR/.terraform.lock.hcl\nwhen it exists; - for none)")
	fs.Var(&f.format, "format", "output format: text, markdown or json")
	showAll := addShowAll(fs, "list every line, item and version (without it: lists of at most 10\nlines, 6 items and 2 versions, each with a count of the rest)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("resolve needs exactly one root module directory, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if err := f.check(dir); err != nil {
		return err
	}
	cfg, err := f.policyConfig(e, dir)
	if err != nil {
		return err
	}
	extra, err := f.extraPolicies(e)
	if err != nil {
		return err
	}
	versions, err := f.versions()
	if err != nil {
		return err
	}
	rep, err := resolve.Run(context.Background(), resolve.Options{
		Dir: dir, ModulesDir: f.modulesDir, Config: cfg, Versions: versions, Policies: e.registry, Extra: extra, LockFile: f.lockFile,
	})
	var diags hcl.Diagnostics
	if errors.As(err, &diags) {
		return usage(errors.New(diagnosticLines(diags)))
	} else if err != nil {
		return usage(err)
	}
	if err := renderResolve(e, f.format.value, rep, resolve.RenderOptions{ShowAll: *showAll}); err != nil {
		return failure(err)
	}
	return resolveOutcome(rep, *showAll)
}

// check validates the flags and the root directory.
func (f *resolveFlags) check(dir string) error {
	if fi, err := os.Stat(dir); err != nil {
		return inputError(err)
	} else if !fi.IsDir() {
		return usagef("%s is not a directory", dir)
	}
	if f.index != "" && (f.urls.all != "" || len(f.urls.hosts) > 0) {
		return usagef("--index and --registry-url cannot be used together")
	}
	if f.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	return nil
}

// policyConfig reads --config, or DIR/prerel.hcl when it exists, and
// applies the policy flags on top; every mistake is reported at once.
func (f *resolveFlags) policyConfig(e *env, dir string) (*policyconfig.Config, error) {
	cfg, diags := loadPolicyConfig(e, dir, f.configFile)
	if cfg == nil {
		return nil, usage(errors.New(diagnosticLines(diags)))
	}
	if f.policy != "" {
		diags = append(diags, cfg.SetDefault(f.policy, policyconfig.FlagOrigin("--policy "+f.policy))...)
	}
	for _, p := range f.modulePolicies.pairs {
		diags = append(diags, cfg.SetModule(p.key, p.value, policyconfig.FlagOrigin(p.text))...)
	}
	for _, p := range f.providerPolicies.pairs {
		diags = append(diags, cfg.SetProvider(p.key, p.value, policyconfig.FlagOrigin(p.text))...)
	}
	if diags.HasErrors() {
		return nil, usage(errors.New(diagnosticLines(diags)))
	}
	return cfg, nil
}

func (f *resolveFlags) extraPolicies(e *env) ([]engine.Policy, error) {
	if len(f.extra) == 0 {
		return nil, nil
	}
	return e.resolve(f.extra)
}

// versions returns the offline index or the registry client the flags
// name.
func (f *resolveFlags) versions() (registry.Source, error) {
	if f.index != "" {
		x, err := registry.LoadIndex(f.index)
		if err != nil {
			return nil, inputError(err)
		}
		return x, nil
	}
	r := f.retries
	if r == 0 {
		r = -1 // none
	}
	return &registry.Client{BaseURL: f.urls.all, HostURLs: f.urls.hosts, Timeout: f.timeout, Retries: r}, nil
}

func renderResolve(e *env, format string, rep *resolve.Report, opt resolve.RenderOptions) error {
	switch format {
	case "json":
		return resolve.RenderJSON(e.stdout, rep)
	case "markdown":
		return resolve.RenderMarkdownWith(e.stdout, rep, opt)
	default:
		return resolve.RenderTextWith(e.stdout, rep, opt)
	}
}

// resolveOutcome is the exit status of a resolved report: an outside
// failure when versions could not be listed, a finding when some item
// has no admissible version. Items that could not be listed for the same
// reason share a line that names them, at most 6 unless showAll.
func resolveOutcome(rep *resolve.Report, showAll bool) error {
	if bad := rep.Errors(); len(bad) > 0 {
		var lines []string
		for _, g := range rep.ProblemGroups(resolve.StatusError) {
			if len(g.Items) == 1 {
				it := g.Items[0]
				lines = append(lines, fmt.Sprintf("%s %q: %s", it.Kind, it.Name, it.Problem))
				continue
			}
			max := 6
			if showAll {
				max = 0
			}
			names, _ := g.Names(max, strconv.Quote)
			lines = append(lines, fmt.Sprintf("%s (%d items): %s", names, len(g.Items), g.Problem))
		}
		return failure(fmt.Errorf("the versions of %d of %d items could not be listed:\n  %s", len(bad), len(rep.Items), strings.Join(lines, "\n  ")))
	}
	if bad := rep.Unsatisfied(); len(bad) > 0 {
		lines := make([]string, len(bad))
		for i, it := range bad {
			lines[i] = fmt.Sprintf("%s %q (%s): %s", it.Kind, it.Name, posOrImplied(it.Pos), it.Problem)
		}
		return finding(errors.New(strings.Join(lines, "\n")))
	}
	return nil
}

func posOrImplied(pos string) string {
	if pos == "" {
		return "implied"
	}
	return pos
}

// diagnosticLines formats the errors among diags one a line, with a count
// first when there are several.
func diagnosticLines(diags hcl.Diagnostics) string {
	var lines []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			lines = append(lines, diag.Format(d))
		}
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return fmt.Sprintf("%d problems in the configuration:\n  %s", len(lines), strings.Join(lines, "\n  "))
}

// loadPolicyConfig reads path, or DIR/prerel.hcl when it exists, or
// starts from no settings. The Config is nil when there are errors.
func loadPolicyConfig(e *env, dir, path string) (*policyconfig.Config, hcl.Diagnostics) {
	if path == "" {
		path = filepath.Join(dir, policyconfig.DefaultFile)
		if _, err := os.Stat(path); err != nil {
			cfg, err := policyconfig.New(e.registry)
			if err != nil {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: err.Error()}}
			}
			return cfg, nil
		}
	}
	return policyconfig.Load(e.registry, path)
}
