package resolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// lookupKey names what a job lists the versions of.
type lookupKey struct {
	kind     Kind
	module   tfaddr.ModulePackage
	provider tfaddr.Provider
}

// job is an item waiting for its versions.
type job struct {
	item   Item
	key    lookupKey
	chosen engine.Policy
	today  today
	// want is the exact version the configuration wants, "" for none.
	want Wanted
	// cool is the minimum release age of the chosen policy, coolFrom
	// where it was set.
	cool     engine.Cooldown
	coolFrom string
}

// collector turns a module tree into jobs, skipped and unread entries,
// and diagnostics.
type collector struct {
	opts   Options
	inst   installers
	rel    func(hcl.Range) string
	report *Report
	jobs   []*job
	diags  hcl.Diagnostics
	// callPaths are every module call's path in the tree.
	callPaths []string
	providers []tfaddr.Provider
}

// collect reads every module call and provider requirement of the tree.
func (c *collector) collect(tree *config.Tree) {
	for _, n := range tree.Nodes {
		for _, call := range n.Module.ModuleCalls {
			c.moduleCall(n, call)
		}
	}
	for _, u := range tree.Unread {
		c.report.Unread = append(c.report.Unread, Unread{Module: u.Address(), Source: u.Call.Source, Pos: c.rel(u.Call.Pos), Reason: u.Reason})
	}
	providers := c.gatherProviders(tree)
	for _, p := range providers {
		c.providerJob(p)
	}
}

// callPath returns the path of a call in module n: call names joined by
// dots.
func callPath(n *config.Node, call *config.ModuleCall) string {
	return strings.Join(append(slices.Clone(n.Path), call.Name), ".")
}

// installerReads reports whether today's Terraform or OpenTofu module
// installer reads a module call's constraint: hashicorp/go-version reads
// versions of four parts ("1.2.3.4"), which the engine's grammar does
// not, and init installs by them.
func (c *collector) installerReads(constraint string) bool {
	for _, p := range []engine.Policy{c.inst.terraformModule, c.inst.opentofuModule} {
		if _, err := p.Compile(constraint); err == nil {
			return true
		}
	}
	return false
}

// moduleCall makes a job of a registry module call, or records why not.
func (c *collector) moduleCall(n *config.Node, call *config.ModuleCall) {
	path := callPath(n, call)
	c.callPaths = append(c.callPaths, path)
	skip := func(reason string) {
		c.report.Skipped = append(c.report.Skipped, Skip{Kind: KindModule, Name: path, Source: call.Source, Pos: c.rel(call.Pos), Reason: reason})
	}
	if call.SourceExpr {
		skip("the source is an expression, which prerel does not evaluate")
		return
	}
	src := address.ParseModuleSource(call.Source)
	switch {
	case src.Kind == address.Local:
		return // read as part of the tree
	case src.Kind == address.Remote:
		skip("not from a registry: " + src.Reason)
		return
	case call.VersionExpr:
		skip(fmt.Sprintf("the version is an expression (%s) that is not static: %s", call.Version, call.VersionNotStatic))
		return
	}
	if _, err := engine.ParseConstraint(call.Version); err != nil && !c.installerReads(call.Version) {
		c.diags = append(c.diags, diag.ErrorAt(call.VersionPos.Ptr(), "Invalid version constraint",
			fmt.Sprintf("module %q: %v", path, err)))
		return
	}
	var notConst []string
	for _, r := range call.VersionFrom {
		if !r.Const {
			notConst = append(notConst, r.Name)
		}
	}
	c.expressionWarnings(path, call)
	if tf, _ := c.opts.releases(); len(notConst) > 0 && tf.AllowsModuleVersionExpressions() {
		c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Subject: call.VersionPos.Ptr(),
			Summary: "Version not constant for Terraform",
			Detail: fmt.Sprintf("module %q: the version %s is made of %s, not declared const = true: OpenTofu evaluates it before init, as prerel does from the defaults, but Terraform 1.15 refuses it.",
				path, call.VersionText, strings.Join(notConst, ", "))})
	}
	choice := c.opts.Config.Module(path)
	req := Requirement{Module: moduleName(n), Constraint: call.Version, Pos: c.rel(call.VersionPos), Range: call.VersionPos}
	c.jobs = append(c.jobs, &job{
		item: Item{Kind: KindModule, Name: path, Source: call.Source, Address: src.Package.String(),
			Constraint: call.Version, ConstraintFrom: c.staticFrom(call.VersionFrom), Requirements: []Requirement{req}, Pos: req.Pos, Range: req.Range,
			Policy: choice.Policy.Name(), PolicyFrom: choice.Origin.String()},
		key:    lookupKey{kind: KindModule, module: src.Package},
		chosen: choice.Policy,
		today:  today{c.inst.terraformModule, c.inst.opentofuModule},
		want:   Wanted{Version: choice.Want, From: choice.WantOrigin.String()},
		cool:   choice.Cooldown(c.opts.now()), coolFrom: choice.CooldownOrigin.String(),
	})
}

