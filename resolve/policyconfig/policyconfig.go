// Package policyconfig chooses a prerelease policy per module call and per
// provider of a Terraform/OpenTofu configuration, as prerel.hcl and
// command-line flags say.
//
// # The file
//
// The file is HCL, prerel.hcl by convention:
//
//	default_policy = "cargo"
//
//	module "vpc" {
//	  policy = "ga-bound"
//	}
//
//	module "eks.node_group" {
//	  policy = "lexical"
//	}
//
//	provider "hashicorp/aws" {
//	  policy = "strict"
//	}
//
//	module "db" {
//	  want = "2.0.0-beta.1"
//	}
//
// default_policy is the policy of every module call and provider that no
// block names; without it the default is FallbackPolicy ("strict", what
// Terraform and OpenTofu document).
//
// A module block names one module call by its call path: the names of
// the module blocks from the root module down, joined by dots, as
// Terraform keys calls in .terraform/modules/modules.json. "vpc" is the
// root module's call module "vpc"; "eks.node_group" is the call
// module "node_group" inside the module that the root's call "eks"
// installs (Terraform's module.eks.module.node_group). A block applies
// to that call only: the calls inside it get the default unless they are
// named themselves.
//
// A provider block names a provider by its source address,
// [HOST/]NAMESPACE/TYPE, read as Terraform reads it (package
// terraform/address): "hashicorp/aws", "aws" and
// "registry.terraform.io/hashicorp/aws" are the same provider. Each module
// and provider is configured once.
//
// A block sets policy, want, or both. want names the exact version to
// install whatever the policy selects (Choice.Want): the user's wish,
// which prerel pin writes as a pin once the registry lists it. Flags set
// it too (SetModuleWant, SetProviderWant), replacing the file's.
//
// # Cooldown
//
// min_age, at the top of the file or in a module or provider block, is a
// minimum release age ("7d", "72h"; engine.ParseMinAge): the policy
// decides on the whole list, then the versions younger than it are held
// back (engine.Cooldown). allow_undated = true lets a version without a
// publication date through, which is otherwise held back. A block's
// setting wins over the top's, each of the two on its own; min_age = "0"
// turns the cooldown off for one module or provider. SetCooldown (the
// --min-age and --allow-undated flags) replaces the top's.
//
// # Validation
//
// Policy names are looked up in an engine.Registry, so that a program's
// own registered policies can be chosen. Every mistake is an
// hcl.Diagnostic with the file, line and column it comes from (a flag's
// mistake has no place; its summary names the flag): a syntax error, an
// unknown argument or block, an unknown policy (the detail lists the
// known ones), a duplicate block, an invalid provider address, and, once
// the configuration's calls are known (CheckTargets), a setting for a
// module call that is not in the tree or a provider that is not required.
// All of them are reported at once.
//
// # Limits
//
// The file must be a regular file of at most 2 MiB (safefile.ConfigLimit)
// that nests at most 1000 levels deep (brackets, braces, parentheses,
// templates and chained operators each count as a level); anything else
// is refused with one diagnostic before it is parsed. LoadDir, which
// looks for prerel.hcl in a root module, skips one that is not a regular
// file (a FIFO, a device) with a warning instead.
//
// # Use
//
//	cfg, diags := policyconfig.Load(reg, "prerel.hcl")
//	...
//	p := cfg.Module("eks.node_group").Policy
//
// Set* apply command-line overrides on top of the file: flags win. Apply
// sets every override a command line gives (Overrides) at once.
package policyconfig

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/suggest"
	"github.com/prerel/prerel/terraform/address"
)

// DefaultFile is the conventional name of the config file in a root
// module's directory.
const DefaultFile = "prerel.hcl"

// FallbackPolicy is the policy of everything when neither the file nor a
// flag sets a default: the exact-only rule Terraform and OpenTofu document.
const FallbackPolicy = "strict"

// Origin says where a setting comes from: a place in the config file, a
// command-line flag, or neither (the built-in fallback).
type Origin struct {
	// Range is the place in the config file; its Filename is "" otherwise.
	Range hcl.Range
	// Flag is the flag as given, for example "--module-policy vpc=cargo".
	Flag string
}

