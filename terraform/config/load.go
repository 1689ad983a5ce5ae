package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	inspect "github.com/hashicorp/terraform-config-inspect/tfconfig"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
)

// Module is what prerel needs of a root module: its module calls and its
// required providers.
type Module struct {
	// Dir is the directory as given to Load.
	Dir string
	// Files are the configuration files read, in the order read (primary
	// files by name, then override files by name).
	Files []string
	// ModuleCalls are the module blocks, sorted by name.
	ModuleCalls []*ModuleCall
	// Providers are the required providers, sorted by local name.
	Providers []*ProviderRequirement
	// RequiredCore are the required_version arguments of the terraform
	// blocks; an override file's replace the primary files'.
	RequiredCore []string
	// CoreRequirements are the requirements on Terraform's or OpenTofu's
	// own version, with their places and the files they are in:
	// terraform { required_version } and OpenTofu's language {
	// compatible_with { opentofu } }. Which a release reads, package
	// terraform/installer says.
	CoreRequirements []CoreRequirement
	// tofu is set when a .tofu or .tofu.json file was read.
	tofu bool
}

// ModuleCall is one module block.
type ModuleCall struct {
	Name string
	// Source is the source argument; when SourceExpr is set it is the
	// expression's text, which prerel does not evaluate.
	Source     string
	SourceExpr bool
	// Version is the version argument, "" when there is none (HasVersion
	// false). A version written as an expression is evaluated as
	// Terraform 1.15 and OpenTofu 1.8 evaluate it before init (see
	// StaticRef): Version is then its value, VersionFrom what it was made
	// of. When that cannot be done, VersionExpr is set, Version is the
	// expression's text and VersionNotStatic says why.
	Version     string
	HasVersion  bool
	VersionExpr bool
	// VersionText is the version argument's expression as written when
	// it is not a literal string ("var.major"), "" otherwise.
	VersionText string
	// VersionFrom are the variables and locals the version expression
	// refers to directly, in the order written.
	VersionFrom []StaticRef
	// VersionNotStatic says why the version expression could not be
	// evaluated, when VersionExpr is set.
	VersionNotStatic string
	// Pos is the place of the block's header; VersionPos the version
	// argument's value (the block's header when there is none).
	Pos        hcl.Range
	VersionPos hcl.Range
}

// ProviderRequirement is one entry of required_providers, merged over
// every terraform block as Terraform merges them, or a provider only
// implied by resources.
type ProviderRequirement struct {
	// LocalName is the name the module uses for the provider.
	LocalName string
	// Source is the source argument as written; "" when there is none
	// (Terraform then implies hashicorp/LOCALNAME).
	Source string
	// VersionConstraints are the version arguments, one per entry that
	// has one; Terraform intersects them.
	VersionConstraints []string
	// Expr is the text of the first source or version argument that is an
	// expression rather than a literal string, which prerel does not
	// evaluate; "" when all are literal.
	Expr string
	// ConfigurationAliases are the configuration_aliases argument's
	// entries as written ("aws.east").
	ConfigurationAliases []string
	// Implied is set for a provider that no required_providers entry
	// names but some resource or data block uses.
	Implied bool
	// Pos is the place of the first required_providers entry's name; the
	// zero hcl.Range (no file name) for an implied provider.
	Pos hcl.Range
	// VersionPos is the place of the first version argument's value; the
	// zero hcl.Range when no entry has one.
	VersionPos hcl.Range
}

// Constraint returns the version constraints joined with ", ": the
// constraint Terraform applies ("" when there is none).
func (p *ProviderRequirement) Constraint() string {
	return strings.Join(p.VersionConstraints, ", ")
}

// Load reads the Terraform/OpenTofu root module in dir: the .tf, .tf.json,
// .tofu and .tofu.json files, with OpenTofu's rule that NAME.tofu (or
// NAME.tofu.json) takes the place of NAME.tf (NAME.tf.json), and override
// files (override.tf, NAME_override.tf) read after the primary files.
// Hidden files and editor backups are skipped, as Terraform skips them.
// So is a file by one of those names that is not a regular file (a FIFO,
// a device, a directory), with a warning diagnostic; a file larger than
// 2 MiB (safefile.ConfigLimit) is an error, and so is configuration past
// MaxConfigBytes in all.
//
// Each file's nesting is measured first: a file nested deeper than 1000
// levels (brackets, braces, parentheses, templates, chained operators;
// see internal/hclread) is refused with one error diagnostic at the
// expression, before the parser can exhaust the stack. Then it is parsed
// with the HCL parser and handed to hashicorp/terraform-config-inspect,
// whose diagnostics come back with file, line and column. This reader
// adds what that package does not report: .tofu files, the places of
// required_providers entries, which arguments are expressions rather than
// literal strings, module blocks without a source, and duplicate module
// calls. Of a file with syntax errors, only its warnings are added: its
// other errors would repeat the syntax errors.
//
// The Module is returned even when there are errors, with what could be
// read; callers should stop on hcl.Diagnostics.HasErrors. Load reads one
// directory; LoadTree follows the module calls.
func Load(dir string) (*Module, hcl.Diagnostics) {
	budget := maxConfigBytes
	return load(dir, &budget, fileOptions{})
}