// staticFrom names the variables and locals a version expression refers
// to, each with its file and line relative to the root directory:
// "var.major (variables.tf:3), local.v (locals.tf:2)".
func (c *collector) staticFrom(refs []config.StaticRef) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		pos := r.Pos
		pos.Start.Column = 0
		parts[i] = r.Name + " (" + c.rel(pos) + ")"
	}
	return strings.Join(parts, ", ")
}

// providerUse is one provider, gathered over every module that requires
// it.
type providerUse struct {
	addr         tfaddr.Provider
	name, source string
	requirements []Requirement
	constraints  []string
	implied      bool
}

// gatherProviders collects the provider requirements of every module,
// keyed by address, in tree order of first appearance; requirements that
// cannot be looked up are skipped or diagnosed.
func (c *collector) gatherProviders(tree *config.Tree) []*providerUse {
	byAddr := map[tfaddr.Provider]*providerUse{}
	var order []*providerUse
	for _, n := range tree.Nodes {
		for _, p := range n.Module.Providers {
			addr, ok := c.providerAddr(n, p)
			if !ok {
				continue
			}
			u := byAddr[addr]
			if u == nil {
				u = &providerUse{addr: addr, name: p.LocalName, source: providerSource(p), implied: true}
				byAddr[addr] = u
				order = append(order, u)
			}
			u.add(n, p, c.rel)
		}
	}
	return order
}

// providerSource returns the source as written, or the implied one.
func providerSource(p *config.ProviderRequirement) string {
	if p.Source == "" {
		return "hashicorp/" + p.LocalName
	}
	return p.Source
}

// providerAddr reads a requirement's address; false when it is skipped
// or wrong (then recorded).
func (c *collector) providerAddr(n *config.Node, p *config.ProviderRequirement) (tfaddr.Provider, bool) {
	name := p.LocalName
	if len(n.Path) > 0 {
		name = n.Address() + ": " + name
	}
	skip := func(reason string) {
		c.report.Skipped = append(c.report.Skipped, Skip{Kind: KindProvider, Name: name, Source: providerSource(p), Pos: c.rel(p.Pos), Reason: reason})
	}
	if p.Expr != "" {
		skip(fmt.Sprintf("an argument is an expression (%s), which prerel does not evaluate", p.Expr))
		return tfaddr.Provider{}, false
	}
	addr, err := address.ParseProvider(providerSource(p))
	if err != nil {
		c.diags = append(c.diags, diag.ErrorAt(p.Pos.Ptr(), "Invalid provider source", err.Error()))
		return tfaddr.Provider{}, false
	}
	if addr.IsBuiltIn() {
		skip("built-in provider, not installed from a registry")
		return tfaddr.Provider{}, false
	}
	for _, vc := range p.VersionConstraints {
		if _, err := engine.ParseConstraint(vc); err != nil {
			c.diags = append(c.diags, diag.ErrorAt(p.Pos.Ptr(), "Invalid version constraint", fmt.Sprintf("provider %q: %v", p.LocalName, err)))
			return tfaddr.Provider{}, false
		}
	}
	c.providers = append(c.providers, addr)
	return addr, true
}

// add records module n's requirement p.
func (u *providerUse) add(n *config.Node, p *config.ProviderRequirement, rel func(hcl.Range) string) {
	at := p.Pos
	if p.VersionPos.Filename != "" {
		at = p.VersionPos // the constraint itself, for SARIF
	}
	req := Requirement{Module: moduleName(n), Constraint: p.Constraint(), Pos: rel(p.Pos), Range: at}
	u.requirements = append(u.requirements, req)
	if c := p.Constraint(); c != "" {
		u.constraints = append(u.constraints, c)
	}
	u.implied = u.implied && p.Implied
}

// providerJob makes the job of a gathered provider.
func (c *collector) providerJob(u *providerUse) {
	choice := c.opts.Config.Provider(u.addr)
	it := Item{Kind: KindProvider, Name: u.name, Source: u.source, Address: address.ProviderKey(u.addr),
		Constraint: strings.Join(u.constraints, ", "), Requirements: u.requirements,
		Policy: choice.Policy.Name(), PolicyFrom: choice.Origin.String(), Implied: u.implied}
	for _, r := range u.requirements {
		if r.Pos != "" {
			it.Pos, it.Range = r.Pos, r.Range
			break
		}
	}
	c.jobs = append(c.jobs, &job{item: it, key: lookupKey{kind: KindProvider, provider: u.addr},
		chosen: choice.Policy, today: today{c.inst.provider, c.inst.provider},
		want: Wanted{Version: choice.Want, From: choice.WantOrigin.String()},
		cool: choice.Cooldown(c.opts.now()), coolFrom: choice.CooldownOrigin.String()})
}

// checkTargets reports policy settings for module calls and providers
// the tree does not have.
func (c *collector) checkTargets(tree *config.Tree) {
	unread := make([]string, len(tree.Unread))
	for i, u := range tree.Unread {
		unread[i] = u.Key()
	}
	c.diags = append(c.diags, c.opts.Config.CheckTargets(c.callPaths, c.providers, unread)...)
}