// String returns "FILE:LINE:COLUMN", the flag, or "built-in default".
func (o Origin) String() string {
	switch {
	case o.Flag != "":
		return o.Flag
	case o.Range.Filename != "":
		return fmt.Sprintf("%s:%d:%d", o.Range.Filename, o.Range.Start.Line, o.Range.Start.Column)
	default:
		return "built-in default"
	}
}

// FlagOrigin returns the Origin of a command-line flag.
func FlagOrigin(flag string) Origin { return Origin{Flag: flag} }

// Choice is the policy chosen for a module call or provider and where the
// choice comes from.
type Choice struct {
	Policy engine.Policy
	Origin Origin
	// Override is set when a module or provider block (or flag) chose the
	// policy, rather than the default.
	Override bool
	// Want is the exact version wanted whatever the policy selects, ""
	// for none; WantOrigin is where it was set.
	Want       string
	WantOrigin Origin
	// MinAge is the minimum release age, 0 for none, and AllowUndated
	// whether a version without a date gets through it; CooldownOrigin is
	// where MinAge was set.
	MinAge         time.Duration
	AllowUndated   bool
	CooldownOrigin Origin
}

// Cooldown returns the choice's cooldown counted at now.
func (ch Choice) Cooldown(now time.Time) engine.Cooldown {
	return engine.Cooldown{MinAge: ch.MinAge, Now: now, AllowUndated: ch.AllowUndated}
}

// cooldown is a minimum age and the undated setting, each optional.
type cooldown struct {
	minAge       *time.Duration
	allowUndated *bool
	origin       Origin // where minAge was set
}

// over returns c with the settings of o that are set.
func (c cooldown) over(o cooldown) cooldown {
	if o.minAge != nil {
		c.minAge, c.origin = o.minAge, o.origin
	}
	if o.allowUndated != nil {
		c.allowUndated = o.allowUndated
	}
	return c
}

func (c cooldown) set() bool { return c.minAge != nil || c.allowUndated != nil }

// setting is one module's or provider's policy and wanted version; a
// setting with want alone has no policy and takes the default's.
type setting struct {
	policy     engine.Policy
	origin     Origin // where the policy was set
	target     Origin // where the module or provider was named
	label      string // the call path or the source as written
	want       string
	wantOrigin Origin
	cool       cooldown
}

// Config is a per-module policy configuration bound to a registry. Use
// New, Parse, Load or LoadDir. The zero Config, and a nil *Config, has no
// registry: Default, Module and Provider return a zero Choice (a nil
// Policy from the built-in default), and SetDefault, SetModule and
// SetProvider return an error diagnostic.
type Config struct {
	reg       *engine.Registry
	file      string
	def       setting
	cool      cooldown
	modules   map[string]*setting
	providers map[tfaddr.Provider]*setting
	// warnings are the warnings of reading the file.
	warnings hcl.Diagnostics
}

// New returns a configuration with no settings: everything gets the
// fallback policy. It fails when reg is nil or has no policy named
// FallbackPolicy.
func New(reg *engine.Registry) (*Config, error) {
	if reg == nil {
		return nil, errors.New("policyconfig: nil registry")
	}
	p, ok := reg.Lookup(FallbackPolicy)
	if !ok {
		return nil, fmt.Errorf("policyconfig: the fallback policy %q is not registered", FallbackPolicy)
	}
	return &Config{
		reg:       reg,
		def:       setting{policy: p},
		modules:   map[string]*setting{},
		providers: map[tfaddr.Provider]*setting{},
	}, nil
}

// Load reads and validates the config file at path. A file that cannot be
// read is one diagnostic naming it, with the error as its Extra: one that
// does not exist, cannot be opened, is not a regular file (a FIFO, a
// device) or is larger than 2 MiB (safefile.ConfigLimit).
func Load(reg *engine.Registry, path string) (*Config, hcl.Diagnostics) {
	src, d := hclread.ReadFile(path, "Cannot read the policy configuration")
	if d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return Parse(reg, src, path)
}

