package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// CoreRequirement is one requirement on the version of Terraform or
// OpenTofu itself: a terraform block's required_version, or OpenTofu's
// language { compatible_with { opentofu = "..." } } (OpenTofu 1.12,
// internal/configs/language.go). Which releases read which, package
// terraform/installer says (Release.AppliesTo).
type CoreRequirement struct {
	// Constraint is the constraint as written.
	Constraint string
	// Language is set for language { compatible_with { opentofu } },
	// clear for terraform { required_version }.
	Language bool
	// Tofu is set when the file is a .tofu or .tofu.json file.
	Tofu bool
	// Override is set when the file is an override file: its
	// required_version replaces those of the primary files.
	Override bool
	// Pos is the place of the constraint's value.
	Pos hcl.Range
}

var (
	languageSchema       = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "compatible_with"}}}
	compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}
)

// readRequiredVersion records a terraform block's required_version when
// it is a literal string (terraform-config-inspect reports one that is
// not).
func (ex *extras) readRequiredVersion(tc *hcl.BodyContent, override bool) {
	a, ok := tc.Attributes["required_version"]
	if !ok {
		return
	}
	if s, ok := literalString(a.Expr); ok {
		ex.core = append(ex.core, CoreRequirement{Constraint: s, Tofu: isTofuFile(a.Expr.Range().Filename), Override: override, Pos: a.Expr.Range()})
	}
}

// readLanguage records the opentofu argument of a language block's
// compatible_with blocks, as OpenTofu's checkVersionRequirements reads
// them; the other arguments of compatible_with are for other programs
// and are left alone. OpenTofu refuses a language block in an override
// file, so one there is not read.
func (ex *extras) readLanguage(b *hcl.Block, override bool) {
	if override {
		return
	}
	lc, _, _ := b.Body.PartialContent(languageSchema)
	if lc == nil {
		return
	}
	for _, cw := range lc.Blocks {
		cc, _, _ := cw.Body.PartialContent(compatibleWithSchema)
		if cc == nil {
			continue
		}
		a, ok := cc.Attributes["opentofu"]
		if !ok {
			continue
		}
		if s, ok := literalString(a.Expr); ok {
			ex.core = append(ex.core, CoreRequirement{Constraint: s, Language: true, Tofu: isTofuFile(a.Expr.Range().Filename), Pos: a.Expr.Range()})
		}
	}
}

// coreRequirements returns what ex read, an override file's
// required_version replacing those read before it, as Terraform and
// OpenTofu merge them.
func (ex *extras) coreRequirements() []CoreRequirement {
	var out []CoreRequirement
	for _, r := range ex.core {
		if r.Override && !r.Language {
			kept := out[:0]
			for _, o := range out {
				if o.Language {
					kept = append(kept, o)
				}
			}
			out = kept
		}
		out = append(out, r)
	}
	return out
}

// literalString returns the value of an expression that is a literal
// string.
func literalString(e hcl.Expression) (string, bool) {
	if len(e.Variables()) > 0 {
		return "", false
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// isTofuFile reports whether path is a .tofu or .tofu.json file.
func isTofuFile(path string) bool {
	return strings.HasSuffix(path, ".tofu") || strings.HasSuffix(path, ".tofu.json")
}

// ReadsTofuFiles reports whether m was read from some .tofu or .tofu.json
// file.
func (m *Module) ReadsTofuFiles() bool { return m.tofu }
