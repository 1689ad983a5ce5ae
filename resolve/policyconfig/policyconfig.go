// Package moduleconfig chooses a prerelease policy per module call and per
// provider of a Terraform/OpenTofu configuration, as a config file and
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
//	provider "hashicorp/aws" {
//	  policy = "strict"
//	}
//
// default_policy is the policy of every module call and provider that no
// block names; without it the default is FallbackPolicy ("strict", what
// Terraform and OpenTofu document). A module block names a module call by
// its name (the label of the configuration's module block); a provider
// block names a provider by its source address, [HOST/]NAMESPACE/TYPE,
// compared as Terraform compares them: case-insensitively, with
// registry.terraform.io the host of an address that names none
// ("hashicorp/aws" and "registry.terraform.io/hashicorp/aws" are the same
// provider). Each is allowed once.
//
// # Validation
//
// Policy names are looked up in an engine.Registry, so that a program's
// own registered policies can be chosen. Every mistake is an *Error with
// the file, line and column (or the flag) it comes from: a syntax error,
// an unknown argument or block, an unknown policy (the message lists the
// known ones), a duplicate block, and, once the configuration's calls are
// known (CheckTargets), an override for a module the configuration does
// not call or a provider it does not require.
//
// # Use
//
// One call per module or provider picks its policy:
//
//	cfg, err := moduleconfig.Load(engine.Default, "prerel.hcl")
//	...
//	p := cfg.Module("vpc").Policy
//
// Set* apply command-line overrides on top of the file: flags win.
package moduleconfig

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/prerel/prerel/engine"
)

// DefaultFile is the conventional name of the config file in a root
// module's directory.
const DefaultFile = "prerel.hcl"

// FallbackPolicy is the policy of everything when neither the file nor a
// flag sets a default: the exact-only rule Terraform and OpenTofu document.
const FallbackPolicy = "strict"

// DefaultProviderHost is the host of a provider source address that names
// none.
const DefaultProviderHost = "registry.terraform.io"

// Origin says where a setting comes from: a place in the config file, or a
// command-line flag, or neither (the built-in fallback).
type Origin struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Flag is the flag as given, for example "--module-policy vpc=cargo".
	Flag string `json:"flag,omitempty"`
}

// String returns "FILE:LINE:COLUMN", the flag, or "built-in default".
func (o Origin) String() string {
	switch {
	case o.Flag != "":
		return o.Flag
	case o.File != "" && o.Line > 0 && o.Column > 0:
		return fmt.Sprintf("%s:%d:%d", o.File, o.Line, o.Column)
	case o.File != "" && o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	case o.File != "":
		return o.File
	default:
		return "built-in default"
	}
}

// FlagOrigin returns the Origin of a command-line flag.
func FlagOrigin(flag string) Origin { return Origin{Flag: flag} }

func rangeOrigin(r hcl.Range) Origin {
	return Origin{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

// Error is one configuration mistake and where it is.
type Error struct {
	Origin Origin
	Msg    string
}

func (e *Error) Error() string {
	if s := e.Origin.String(); e.Origin != (Origin{}) {
		return s + ": " + e.Msg
	}
	return e.Msg
}

// Errors is every mistake found, in file order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

func (es Errors) err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Choice is the policy chosen for a module call or provider and where the
// choice comes from.
type Choice struct {
	Policy engine.Policy
	Origin Origin
	// Override is set when a module or provider block (or flag) chose the
	// policy, rather than the default.
	Override bool
}

type setting struct {
	policy engine.Policy
	origin Origin // where the policy was set
	target Origin // where the module or provider was named
	label  string // the module name or the source as written
}

// Config is a per-module policy configuration bound to a registry. The
// zero value is not usable: use New, Parse or Load.
type Config struct {
	reg       *engine.Registry
	file      string
	def       *setting
	modules   map[string]*setting
	providers map[string]*setting
}

// New returns a configuration with no settings: everything gets the
// fallback policy. It fails when reg has no policy named FallbackPolicy.
func New(reg *engine.Registry) (*Config, error) {
	if reg == nil {
		return nil, errors.New("moduleconfig: nil registry")
	}
	p, ok := reg.Lookup(FallbackPolicy)
	if !ok {
		return nil, fmt.Errorf("moduleconfig: the fallback policy %q is not registered", FallbackPolicy)
	}
	return &Config{
		reg:       reg,
		def:       &setting{policy: p},
		modules:   map[string]*setting{},
		providers: map[string]*setting{},
	}, nil
}

// Load reads and validates the config file at path. A file that cannot be
// read is an error from os; mistakes in it are Errors.
func Load(reg *engine.Registry, path string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(reg, src, path)
}

var (
	fileSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "default_policy"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "module", LabelNames: []string{"name"}},
			{Type: "provider", LabelNames: []string{"source"}},
		},
	}
	blockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "policy", Required: true}}}
)