// LoadDir reads DefaultFile in the root module directory dir as Load
// does, when there is one; without one, the Config has no settings, as
// from New. A DefaultFile that is not a regular file (a FIFO, a device, a
// directory) is not read either: the Config has no settings and a warning
// says that the file was skipped, in the diagnostics and in Warnings.
func LoadDir(reg *engine.Registry, dir string) (*Config, hcl.Diagnostics) {
	path := filepath.Join(dir, DefaultFile)
	found, diags := hclread.Find(path, "the policy configuration")
	if found {
		return Load(reg, path)
	}
	c, err := New(reg)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: err.Error()}}
	}
	c.warnings = diags
	return c, diags
}

var (
	fileSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "default_policy"}, {Name: "min_age"}, {Name: "allow_undated"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "module", LabelNames: []string{"name"}},
			{Type: "provider", LabelNames: []string{"source"}},
			hclpolicy.BlockHeader,
		},
	}
	blockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "policy"}, {Name: "want"}, {Name: "min_age"}, {Name: "allow_undated"}}}
)

// Parse reads and validates a config file's contents; filename is used in
// diagnostics. Every mistake is reported; the Config is nil when there is
// one. A file nested deeper than 1000 levels is refused with one
// diagnostic before it is parsed.
func Parse(reg *engine.Registry, src []byte, filename string) (*Config, hcl.Diagnostics) {
	c, err := New(reg)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: err.Error()}}
	}
	c.file = filename
	file, diags := hclread.ParseHCL(src, filename)
	if file == nil || file.Body == nil || diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	content, more := file.Body.Content(fileSchema)
	diags = append(diags, more...)
	diags = append(diags, c.addPolicies(file.Body, src, filename)...)
	if content != nil {
		if a, ok := content.Attributes["default_policy"]; ok {
			diags = append(diags, c.readDefault(a)...)
		}
		cool, more := readCooldown(content.Attributes)
		diags = append(diags, more...)
		c.cool = cool
		diags = append(diags, c.readBlocks(content.Blocks)...)
	}
	if diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	c.warnings = diags
	return c, diags
}

// addPolicies decodes the policy blocks of the file (see package
// hclpolicy) and makes c's registry a copy of the one it was given with
// them added. A block with a command is refused: a configuration that
// comes with the repository under review must not run programs.
func (c *Config) addPolicies(body hcl.Body, src []byte, filename string) hcl.Diagnostics {
	refuse := func(name string, _ []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{diag.ErrorAt(&rng, "Command policy not allowed here",
			fmt.Sprintf("The policy %q runs a command; a policy configuration comes with the configuration it configures and may not run programs. Declare command policies with --policy-file or --policy-cmd.", name))}
	}
	ps, diags := hclpolicy.Decode(body, hclpolicy.Options{Sources: map[string][]byte{filename: src}, Command: refuse})
	if len(ps) == 0 || diags.HasErrors() {
		return diags
	}
	if more := hclpolicy.CheckNames(ps, c.reg); more.HasErrors() {
		return append(diags, more...)
	}
	reg := engine.NewRegistry()
	for _, p := range c.reg.All() {
		if err := reg.Register(p); err != nil {
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
		}
	}
	for _, p := range ps {
		if err := reg.Register(p); err != nil {
			return append(diags, diag.ErrorAt(p.NameRange().Ptr(), "Invalid policy", err.Error()))
		}
	}
	c.reg = reg
	return diags
}

// Registry returns the registry c looks policy names up in: the one it
// was made with, and the policies the file declares with policy blocks.
func (c *Config) Registry() *engine.Registry {
	if c == nil {
		return nil
	}
	return c.reg
}

// Warnings returns the warnings of reading the configuration: those Parse
// or LoadDir returned with it.
func (c *Config) Warnings() hcl.Diagnostics {
	if c == nil {
		return nil
	}
	return slices.Clone(c.warnings)
}

// readDefault applies the default_policy attribute.
func (c *Config) readDefault(a *hcl.Attribute) hcl.Diagnostics {
	name, diags := policyName(a)
	if diags.HasErrors() {
		return diags
	}
	return c.SetDefault(name, Origin{Range: a.Expr.Range()})
}