// MaxConfigBytes bounds how much configuration is read: Load reads at
// most this many bytes of configuration files in its directory, LoadTree
// in the whole tree. The file that passes the limit is an error
// diagnostic, and nothing more is read. Each file may be at most 2 MiB
// long (safefile.ConfigLimit).
const MaxConfigBytes = 32 << 20

// MaxNesting is how deep a configuration file may nest: brackets,
// braces, parentheses, templates and the operators chained in one
// expression each count as a level. A deeper file is refused before it
// is parsed.
const MaxNesting = hclread.MaxNesting

// maxConfigBytes is MaxConfigBytes, lowered by tests.
var maxConfigBytes int64 = MaxConfigBytes

// load is Load, reading at most *budget bytes and taking what it reads
// from *budget. Once the budget is spent, it reads nothing. A file for
// whose path opts.skip (when not nil) returns true is not read; with
// opts.terraform, .tofu files are not read (see TreeOptions.Terraform).
func load(dir string, budget *int64, opts fileOptions) (*Module, hcl.Diagnostics) {
	skip := opts.skip
	m := &Module{Dir: dir}
	if *budget < 0 {
		return m, nil
	}
	files, diags := configFiles(dir, opts.terraform)
	if diags.HasErrors() {
		return m, diags
	}
	mod := inspect.NewModule(dir)
	ex := &extras{calls: map[string]*callInfo{}, providers: map[string]*providerInfo{},
		scope: &staticScope{vars: map[string]*staticVar{}, locals: map[string]*staticLocal{}}}
	skipped := false
	for _, f := range files {
		if skip != nil && skip(f.path) {
			continue
		}
		src, err := safefile.Read(f.path, safefile.ConfigLimit)
		var nr *safefile.NotRegularError
		if errors.As(err, &nr) {
			diags = append(diags, hclread.Skipped(f.path, "a configuration file", nr.Mode))
			skipped = true
			continue
		}
		if err != nil {
			diags = append(diags, hclread.ReadError(f.path, "Cannot read file", err))
			continue
		}
		if *budget -= int64(len(src)); *budget < 0 {
			diags = append(diags, diag.ErrorAt(&hcl.Range{Filename: f.path}, "Configuration too large",
				fmt.Sprintf("The configuration files read, this one included, are larger than %s in all, the limit; the rest are not read.", safefile.Size(maxConfigBytes))))
			break
		}
		m.Files = append(m.Files, f.path)
		m.tofu = m.tofu || f.tofu
		var file *hcl.File
		var hdiags hcl.Diagnostics
		if f.json {
			file, hdiags = hclread.ParseJSON(src, f.path)
		} else {
			file, hdiags = hclread.ParseHCL(src, f.path)
		}
		diags = append(diags, hdiags...)
		if file == nil || file.Body == nil {
			continue
		}
		var more hcl.Diagnostics
		if f.override {
			// An override file is read on its own and merged as
			// Terraform merges it (mergeOverride), not as
			// terraform-config-inspect merges files.
			ov := inspect.NewModule(dir)
			more = append(inspectFile(file, f.path, ov), ex.read(file, f.override)...)
			more = append(more, mergeOverride(mod, ov, file)...)
		} else {
			more = append(inspectFile(file, f.path, mod), ex.read(file, f.override)...)
		}
		if hdiags.HasErrors() {
			// What is read of a file with syntax errors is incomplete:
			// errors about it (a block without its arguments, a value of
			// the wrong type) would only repeat the syntax errors.
			more = warningsOnly(more)
		}
		diags = append(diags, more...)
	}
	if len(m.Files) == 0 && !diags.HasErrors() {
		detail := fmt.Sprintf("%s has no .tf, .tf.json, .tofu or .tofu.json files", dir)
		if skipped {
			detail += " that are regular files"
		}
		diags = append(diags, diag.ErrorAt(nil, "No configuration files", detail))
	}
	m.build(mod, ex)
	return m, diag.Dedupe(diags)
}

