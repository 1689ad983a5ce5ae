package config

import (
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/terraform/address"
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
// HCL parser. Its provider blocks are returned in file order. A file that
// is not a regular file, is larger than 2 MiB (safefile.ConfigLimit) or
// nests deeper than 1000 levels is refused with an error diagnostic; see
// ParseLockFile for the rest.
func LoadLockFile(path string) ([]LockedProvider, hcl.Diagnostics) {
	src, d := hclread.ReadFile(path, "Cannot read the lock file")
	if d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return ParseLockFile(src, path)
}

// FindLockFile returns the path of the dependency lock file in the root
// module directory dir, "" when there is none. A lock file that is not a
// regular file (a FIFO, a device, a directory) is not read: the path is
// "" and the diagnostics hold a warning that says so.
func FindLockFile(dir string) (string, hcl.Diagnostics) {
	path := filepath.Join(dir, LockFileName)
	if found, diags := hclread.Find(path, "the dependency lock file"); !found {
		return "", diags
	}
	return path, nil
}

// ParseLockFile is LoadLockFile on the file's contents; filename is used
// in places. Every mistake is an error diagnostic with its place: a syntax
// error, an unknown block or argument, a version or constraints argument
// that is not a string, a provider address that is not valid or not in
// the full form Terraform writes (registry.terraform.io/hashicorp/aws),
// and a provider locked twice. When there is an error, no providers are
// returned. Module blocks, which Terraform reserves, are a warning.
func ParseLockFile(src []byte, filename string) ([]LockedProvider, hcl.Diagnostics) {
	file, diags := hclread.ParseHCL(src, filename)
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
		key, d := lockAddress(b)
		if d != nil {
			diags = append(diags, d)
		}
		if key == "" {
			continue
		}
		if prev, dup := seen[key]; dup {
			diags = append(diags, diag.ErrorAt(&b.DefRange, "Duplicate provider lock",
				fmt.Sprintf("The provider %q was already locked at %s.", key, diag.FormatRange(prev))))
			continue
		}
		seen[key] = lp.Pos
		bc, hdiags := b.Body.Content(lockProviderSchema)
		diags = append(diags, hdiags...)
		if bc == nil || d != nil {
			continue
		}
		if a, has := bc.Attributes["version"]; has {
			diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &lp.Version)...)
		}
		if a, has := bc.Attributes["constraints"]; has {
			diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &lp.Constraints)...)
		}
		out = append(out, lp)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return out, diags
}

// lockAddress reads the address of a lock file's provider block: its
// canonical text, and an error diagnostic when the label is not that
// text. The text is "" when the label is not a provider address at all.
func lockAddress(b *hcl.Block) (string, *hcl.Diagnostic) {
	label, at := b.Labels[0], b.LabelRanges[0]
	p, err := address.ParseProvider(label)
	if err != nil {
		return "", diag.ErrorAt(&at, "Invalid provider address", err.Error())
	}
	key := address.ProviderKey(p)
	if key != label {
		return key, diag.ErrorAt(&at, "Invalid provider address",
			fmt.Sprintf("A lock file names a provider by its full address, as Terraform writes it: %q.", key))
	}
	return key, nil
}