// readBlocks applies the module and provider blocks.
func (c *Config) readBlocks(blocks hcl.Blocks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[blockKey]hcl.Range{}
	for _, b := range blocks {
		if b.Type == hclpolicy.BlockHeader.Type {
			continue // read by addPolicies
		}
		label, target := b.Labels[0], b.LabelRanges[0]
		key, err := c.blockKey(b.Type, label)
		if err != nil {
			diags = append(diags, diag.ErrorAt(target.Ptr(), "Invalid "+b.Type+" "+fmt.Sprintf("%q", label), err.Error()))
			continue
		}
		if prev, dup := seen[key]; dup {
			diags = append(diags, diag.ErrorAt(target.Ptr(), fmt.Sprintf("Duplicate %s block", b.Type),
				fmt.Sprintf("%s %q is already configured at %s.", b.Type, label, Origin{Range: prev})))
			continue
		}
		seen[key] = target
		bc, more := b.Body.Content(blockSchema)
		diags = append(diags, more...)
		if bc == nil {
			continue
		}
		s := &setting{target: Origin{Range: target}, label: label}
		if a := bc.Attributes["policy"]; a != nil {
			name, more := policyName(a)
			diags = append(diags, more...)
			if more.HasErrors() {
				continue
			}
			s.origin = Origin{Range: a.Expr.Range()}
			p, d := c.lookup(name, s.origin)
			if d != nil {
				diags = append(diags, d)
				continue
			}
			s.policy = p
		}
		if a := bc.Attributes["want"]; a != nil {
			v, d := wantedVersion(a)
			if d != nil {
				diags = append(diags, d)
				continue
			}
			s.want, s.wantOrigin = v, Origin{Range: a.Expr.Range()}
		}
		cool, moreCool := readCooldown(bc.Attributes)
		diags = append(diags, moreCool...)
		s.cool = cool
		if s.policy == nil && s.want == "" && !s.cool.set() {
			if !more.HasErrors() && !moreCool.HasErrors() {
				diags = append(diags, diag.ErrorAt(b.DefRange.Ptr(), "Empty "+b.Type+" block",
					fmt.Sprintf("A %s block sets policy (the rule that selects a version), want (the exact version to install), min_age or allow_undated (a cooldown).", b.Type)))
			}
			continue
		}
		c.put(key, s)
	}
	return diags
}

// readCooldown reads min_age and allow_undated among attrs.
func readCooldown(attrs hcl.Attributes) (cooldown, hcl.Diagnostics) {
	var c cooldown
	var diags hcl.Diagnostics
	if a := attrs["min_age"]; a != nil {
		v, d := a.Expr.Value(nil)
		switch {
		case d.HasErrors():
			diags = append(diags, d...)
		case v.IsNull() || !v.IsKnown() || v.Type() != cty.String:
			diags = append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid min_age", `min_age is a minimum release age, a string such as "7d" or "72h".`))
		default:
			age, err := engine.ParseMinAge(v.AsString())
			if err != nil {
				diags = append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid min_age", err.Error()))
				break
			}
			c.minAge, c.origin = &age, Origin{Range: a.Expr.Range()}
		}
	}
	if a := attrs["allow_undated"]; a != nil {
		v, d := a.Expr.Value(nil)
		switch {
		case d.HasErrors():
			diags = append(diags, d...)
		case v.IsNull() || !v.IsKnown() || v.Type() != cty.Bool:
			diags = append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid allow_undated", "allow_undated is true or false."))
		default:
			b := v.True()
			c.allowUndated = &b
		}
	}
	return c, diags
}

// SetCooldown sets the top's minimum age, allow undated versions or
// both (the --min-age and --allow-undated flags), replacing the file's;
// a nil argument leaves its setting as it is.
func (c *Config) SetCooldown(minAge *time.Duration, allowUndated *bool, origin Origin) {
	if c == nil {
		return
	}
	c.cool = c.cool.over(cooldown{minAge: minAge, allowUndated: allowUndated, origin: origin})
}

// Cooldowns reports whether some setting has a minimum age.
func (c *Config) Cooldowns() bool {
	if c == nil {
		return false
	}
	if c.cool.minAge != nil && *c.cool.minAge > 0 {
		return true
	}
	for _, s := range c.modules {
		if s.cool.minAge != nil && *s.cool.minAge > 0 {
			return true
		}
	}
	for _, s := range c.providers {
		if s.cool.minAge != nil && *s.cool.minAge > 0 {
			return true
		}
	}
	return false
}