// warningsOnly returns the warnings among diags.
func warningsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

type configFile struct {
	path     string
	json     bool
	override bool
	tofu     bool
}

// fileOptions say which files of a module directory load reads.
type fileOptions struct {
	skip      func(string) bool
	terraform bool
}

// configFiles lists dir's configuration files in reading order: as
// OpenTofu lists them, or with terraform set as Terraform does, without
// .tofu and .tofu.json files.
func configFiles(dir string, terraform bool) ([]configFile, hcl.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the module directory", Detail: err.Error(), Extra: err}}
	}
	type cand struct {
		name, stem string
		tofu, json bool
	}
	var cands []cand
	tofuStems := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
			strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#") {
			continue
		}
		var c cand
		switch {
		case strings.HasSuffix(name, ".tofu.json"):
			c = cand{name, strings.TrimSuffix(name, ".tofu.json"), true, true}
		case strings.HasSuffix(name, ".tofu"):
			c = cand{name, strings.TrimSuffix(name, ".tofu"), true, false}
		case strings.HasSuffix(name, ".tf.json"):
			c = cand{name, strings.TrimSuffix(name, ".tf.json"), false, true}
		case strings.HasSuffix(name, ".tf"):
			c = cand{name, strings.TrimSuffix(name, ".tf"), false, false}
		default:
			continue
		}
		if c.tofu && terraform {
			continue
		}
		if c.tofu {
			tofuStems[stemKey(c.stem, c.json)] = true
		}
		cands = append(cands, c)
	}
	var primary, override []configFile
	for _, c := range cands {
		if !c.tofu && tofuStems[stemKey(c.stem, c.json)] {
			continue // NAME.tofu replaces NAME.tf
		}
		f := configFile{path: filepath.Join(dir, c.name), json: c.json, tofu: c.tofu}
		if c.stem == "override" || strings.HasSuffix(c.stem, "_override") {
			f.override = true
			override = append(override, f)
		} else {
			primary = append(primary, f)
		}
	}
	byPath := func(fs []configFile) {
		sort.Slice(fs, func(i, j int) bool { return fs[i].path < fs[j].path })
	}
	byPath(primary)
	byPath(override)
	return append(primary, override...), nil
}

func stemKey(stem string, json bool) string {
	if json {
		return stem + ".json"
	}
	return stem
}

// inspectFile runs terraform-config-inspect on one parsed file. A panic in
// it is reported as an error diagnostic for the file.
func inspectFile(file *hcl.File, filename string, mod *inspect.Module) (diags hcl.Diagnostics) {
	defer func() {
		if p := recover(); p != nil {
			diags = append(diags, diag.ErrorAt(&hcl.Range{Filename: filename}, "Unreadable configuration",
				fmt.Sprintf("terraform-config-inspect failed on this file: %v", p)))
		}
	}()
	return inspect.LoadModuleFromFile(file, mod)
}

// extras is what this reader collects beside terraform-config-inspect.
type extras struct {
	calls     map[string]*callInfo
	providers map[string]*providerInfo
	// core are the requirements on the program's own version, in the
	// order read.
	core []CoreRequirement
	// scope holds the variables and locals a version expression may
	// refer to.
	scope *staticScope
}

type callInfo struct {
	pos                    hcl.Range
	sourceExpr             bool
	hasVersion, versionExp bool
	versionPos             hcl.Range
	versionExpr            hcl.Expression // the version argument when it is an expression
	versionText            string
	primary                bool
}

type providerInfo struct {
	pos        hcl.Range
	versionPos hcl.Range
	expr       string
}

var (
	extrasRootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "language"},
	}}
	extrasTerraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}},
		Attributes: []hcl.AttributeSchema{{Name: "required_version"}}}
	extrasModuleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "version"}}}
)

