package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/prerel/prerel/adapters/registry"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies/moduleconfig"
	"github.com/prerel/prerel/resolve"
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

func runResolve(e *env, args []string) error {
	fs := newFlags(e, "resolve", "[flags] DIR",
		"For each module call and provider of the Terraform/OpenTofu root module in DIR, show the version its chosen\n"+
			"policy selects next to what Terraform and OpenTofu select today. Versions come from --index FILE or a\n"+
			"registry (service discovery on each source's host, or --registry-url). Exit status 1 when some module or\n"+
			"provider has no admissible version under its chosen policy.")
	configFile := fs.String("config", "", "the policy configuration `FILE` (default: DIR/"+moduleconfig.DefaultFile+" when it exists)")
	policy := fs.String("policy", "", "the default `POLICY`, overriding default_policy (built-in default: "+moduleconfig.FallbackPolicy+")")
	modulePolicies := &pairList{flag: "module-policy"}
	fs.Var(modulePolicies, "module-policy", "`NAME=POLICY` for one module call, overriding the config file (repeatable)")
	providerPolicies := &pairList{flag: "provider-policy"}
	fs.Var(providerPolicies, "provider-policy", "`SOURCE=POLICY` for one provider, such as hashicorp/aws=strict (repeatable)")
	var extra policyList
	fs.Var(&extra, "policies", "comma-separated policies to show as extra columns")
	index := fs.String("index", "", "read available versions from the offline index `FILE` instead of a registry")
	var urls registryURLs
	fs.Var(&urls, "registry-url", "send service discovery to `URL` instead of each source's host, or HOST=URL for one host (repeatable)")
	lockFile := fs.String("lock-file", "", "the dependency lock `FILE` to check (default: DIR/.terraform.lock.hcl when it exists; - for none)")
	timeout := fs.Duration("timeout", registry.DefaultTimeout, "timeout of each registry request")
	retries := fs.Int("retries", registry.DefaultRetries, "retries of a registry request answered 429 or 5xx")
	format := formatFlag{"text", []string{"text", "markdown", "json"}}
	fs.Var(&format, "format", "output format: text, markdown or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("resolve needs exactly one root module directory, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if fi, err := os.Stat(dir); err != nil {
		return usageError{err}
	} else if !fi.IsDir() {
		return usagef("%s is not a directory", dir)
	}
	if *index != "" && (urls.all != "" || len(urls.hosts) > 0) {
		return usagef("--index and --registry-url cannot be used together")
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}

	cfg, err := loadModuleConfig(e, dir, *configFile)
	if err != nil {
		return err
	}
	if *policy != "" {
		if err := cfg.SetDefault(*policy, moduleconfig.FlagOrigin("--policy "+*policy)); err != nil {
			return usageError{err}
		}
	}
	for _, p := range modulePolicies.pairs {
		if err := cfg.SetModule(p.key, p.value, moduleconfig.FlagOrigin(p.text)); err != nil {
			return usageError{err}
		}
	}
	for _, p := range providerPolicies.pairs {
		if err := cfg.SetProvider(p.key, p.value, moduleconfig.FlagOrigin(p.text)); err != nil {
			return usageError{err}
		}
	}
	var extraPolicies []engine.Policy
	if len(extra) > 0 {
		if extraPolicies, err = e.resolve(extra); err != nil {
			return err
		}
	}

	var src registry.Source
	if *index != "" {
		x, err := registry.LoadIndex(*index)
		if err != nil {
			return usageError{err}
		}
		src = x
	} else {
		r := *retries
		if r == 0 {
			r = -1 // none
		}
		src = &registry.Client{BaseURL: urls.all, HostURLs: urls.hosts, Timeout: *timeout, Retries: r}
	}

	rep, err := resolve.Run(context.Background(), resolve.Options{
		Dir: dir, Config: cfg, Source: src, Registry: e.registry, Extra: extraPolicies, LockFile: *lockFile,
	})
	if err != nil {
		var ce *resolve.ConfigError
		if errors.As(err, &ce) {
			return usagef("%s", configProblems(ce.Problems))
		}
		return usageError{err}
	}
	switch format.value {
	case "json":
		err = resolve.RenderJSON(e.stdout, rep)
	case "markdown":
		err = resolve.RenderMarkdown(e.stdout, rep)
	default:
		err = resolve.RenderText(e.stdout, rep)
	}
	if err != nil {
		return err
	}
	if bad := rep.Errors(); len(bad) > 0 {
		var lines []string
		for _, it := range bad {
			lines = append(lines, fmt.Sprintf("%s %q: %s", it.Kind, it.Name, it.Problem))
		}
		return usagef("the versions of %d of %d items could not be listed:\n  %s", len(bad), len(rep.Items), strings.Join(lines, "\n  "))
	}
	if bad := rep.Unsatisfied(); len(bad) > 0 {
		var lines []string
		for _, it := range bad {
			lines = append(lines, fmt.Sprintf("%s %q (%s): %s", it.Kind, it.Name, posOrImplied(it.Pos), it.Problem))
		}
		return findingError{strings.Join(lines, "\n")}
	}
	return nil
}

func posOrImplied(pos string) string {
	if pos == "" {
		return "implied"
	}
	return pos
}

func configProblems(ps []string) string {
	if len(ps) == 1 {
		return ps[0]
	}
	return fmt.Sprintf("%d problems in the configuration:\n  %s", len(ps), strings.Join(ps, "\n  "))
}

// loadModuleConfig reads --config, or DIR/prerel.hcl when it exists, or
// starts from no settings.
func loadModuleConfig(e *env, dir, path string) (*moduleconfig.Config, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(dir, moduleconfig.DefaultFile)
		if _, err := os.Stat(path); err != nil {
			cfg, err := moduleconfig.New(e.registry)
			if err != nil {
				return nil, usageError{err}
			}
			return cfg, nil
		}
	}
	cfg, err := moduleconfig.Load(e.registry, path)
	if err != nil {
		var es moduleconfig.Errors
		if errors.As(err, &es) {
			ps := make([]string, len(es))
			for i, x := range es {
				ps[i] = x.Error()
			}
			return nil, usagef("%s", configProblems(ps))
		}
		return nil, usageError{err}
	}
	return cfg, nil
}