// maxWant bounds a wanted version's length.
const maxWant = 256

// wantedVersion reads a want attribute: a version, one string without
// spaces or control characters.
func wantedVersion(a *hcl.Attribute) (string, *hcl.Diagnostic) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags[0]
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid want", `want is the exact version to install, a string such as "2.0.0-beta.1".`)
	}
	if err := checkWant(v.AsString()); err != nil {
		return "", diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid want", err.Error())
	}
	return v.AsString(), nil
}

// checkWant checks a wanted version: not empty, at most maxWant bytes,
// no spaces, no control characters, no operator.
func checkWant(v string) error {
	switch {
	case v == "":
		return errors.New(`want is the exact version to install, such as "2.0.0-beta.1"; it is empty`)
	case len(v) > maxWant:
		return fmt.Errorf("want is a version, at most %d bytes; this one is %d", maxWant, len(v))
	case strings.ContainsAny(v, "=<>~!,^ \t"):
		return fmt.Errorf("want is one exact version, such as \"2.0.0-beta.1\", not a constraint: %q", v)
	}
	for _, r := range v {
		if r < ' ' || r == 0x7f {
			return fmt.Errorf("want holds a control character: %q", v)
		}
	}
	return nil
}

// blockKey names what a module or provider block configures.
type blockKey struct {
	module   string
	provider tfaddr.Provider
}

func (c *Config) blockKey(kind, label string) (blockKey, error) {
	if kind == "module" {
		return blockKey{module: label}, checkCallPath(label)
	}
	p, err := address.ParseProvider(label)
	return blockKey{provider: p}, err
}

func (c *Config) put(k blockKey, s *setting) {
	if k.module != "" {
		c.modules[k.module] = s
	} else {
		c.providers[k.provider] = s
	}
}

// checkCallPath checks that path is call names joined by dots.
func checkCallPath(path string) error {
	if strings.HasPrefix(path, "module.") {
		return fmt.Errorf("write the call path as call names joined by dots, as in %q", strings.ReplaceAll(strings.TrimPrefix(path, "module."), ".module.", "."))
	}
	for _, name := range strings.Split(path, ".") {
		if !hclIdentifier(name) {
			return fmt.Errorf("%q is not a module call name (a call path is call names joined by dots, such as \"eks.node_group\")", name)
		}
	}
	return nil
}

// hclIdentifier reports whether s can name a module block: a letter or
// underscore, then letters, digits, underscores and dashes.
func hclIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r == '-' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// policyName reads a policy attribute: a string, the policy's name.
func policyName(a *hcl.Attribute) (string, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		what := "null"
		if !v.IsNull() {
			what = v.Type().FriendlyName()
			if strings.ContainsRune("aeiou", rune(what[0])) {
				what = "an " + what
			} else {
				what = "a " + what
			}
		}
		return "", hcl.Diagnostics{diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid policy",
			fmt.Sprintf("A policy is a string naming it, such as %q; this is %s.", FallbackPolicy, what))}
	}
	return v.AsString(), nil
}

// lookup finds a policy by name; an unknown one is a diagnostic at origin
// that lists the known names.
func (c *Config) lookup(name string, origin Origin) (engine.Policy, *hcl.Diagnostic) {
	if c == nil || c.reg == nil {
		return nil, diagAt(origin, fmt.Sprintf("Cannot set the policy %q", name),
			"The configuration has no policy registry: make it with policyconfig.New, Parse or Load.")
	}
	if p, ok := c.reg.Lookup(name); ok {
		return p, nil
	}
	known := slices.Sorted(slices.Values(c.reg.Names()))
	detail := "Known policies: " + strings.Join(known, ", ") + "."
	if best := suggest.Closest(name, known); best != "" {
		detail = fmt.Sprintf("Did you mean %q? ('prerel policies' lists all %d.)", best, len(known))
	}
	return nil, diagAt(origin, fmt.Sprintf("Unknown policy %q", name), detail)
}

