package config

import (
	"fmt"
	"path/filepath"
	"strings"

	version "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
)

// ManifestFileName is the name of Terraform's module manifest in its
// modules directory (.terraform/modules by default).
const ManifestFileName = "modules.json"

// ModuleRecord is one entry of Terraform's module manifest: where
// `terraform init` put the module that a call path leads to.
type ModuleRecord struct {
	// Key is the call path, the call names joined with "."
	// ("eks.node_group"); "" for the root module.
	Key string
	// Source is the source address as Terraform recorded it, normalized
	// ("registry.terraform.io/terraform-aws-modules/eks/aws").
	Source string
	// Version is the installed version of a registry module; "" for any
	// other module.
	Version string
	// Dir is the directory as recorded, with "/" separators: relative to
	// the root module's directory unless absolute.
	Dir string
	// Pos is the place of the record in the manifest.
	Pos hcl.Range
}

// Manifest is Terraform's module manifest, its records by Key.
type Manifest map[string]*ModuleRecord

// LoadManifest reads a module manifest (.terraform/modules/modules.json).
// A file that is missing, is not a regular file, is larger than 2 MiB
// (safefile.ConfigLimit) or nests deeper than 1000 levels is an error
// diagnostic here; LoadTree treats a missing one as no manifest.
func LoadManifest(path string) (Manifest, hcl.Diagnostics) {
	src, d := hclread.ReadFile(path, "Cannot read the module manifest")
	if d != nil {
		return Manifest{}, hcl.Diagnostics{d}
	}
	return ParseManifest(src, path)
}

// ParseManifest is LoadManifest on the file's contents; filename is used
// in places. As Terraform reads the file, an empty file is an empty
// manifest, object member names match case-insensitively and members
// other than Key, Source, Version and Dir are ignored. A JSON syntax
// error, a value of the wrong type, a version that is not a version or
// two records for the same key is an error diagnostic with its place;
// the records that could be read are returned all the same.
func ParseManifest(src []byte, filename string) (Manifest, hcl.Diagnostics) {
	m := Manifest{}
	trimmed := strings.TrimSpace(string(src))
	if trimmed == "" {
		return m, nil
	}
	file, diags := hclread.ParseJSON(src, filename)
	if diags.HasErrors() || file == nil || file.Body == nil {
		return m, syntaxErrors(diags)
	}
	if trimmed[0] != '{' {
		start := hcl.Pos{Line: 1, Column: 1}
		return m, append(diags, diag.ErrorAt(&hcl.Range{Filename: filename, Start: start, End: start}, "Invalid module manifest",
			"The module manifest must be a JSON object."))
	}
	attrs, adiags := file.Body.JustAttributes()
	diags = append(diags, adiags...)
	var list *hcl.Attribute
	for name, a := range attrs {
		if strings.EqualFold(name, "Modules") {
			list = a
		}
	}
	if list == nil {
		return m, diags
	}
	if isNull(list.Expr) {
		return m, diags
	}
	elems, ldiags := hcl.ExprList(list.Expr)
	if ldiags.HasErrors() {
		return m, append(diags, diag.ErrorAt(list.Expr.Range().Ptr(), "Invalid module manifest",
			`The "Modules" member must be an array of module records.`))
	}
	for _, e := range elems {
		rec, rdiags := parseRecord(e, filename)
		diags = append(diags, rdiags...)
		if rec == nil {
			continue
		}
		if prev, dup := m[rec.Key]; dup {
			diags = append(diags, diag.ErrorAt(rec.Pos.Ptr(), "Duplicate module record",
				fmt.Sprintf("The module manifest has two records for the key %q; the first is at %s.", rec.Key, diag.FormatRange(prev.Pos))))
			continue
		}
		m[rec.Key] = rec
	}
	return m, diags
}

// parseRecord reads one element of the Modules array; nil when it is not
// an object.
func parseRecord(e hcl.Expression, filename string) (*ModuleRecord, hcl.Diagnostics) {
	pairs, d := hcl.ExprMap(e)
	if d.HasErrors() {
		return nil, hcl.Diagnostics{diag.ErrorAt(e.Range().Ptr(), "Invalid module manifest",
			"Each module record must be a JSON object.")}
	}
	rec := &ModuleRecord{Pos: e.Range()}
	var diags hcl.Diagnostics
	for _, kv := range pairs {
		k, _ := kv.Key.Value(nil)
		if k.IsNull() || !k.IsKnown() || k.Type() != cty.String {
			continue
		}
		var dst *string
		var name string
		for _, f := range []struct {
			name string
			dst  *string
		}{{"Key", &rec.Key}, {"Source", &rec.Source}, {"Version", &rec.Version}, {"Dir", &rec.Dir}} {
			if strings.EqualFold(k.AsString(), f.name) {
				dst, name = f.dst, f.name
			}
		}
		if dst == nil {
			continue
		}
		v, vd := kv.Value.Value(nil)
		switch {
		case vd.HasErrors():
			diags = append(diags, vd...)
		case v.IsNull():
			// JSON null leaves the member empty.
		case v.Type() == cty.String:
			*dst = v.AsString()
		default:
			diags = append(diags, diag.ErrorAt(kv.Value.Range().Ptr(), "Invalid module manifest",
				fmt.Sprintf("The member %q of a module record must be a string.", name)))
		}
	}
	if rec.Version != "" {
		if _, err := version.NewVersion(rec.Version); err != nil {
			diags = append(diags, diag.ErrorAt(rec.Pos.Ptr(), "Invalid module manifest",
				fmt.Sprintf("The version %q recorded for the key %q is not a version: %s.", rec.Version, rec.Key, err)))
		}
	}
	return rec, diags
}

// syntaxErrors drops the HCL JSON parser's "Root value must be object",
// which follows its syntax errors wherever they are.
func syntaxErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	out := diags[:0:0]
	for _, d := range diags {
		if d.Summary == "Root value must be object" && len(diags) > 1 {
			continue
		}
		out = append(out, d)
	}
	return out
}

// isNull reports whether e is JSON null.
func isNull(e hcl.Expression) bool {
	v, d := e.Value(nil)
	return !d.HasErrors() && v.IsNull()
}

// dirOf returns the directory a record names, for the root module
// directory root.
func (r *ModuleRecord) dirOf(root string) string {
	d := filepath.FromSlash(r.Dir)
	if filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(root, d)
}