// read collects module call and provider places from one file. The
// errors it reports are the ones terraform-config-inspect does not.
func (ex *extras) read(file *hcl.File, override bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	content, _, _ := file.Body.PartialContent(extrasRootSchema)
	if content == nil {
		return nil
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "module":
			diags = append(diags, ex.readModule(b, file, override)...)
		case "variable":
			ex.scope.readVariable(b)
		case "locals":
			ex.scope.readLocals(b)
		case "language":
			ex.readLanguage(b, override)
		case "terraform":
			tc, _, _ := b.Body.PartialContent(extrasTerraformSchema)
			if tc == nil {
				continue
			}
			ex.readRequiredVersion(tc, override)
			for _, rp := range tc.Blocks {
				ex.readRequiredProviders(rp, file, override)
			}
		}
	}
	return diags
}

func (ex *extras) readModule(b *hcl.Block, file *hcl.File, override bool) hcl.Diagnostics {
	name := b.Labels[0]
	mc, _, _ := b.Body.PartialContent(extrasModuleSchema)
	if mc == nil {
		return nil
	}
	prev := ex.calls[name]
	if prev != nil && prev.primary && !override {
		return hcl.Diagnostics{diag.ErrorAt(&b.DefRange, "Duplicate module call",
			fmt.Sprintf("A module call named %q was already declared at %s. Module calls must have unique names within a module.", name, diag.FormatRange(prev.pos)))}
	}
	ci := prev
	if ci == nil {
		ci = &callInfo{pos: b.DefRange, versionPos: b.DefRange, primary: !override}
		ex.calls[name] = ci
	}
	src, hasSource := mc.Attributes["source"]
	if hasSource {
		ci.sourceExpr = len(src.Expr.Variables()) > 0
	}
	if v, ok := mc.Attributes["version"]; ok {
		ci.hasVersion = true
		ci.versionExp = len(v.Expr.Variables()) > 0
		ci.versionPos = v.Expr.Range()
		ci.versionExpr, ci.versionText = nil, ""
		if ci.versionExp {
			ci.versionExpr, ci.versionText = v.Expr, exprText(v.Expr, file)
		}
	}
	if !hasSource && prev == nil && !override {
		return hcl.Diagnostics{diag.ErrorAt(&b.DefRange, "Missing required argument",
			fmt.Sprintf("The module call %q has no source argument.", name))}
	}
	return nil
}

// readRequiredProviders records the place of each entry of a
// required_providers block and its first argument that is an
// expression. An override file's entry replaces the entry read before,
// as Terraform replaces it whole.
func (ex *extras) readRequiredProviders(b *hcl.Block, file *hcl.File, override bool) {
	attrs, _ := b.Body.JustAttributes()
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := attrs[n]
		pi := ex.providers[n]
		if pi == nil || override {
			pi = &providerInfo{pos: a.NameRange}
			ex.providers[n] = pi
		}
		if pi.expr != "" {
			continue
		}
		kvs, d := hcl.ExprMap(a.Expr)
		if d.HasErrors() {
			// Not an object: the legacy "NAME = VERSION" form.
			if len(a.Expr.Variables()) > 0 {
				pi.expr = exprText(a.Expr, file)
			}
			if pi.versionPos.Filename == "" {
				pi.versionPos = a.Expr.Range()
			}
			continue
		}
		for _, kv := range kvs {
			if hcl.ExprAsKeyword(kv.Key) == "version" && pi.versionPos.Filename == "" {
				pi.versionPos = kv.Value.Range()
			}
		}
		for _, kv := range kvs {
			if hcl.ExprAsKeyword(kv.Key) == "configuration_aliases" {
				continue // references to provider configurations, not an expression to evaluate
			}
			if len(kv.Value.Variables()) > 0 {
				pi.expr = exprText(kv.Value, file)
				break
			}
		}
	}
}

func exprText(e hcl.Expression, file *hcl.File) string {
	return string(e.Range().SliceBytes(file.Bytes))
}