// diagAt returns an error diagnostic at origin: with its range in the
// file, or with the flag before the summary.
func diagAt(origin Origin, summary, detail string) *hcl.Diagnostic {
	if origin.Flag != "" {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: origin.Flag + ": " + summary, Detail: detail}
	}
	if origin.Range.Filename == "" {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	}
	return diag.ErrorAt(origin.Range.Ptr(), summary, detail)
}

// File returns the config file's name, or "" when the configuration was
// not read from a file.
func (c *Config) File() string { return c.file }

// SetDefault sets the default policy, as default_policy or a --policy
// flag does; it replaces an earlier default. An unknown policy is a
// diagnostic at origin, and so is every policy when c has no registry
// (a zero or nil Config).
func (c *Config) SetDefault(policy string, origin Origin) hcl.Diagnostics {
	p, d := c.lookup(policy, origin)
	if d != nil {
		return hcl.Diagnostics{d}
	}
	c.def = setting{policy: p, origin: origin}
	return nil
}

// SetModule sets the policy of the module call at callPath (call names
// joined by dots), replacing the file's setting. An unknown policy or a
// malformed call path is a diagnostic at origin.
func (c *Config) SetModule(callPath, policy string, origin Origin) hcl.Diagnostics {
	if err := checkCallPath(callPath); err != nil {
		return hcl.Diagnostics{diagAt(origin, fmt.Sprintf("Invalid module %q", callPath), err.Error())}
	}
	p, d := c.lookup(policy, origin)
	if d != nil {
		return hcl.Diagnostics{d}
	}
	c.modules[callPath] = &setting{policy: p, origin: origin, target: origin, label: callPath}
	return nil
}

// SetProvider sets the policy of the provider with the given source
// address, replacing the file's setting. An unknown policy or an invalid
// address is a diagnostic at origin.
func (c *Config) SetProvider(source, policy string, origin Origin) hcl.Diagnostics {
	addr, err := address.ParseProvider(source)
	if err != nil {
		return hcl.Diagnostics{diagAt(origin, fmt.Sprintf("Invalid provider %q", source), err.Error())}
	}
	p, d := c.lookup(policy, origin)
	if d != nil {
		return hcl.Diagnostics{d}
	}
	c.providers[addr] = &setting{policy: p, origin: origin, target: origin, label: source}
	return nil
}

// SetModuleWant sets the version wanted for the module call at callPath,
// replacing the file's (a --want flag); the policy setting stays. A
// malformed call path or version is a diagnostic at origin.
func (c *Config) SetModuleWant(callPath, version string, origin Origin) hcl.Diagnostics {
	if err := checkCallPath(callPath); err != nil {
		return hcl.Diagnostics{diagAt(origin, fmt.Sprintf("Invalid module %q", callPath), err.Error())}
	}
	return c.setWant(blockKey{module: callPath}, callPath, version, origin)
}

// SetProviderWant sets the version wanted for the provider with the given
// source address, replacing the file's; the policy setting stays.
func (c *Config) SetProviderWant(source, version string, origin Origin) hcl.Diagnostics {
	addr, err := address.ParseProvider(source)
	if err != nil {
		return hcl.Diagnostics{diagAt(origin, fmt.Sprintf("Invalid provider %q", source), err.Error())}
	}
	return c.setWant(blockKey{provider: addr}, source, version, origin)
}

func (c *Config) setWant(k blockKey, label, version string, origin Origin) hcl.Diagnostics {
	if c == nil || c.reg == nil {
		return hcl.Diagnostics{diagAt(origin, "Cannot set a wanted version", "The configuration has no policy registry: make it with policyconfig.New, Parse or Load.")}
	}
	if err := checkWant(version); err != nil {
		return hcl.Diagnostics{diagAt(origin, "Invalid want", err.Error())}
	}
	var s *setting
	if k.module != "" {
		s = c.modules[k.module]
	} else {
		s = c.providers[k.provider]
	}
	if s == nil {
		s = &setting{target: origin, label: label}
		c.put(k, s)
	}
	s.want, s.wantOrigin = version, origin
	return nil
}

// Default returns the default policy and where it was set; a zero Choice
// for a nil c.
func (c *Config) Default() Choice {
	if c == nil {
		return Choice{}
	}
	return withCooldown(Choice{Policy: c.def.policy, Origin: c.def.origin}, c.cool)
}

