package config

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/prerel/prerel/internal/diag"
)

// LockFileName is the name of the dependency lock file in a root module.
const LockFileName = ".terraform.lock.hcl"

// LockedProvider is one provider block of a dependency lock file.
type LockedProvider struct {
	// Address is the block's label, the provider's full source address
	// (registry.terraform.io/hashicorp/aws).
	Address string
	// Version is the locked version.
	Version string
	// Constraints is the constraints argument: the constraints the
	// configuration had when the version was locked; "" when absent.
	Constraints string
	// Pos is the place of the provider block's header.
	Pos hcl.Range
}

var (
	lockRootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "provider", LabelNames: []string{"source_addr"}},
		{Type: "module", LabelNames: []string{"path"}},
	}}
	lockProviderSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "constraints"},
		{Name: "hashes"},
	}}
)

// LoadLockFile reads a dependency lock file (.terraform.lock.hcl) with the
// HCL parser. Its provider blocks are returned in file order; a block
// whose version or constraints argument is not a string, a duplicate
// provider, or a syntax error is an error diagnostic with its place.
// Module blocks, which Terraform reserves, are reported as a warning.
func LoadLockFile(path string) ([]LockedProvider, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{diag.ErrorAt(&hcl.Range{Filename: path}, "Cannot read the lock file", err.Error())}
	}
	return ParseLockFile(src, path)
}

// ParseLockFile is LoadLockFile on the file's contents; filename is used
// in places.
func ParseLockFile(src []byte, filename string) ([]LockedProvider, hcl.Diagnostics) {
	file, diags := hclparse.NewParser().ParseHCL(src, filename)
	if file == nil || file.Body == nil || diags.HasErrors() {
		return nil, diags
	}
	content, hdiags := file.Body.Content(lockRootSchema)
	diags = append(diags, hdiags...)
	if content == nil {
		return nil, diags
	}
	var out []LockedProvider
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		if b.Type == "module" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Module lock ignored",
				Detail: "Terraform does not lock module versions; this block is not read.", Subject: b.DefRange.Ptr()})
			continue
		}
		lp := LockedProvider{Address: b.Labels[0], Pos: b.DefRange}
		if prev, dup := seen[lp.Address]; dup {
			diags = append(diags, diag.ErrorAt(&b.DefRange, "Duplicate provider lock",
				fmt.Sprintf("The provider %q was already locked at %s.", lp.Address, diag.FormatRange(prev))))
			continue
		}
		seen[lp.Address] = lp.Pos
		bc, hdiags := b.Body.Content(lockProviderSchema)
		diags = append(diags, hdiags...)
		if bc == nil {
			continue
		}
		ok := true
		if a, has := bc.Attributes["version"]; has {
			d := gohcl.DecodeExpression(a.Expr, nil, &lp.Version)
			diags = append(diags, d...)
			ok = ok && !d.HasErrors()
		} else {
			ok = false
		}
		if a, has := bc.Attributes["constraints"]; has {
			d := gohcl.DecodeExpression(a.Expr, nil, &lp.Constraints)
			diags = append(diags, d...)
			ok = ok && !d.HasErrors()
		}
		if ok {
			out = append(out, lp)
		}
	}
	return out, diags
}