// build turns terraform-config-inspect's module and the extras into m.
func (m *Module) build(mod *inspect.Module, ex *extras) {
	m.RequiredCore = append([]string(nil), mod.RequiredCore...)
	m.CoreRequirements = ex.coreRequirements()
	for name, c := range mod.ModuleCalls {
		mc := &ModuleCall{Name: name, Source: c.Source, Version: c.Version,
			Pos: hcl.Range{Filename: c.Pos.Filename, Start: hcl.Pos{Line: c.Pos.Line}}}
		mc.Pos.End = mc.Pos.Start
		mc.VersionPos = mc.Pos
		if ci := ex.calls[name]; ci != nil {
			mc.Pos = ci.pos
			mc.SourceExpr = ci.sourceExpr
			mc.HasVersion, mc.VersionExpr = ci.hasVersion, ci.versionExp
			mc.VersionPos = ci.versionPos
			if ci.versionExpr != nil {
				mc.VersionText = ci.versionText
				v, from, err := ex.scope.version(ci.versionExpr)
				mc.VersionFrom = from
				if err != nil {
					mc.VersionNotStatic = err.Error()
				} else {
					mc.Version, mc.VersionExpr = v, false
				}
			}
		} else {
			mc.HasVersion = c.Version != ""
		}
		m.ModuleCalls = append(m.ModuleCalls, mc)
	}
	sort.Slice(m.ModuleCalls, func(i, j int) bool { return m.ModuleCalls[i].Name < m.ModuleCalls[j].Name })
	// Providers used by resources without a required_providers entry, as
	// terraform-config-inspect's LoadModule adds them.
	for _, rs := range []map[string]*inspect.Resource{mod.ManagedResources, mod.DataResources} {
		for _, r := range rs {
			if _, ok := mod.RequiredProviders[r.Provider.Name]; !ok && r.Provider.Name != "" {
				mod.RequiredProviders[r.Provider.Name] = &inspect.ProviderRequirement{}
			}
		}
	}
	for name, r := range mod.RequiredProviders {
		if r == nil {
			continue
		}
		pr := &ProviderRequirement{LocalName: name, Source: r.Source,
			VersionConstraints: append([]string(nil), r.VersionConstraints...)}
		for _, a := range r.ConfigurationAliases {
			ref := a.Name
			if a.Alias != "" {
				ref += "." + a.Alias
			}
			pr.ConfigurationAliases = append(pr.ConfigurationAliases, ref)
		}
		if pi := ex.providers[name]; pi != nil {
			pr.Pos, pr.VersionPos = pi.pos, pi.versionPos
			pr.Expr = pi.expr
		} else {
			pr.Implied = true
		}
		m.Providers = append(m.Providers, pr)
	}
	sort.Slice(m.Providers, func(i, j int) bool { return m.Providers[i].LocalName < m.Providers[j].LocalName })
}

// ModuleNames returns the names of the module calls, sorted.
func (m *Module) ModuleNames() []string {
	out := make([]string, len(m.ModuleCalls))
	for i, c := range m.ModuleCalls {
		out[i] = c.Name
	}
	return out
}

// mergeOverride merges what terraform-config-inspect read of one override
// file (ov) into what it read of the files before (mod), as Terraform
// merges an override file:
//
//   - a module call's arguments are merged one by one: source and
//     version replace the call's when the override sets them; an
//     override of a call no file before declares is an error;
//   - a required_providers entry replaces the entry of the same name
//     whole (source, version and configuration_aliases), so that an
//     entry without a source stands for hashicorp/NAME again;
//   - terraform { required_version } replaces the one before;
//   - resources and data sources the files before do not declare are
//     added (their providers may be implied).
func mergeOverride(mod, ov *inspect.Module, file *hcl.File) hcl.Diagnostics {
	var diags hcl.Diagnostics
	content, _, _ := file.Body.PartialContent(extrasRootSchema)
	if content != nil {
		for _, b := range content.Blocks {
			if b.Type != "module" {
				continue
			}
			name := b.Labels[0]
			mc, ok := mod.ModuleCalls[name]
			if !ok {
				diags = append(diags, diag.ErrorAt(&b.DefRange, "Missing module call to override",
					fmt.Sprintf("There is no module call named %q. An override file can only override a module call that was already defined in a primary configuration file.", name)))
				continue
			}
			oc := ov.ModuleCalls[name]
			attrs, _, _ := b.Body.PartialContent(extrasModuleSchema)
			if oc == nil || attrs == nil {
				continue
			}
			if _, ok := attrs.Attributes["source"]; ok {
				mc.Source = oc.Source
			}
			if _, ok := attrs.Attributes["version"]; ok {
				mc.Version = oc.Version
			}
		}
	}
	for name, req := range ov.RequiredProviders {
		if req != nil {
			mod.RequiredProviders[name] = req
		}
	}
	if len(ov.RequiredCore) > 0 {
		mod.RequiredCore = ov.RequiredCore
	}
	for _, pair := range [][2]map[string]*inspect.Resource{{mod.ManagedResources, ov.ManagedResources}, {mod.DataResources, ov.DataResources}} {
		for k, r := range pair[1] {
			if _, ok := pair[0][k]; !ok {
				pair[0][k] = r
			}
		}
	}
	return diags
}