// withCooldown fills in ch's cooldown from cool.
func withCooldown(ch Choice, cool cooldown) Choice {
	if cool.minAge != nil {
		ch.MinAge, ch.CooldownOrigin = *cool.minAge, cool.origin
	}
	if cool.allowUndated != nil {
		ch.AllowUndated = *cool.allowUndated
	}
	return ch
}

// Module returns the policy of the module call at callPath ("vpc",
// "eks.node_group"): its own setting, or the default; a zero Choice for a
// nil c.
func (c *Config) Module(callPath string) Choice {
	if c == nil {
		return Choice{}
	}
	return c.choice(c.modules[callPath])
}

// choice returns the Choice of a setting: its policy, or the default's
// when it sets want alone.
func (c *Config) choice(s *setting) Choice {
	if s == nil {
		return c.Default()
	}
	ch := Choice{Policy: s.policy, Origin: s.origin, Override: true, Want: s.want, WantOrigin: s.wantOrigin}
	if s.policy == nil {
		d := c.Default()
		ch.Policy, ch.Origin, ch.Override = d.Policy, d.Origin, false
	}
	return withCooldown(ch, c.cool.over(s.cool))
}

// Provider returns the policy of the provider addr: its own setting, or
// the default; a zero Choice for a nil c.
func (c *Config) Provider(addr tfaddr.Provider) Choice {
	if c == nil {
		return Choice{}
	}
	return c.choice(c.providers[addr])
}

// CheckTargets reports every module setting whose call path is not among
// the configuration's calls, and every provider setting whose address is
// not among its required providers, each at the place it was set, with a
// close name when there is one. A setting below a call whose module was
// not read (a call path in unread, such as "eks" for "eks.node_group")
// cannot be checked: it is a warning that names the unread module.
func (c *Config) CheckTargets(callPaths []string, providers []tfaddr.Provider, unread []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, path := range slices.Sorted(maps.Keys(c.modules)) {
		if slices.Contains(callPaths, path) {
			continue
		}
		s := c.modules[path]
		if i := slices.IndexFunc(unread, func(u string) bool { return strings.HasPrefix(path, u+".") }); i >= 0 {
			d := diagAt(s.target, fmt.Sprintf("The policy for module %q is not checked", path),
				fmt.Sprintf("The module the call %q installs was not read, so its calls are not known.", unread[i]))
			d.Severity = hcl.DiagWarning
			diags = append(diags, d)
			continue
		}
		diags = append(diags, diagAt(s.target, fmt.Sprintf("No module call %q in the configuration", path),
			hint(path, callPaths, "module calls")))
	}
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.ForDisplay()
	}
	for _, s := range c.sortedProviders() {
		addr, _ := address.ParseProvider(s.label)
		if slices.Contains(providers, addr) {
			continue
		}
		diags = append(diags, diagAt(s.target, fmt.Sprintf("Provider %q is not required by the configuration", s.label),
			hint(addr.ForDisplay(), names, "required providers")))
	}
	return diags
}

func (c *Config) sortedProviders() []*setting {
	out := slices.Collect(maps.Values(c.providers))
	slices.SortFunc(out, func(a, b *setting) int { return strings.Compare(a.label, b.label) })
	return out
}

// hint returns a "did you mean" or the list of candidates.
func hint(name string, candidates []string, what string) string {
	if len(candidates) == 0 {
		return "The configuration has no " + what + "."
	}
	if best := suggest.Closest(name, candidates); best != "" {
		return fmt.Sprintf("Did you mean %q?", best)
	}
	const shown = 10
	sorted := slices.Sorted(slices.Values(candidates))
	if len(sorted) > shown {
		return fmt.Sprintf("Its %s: %s and %d more.", what, strings.Join(sorted[:shown], ", "), len(sorted)-shown)
	}
	return fmt.Sprintf("Its %s: %s.", what, strings.Join(sorted, ", "))
}

// Modules returns the call paths that have their own setting, sorted.
func (c *Config) Modules() []string { return slices.Sorted(maps.Keys(c.modules)) }