// Parse reads and validates a config file's contents; filename is used in
// errors. Every mistake is reported, as Errors.
func Parse(reg *engine.Registry, src []byte, filename string) (*Config, error) {
	c, err := New(reg)
	if err != nil {
		return nil, err
	}
	c.file = filename
	var errs Errors
	reported := map[Origin]bool{}
	addDiags := func(diags hcl.Diagnostics) {
		for _, d := range diags {
			if d.Severity != hcl.DiagError {
				continue
			}
			// One error per place: HCL follows "Variables not allowed"
			// with "Unsuitable value type" at the same place.
			if d.Subject != nil {
				o := rangeOrigin(*d.Subject)
				if reported[o] {
					continue
				}
				reported[o] = true
			}
			e := &Error{Msg: d.Summary}
			if d.Detail != "" {
				e.Msg += "; " + d.Detail
			}
			if d.Subject != nil {
				e.Origin = rangeOrigin(*d.Subject)
			} else {
				e.Origin = Origin{File: filename}
			}
			errs = append(errs, e)
		}
	}
	file, diags := hclparse.NewParser().ParseHCL(src, filename)
	addDiags(diags)
	if file == nil || file.Body == nil || diags.HasErrors() {
		return nil, errs
	}
	content, diags := file.Body.Content(fileSchema)
	addDiags(diags)
	if content == nil {
		return nil, errs.err()
	}
	// policyOf decodes a policy attribute; ok is false after an error.
	policyOf := func(a *hcl.Attribute) (string, bool) {
		var name string
		d := gohcl.DecodeExpression(a.Expr, nil, &name)
		addDiags(d)
		return name, !d.HasErrors()
	}
	if a, ok := content.Attributes["default_policy"]; ok {
		if name, ok := policyOf(a); ok {
			if err := c.SetDefault(name, rangeOrigin(a.Expr.Range())); err != nil {
				errs = append(errs, err.(*Error))
			}
		}
	}
	seen := map[string]Origin{}
	for _, b := range content.Blocks {
		bc, diags := b.Body.Content(blockSchema)
		addDiags(diags)
		label := b.Labels[0]
		target := rangeOrigin(b.LabelRanges[0])
		key := label
		if b.Type == "provider" {
			k, err := NormalizeProviderSource(label)
			if err != nil {
				errs = append(errs, &Error{Origin: target, Msg: err.Error()})
				continue
			}
			key = k
		}
		if prev, dup := seen[b.Type+" "+key]; dup {
			errs = append(errs, &Error{Origin: target,
				Msg: fmt.Sprintf("%s %q is already configured at %s", b.Type, label, prev)})
			continue
		}
		seen[b.Type+" "+key] = target
		if bc == nil {
			continue
		}
		a, ok := bc.Attributes["policy"]
		if !ok {
			continue
		}
		name, ok := policyOf(a)
		if !ok {
			continue
		}
		p, err := c.lookup(name, rangeOrigin(a.Expr.Range()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s := &setting{policy: p, origin: rangeOrigin(a.Expr.Range()), target: target, label: label}
		if b.Type == "module" {
			c.modules[key] = s
		} else {
			c.providers[key] = s
		}
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return nil, errs
	}
	return c, nil
}

func sortErrors(errs Errors) {
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].Origin, errs[j].Origin
		if (a.Flag == "") != (b.Flag == "") {
			return a.Flag == "" // the file's errors first, then the flags'
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// lookup finds a policy by name; an unknown one is an *Error at origin
// that lists the known names.
func (c *Config) lookup(name string, origin Origin) (engine.Policy, *Error) {
	if p, ok := c.reg.Lookup(name); ok {
		return p, nil
	}
	known := c.reg.Names()
	sort.Strings(known)
	return nil, &Error{Origin: origin, Msg: fmt.Sprintf("unknown policy %q (known: %s)", name, strings.Join(known, ", "))}
}

// File returns the config file's name, or "" when the configuration was
// not read from a file.
func (c *Config) File() string { return c.file }

// SetDefault sets the default policy, as default_policy or a --policy
// flag does; it replaces an earlier default. An unknown policy is an
// *Error at origin.
func (c *Config) SetDefault(policy string, origin Origin) error {
	p, err := c.lookup(policy, origin)
	if err != nil {
		return err
	}
	c.def = &setting{policy: p, origin: origin}
	return nil
}

// SetModule sets the policy of the module call name, replacing the file's
// setting. An unknown policy or an empty name is an *Error at origin.
func (c *Config) SetModule(name, policy string, origin Origin) error {
	if name == "" {
		return &Error{Origin: origin, Msg: "empty module name"}
	}
	p, err := c.lookup(policy, origin)
	if err != nil {
		return err
	}
	c.modules[name] = &setting{policy: p, origin: origin, target: origin, label: name}
	return nil
}

// SetProvider sets the policy of the provider with the given source
// address, replacing the file's setting. An unknown policy or an invalid
// address is an *Error at origin.
func (c *Config) SetProvider(source, policy string, origin Origin) error {
	key, err := NormalizeProviderSource(source)
	if err != nil {
		return &Error{Origin: origin, Msg: err.Error()}
	}
	p, lerr := c.lookup(policy, origin)
	if lerr != nil {
		return lerr
	}
	c.providers[key] = &setting{policy: p, origin: origin, target: origin, label: source}
	return nil
}

// Default returns the default policy and where it was set.
func (c *Config) Default() Choice {
	return Choice{Policy: c.def.policy, Origin: c.def.origin}
}

// Module returns the policy of the module call name: its own setting, or
// the default.
func (c *Config) Module(name string) Choice {
	if s := c.modules[name]; s != nil {
		return Choice{Policy: s.policy, Origin: s.origin, Override: true}
	}
	return c.Default()
}

// Provider returns the policy of the provider with the given source
// address: its own setting, or the default. An address that
// NormalizeProviderSource refuses gets the default.
func (c *Config) Provider(source string) Choice {
	if key, err := NormalizeProviderSource(source); err == nil {
		if s := c.providers[key]; s != nil {
			return Choice{Policy: s.policy, Origin: s.origin, Override: true}
		}
	}
	return c.Default()
}

// CheckTargets reports every module setting whose name is not among the
// configuration's module calls, and every provider setting whose address
// is not among its provider sources, each at the place it was set. The
// message suggests a close name when there is one.
func (c *Config) CheckTargets(modules, providerSources []string) error {
	var errs Errors
	called := map[string]bool{}
	for _, m := range modules {
		called[m] = true
	}
	for _, name := range sortedKeys(c.modules) {
		if called[name] {
			continue
		}
		s := c.modules[name]
		msg := fmt.Sprintf("module %q is not called by the configuration", name)
		msg += hint(name, modules, "module calls")
		errs = append(errs, &Error{Origin: s.target, Msg: msg})
	}
	required := map[string]bool{}
	var keys []string
	for _, src := range providerSources {
		if k, err := NormalizeProviderSource(src); err == nil {
			required[k] = true
			keys = append(keys, k)
		}
	}
	for _, key := range sortedKeys(c.providers) {
		if required[key] {
			continue
		}
		s := c.providers[key]
		msg := fmt.Sprintf("provider %q is not required by the configuration", s.label)
		msg += hint(key, keys, "required providers")
		errs = append(errs, &Error{Origin: s.target, Msg: msg})
	}
	sortErrors(errs)
	return errs.err()
}

// hint returns a "did you mean" or the list of candidates.
func hint(name string, candidates []string, what string) string {
	if len(candidates) == 0 {
		return " (it has no " + what + ")"
	}
	best, bestD := "", 3
	for _, c := range candidates {
		if d := distance(strings.ToLower(name), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	return fmt.Sprintf(" (%s: %s)", what, strings.Join(sorted, ", "))
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]*setting) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Modules returns the module names that have their own setting, sorted.
func (c *Config) Modules() []string { return sortedKeys(c.modules) }

// Providers returns the normalized provider addresses that have their own
// setting, sorted.
func (c *Config) Providers() []string { return sortedKeys(c.providers) }

// NormalizeProviderSource returns the full, lower-case form of a provider
// source address, HOST/NAMESPACE/TYPE, with DefaultProviderHost for an
// address that names no host and "hashicorp" for a bare TYPE, as
// Terraform implies them. An address of more than three parts, or with an
// empty part or a space, is an error.
func NormalizeProviderSource(source string) (string, error) {
	parts := strings.Split(strings.ToLower(source), "/")
	switch len(parts) {
	case 1:
		parts = []string{DefaultProviderHost, "hashicorp", parts[0]}
	case 2:
		parts = append([]string{DefaultProviderHost}, parts...)
	case 3:
	default:
		return "", fmt.Errorf("provider source %q: expected [HOST/]NAMESPACE/TYPE", source)
	}
	for _, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\r\n") {
			return "", fmt.Errorf("provider source %q: expected [HOST/]NAMESPACE/TYPE", source)
		}
	}
	return strings.Join(parts, "/"), nil
}
