package installer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/internal/elide"
)

// Product is the program a Release belongs to.
type Product string

// The two products.
const (
	Terraform Product = "terraform"
	OpenTofu  Product = "tofu"
)

// Display returns the product's name as its documentation writes it.
func (p Product) Display() string {
	if p == OpenTofu {
		return "OpenTofu"
	}
	return "Terraform"
}

// Release is one release of Terraform or OpenTofu, as `--installer
// terraform@1.15.9` names it. Its methods say what `init` of that release
// does where releases differ.
type Release struct {
	Product Product
	// Version is MAJOR.MINOR.PATCH.
	Version string
	v       *goversion.Version
}

// Releases are the releases prerel knows, oldest first per product; the
// last of each product is the default (Newest). A version between two
// of them is accepted too: the table below says what changed and when.
var Releases = []string{
	"terraform@1.0.0", "terraform@1.12.2", "terraform@1.13.0", "terraform@1.14.0", "terraform@1.15.0", "terraform@1.15.1", "terraform@1.15.9", "terraform@1.16.4",
	"tofu@1.6.0", "tofu@1.7.0", "tofu@1.8.0", "tofu@1.11.0", "tofu@1.12.0", "tofu@1.12.6",
}

// Changes are the releases where the behaviour prerel emulates changed,
// each with what changed; the methods of Release read them.
var Changes = []Change{
	{Terraform, "1.13.0", SkipsInvalidProviderVersions, "a provider version the registry lists but go-versions cannot read is skipped with a warning (getproviders RegistrySource.AvailableVersions); before, it failed the whole query"},
	{Terraform, "1.15.0", ModuleVersionExpressions, "a module's version may be made of const variables and locals; before, only a literal string"},
	{Terraform, "1.15.0", LockedPrereleaseInStateBug, "init refuses a locked prerelease provider that the state uses (providers from state are installed without the configuration's constraints)"},
	{Terraform, "1.15.1", LockedPrereleaseInStateFixed, "the constraints of the configuration are used again for the providers in state"},
	{OpenTofu, "1.8.0", TofuFiles, "reads .tofu and .tofu.json files, NAME.tofu taking the place of NAME.tf; a module's version may be made of variables and locals"},
	{OpenTofu, "1.12.0", LanguageBlock, "required_version is read only from .tofu files, and from language { compatible_with { opentofu = ... } } in any file"},
}

// Feature names a behaviour that changed in some release.
type Feature string

// The features of Changes.
const (
	SkipsInvalidProviderVersions Feature = "skips-invalid-provider-versions"
	ModuleVersionExpressions     Feature = "module-version-expressions"
	LockedPrereleaseInStateBug   Feature = "locked-prerelease-in-state-bug"
	LockedPrereleaseInStateFixed Feature = "locked-prerelease-in-state-fixed"
	TofuFiles                    Feature = "tofu-files"
	LanguageBlock                Feature = "language-block"
)

// Change is one row of Changes: from Since on, Product's releases have
// Feature.
type Change struct {
	Product Product
	Since   string
	Feature Feature
	What    string
}

// Parse reads "terraform@1.15.9" or "tofu@1.12.6" ("opentofu@" is read
// as "tofu@"). The version must be a release (MAJOR.MINOR.PATCH, no
// prerelease) no older than the oldest release of the product in
// Releases and no newer than the newest: prerel does not guess what a
// release it does not know does. Its error is a *ParseError.
func Parse(s string) (Release, error) {
	fail := func(format string, args ...any) (Release, error) {
		return Release{}, &ParseError{Text: s, Reason: fmt.Sprintf(format, args...)}
	}
	name, ver, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok || ver == "" {
		return fail("expected terraform@VERSION or tofu@VERSION, such as %s", Newest(Terraform))
	}
	var p Product
	switch strings.ToLower(name) {
	case "terraform":
		p = Terraform
	case "tofu", "opentofu":
		p = OpenTofu
	default:
		return fail("unknown product: expected terraform or tofu")
	}
	oldest, newest := bounds(p)
	known := fmt.Sprintf("prerel knows %s releases %s to %s", p.Display(), oldest.Version, newest.Version)
	parts := strings.Split(strings.TrimPrefix(ver, "v"), ".")
	if len(parts) == 3 {
		for i, part := range parts {
			if part == "" || strings.Trim(part, "0123456789") != "" {
				break
			}
			if _, err := strconv.ParseInt(part, 10, 64); errors.Is(err, strconv.ErrRange) {
				return fail("the %s number of the version is too large: %s", [...]string{"major", "minor", "patch"}[i], known)
			}
		}
	}
	v, err := goversion.NewSemver(strings.TrimPrefix(ver, "v"))
	if err != nil || len(v.Segments()) != 3 || v.Prerelease() != "" || v.Metadata() != "" || strings.Count(ver, ".") != 2 {
		return fail("the version is not a release version MAJOR.MINOR.PATCH")
	}
	if v.LessThan(oldest.v) || v.GreaterThan(newest.v) {
		return fail("%s", known)
	}
	return Release{Product: p, Version: v.String(), v: v}, nil
}

// ParseError is the error of Parse: the text it was given and what is
// wrong with it. Its message quotes the text once, its start and end
// when it is long, with control characters escaped.
type ParseError struct {
	Text   string
	Reason string // what is wrong, without the text
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("installer %q: %s", elide.Middle(e.Text, 100), e.Reason)
}

// MustParse is Parse that panics on an error; for tests and the table.
func MustParse(s string) Release {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

// bounds returns the oldest and newest known release of p.
func bounds(p Product) (oldest, newest Release) {
	for _, s := range Releases {
		name, ver, _ := strings.Cut(s, "@")
		if Product(name) != p {
			continue
		}
		r := Release{Product: p, Version: ver, v: goversion.Must(goversion.NewVersion(ver))}
		if oldest.v == nil {
			oldest = r
		}
		newest = r
	}
	return oldest, newest
}

// Newest returns the newest release of p that prerel knows: the default
// of --installer.
func Newest(p Product) Release {
	_, n := bounds(p)
	return n
}

// String returns "terraform@1.15.9".
func (r Release) String() string { return string(r.Product) + "@" + r.Version }

// Display returns "Terraform 1.15.9".
func (r Release) Display() string { return r.Product.Display() + " " + r.Version }

// IsZero reports whether r is the zero Release.
func (r Release) IsZero() bool { return r.Product == "" }

// Has reports whether r has f: whether a Change of r's product with
// feature f is at or before r's version.
func (r Release) Has(f Feature) bool {
	if r.v == nil {
		return false
	}
	for _, c := range Changes {
		if c.Product == r.Product && c.Feature == f && !r.v.LessThan(goversion.Must(goversion.NewVersion(c.Since))) {
			return true
		}
	}
	return false
}

// SkipsInvalidProviderVersions reports whether the release skips a
// provider version it cannot read (Terraform 1.13 and later) rather
// than failing the query (Terraform 1.12 and earlier, every OpenTofu).
func (r Release) SkipsInvalidProviderVersions() bool { return r.Has(SkipsInvalidProviderVersions) }

// AllowsModuleVersionExpressions reports whether a module call's
// version may be an expression evaluated before init: Terraform 1.15
// (of const variables) and OpenTofu 1.8 (of any variable's default).
func (r Release) AllowsModuleVersionExpressions() bool {
	if r.Product == OpenTofu {
		return r.Has(TofuFiles)
	}
	return r.Has(ModuleVersionExpressions)
}

// RequiresConstVariables reports whether a module version made of
// variables needs them declared `const = true` (Terraform).
func (r Release) RequiresConstVariables() bool { return r.Product == Terraform }

// ReadsTofuFiles reports whether the release reads .tofu and .tofu.json
// files (OpenTofu 1.8 and later), NAME.tofu in place of NAME.tf.
func (r Release) ReadsTofuFiles() bool { return r.Product == OpenTofu && r.Has(TofuFiles) }

// RefusesLockedPrereleaseInState reports whether init refuses a locked
// prerelease provider that the state uses: Terraform 1.15.0 only.
func (r Release) RefusesLockedPrereleaseInState() bool {
	return r.Has(LockedPrereleaseInStateBug) && !r.Has(LockedPrereleaseInStateFixed)
}

// ProviderVersions is what the release's provider installer keeps of the
// versions a registry lists for provider (its address, for the message):
// every version apparentlymart/go-versions reads, in the registry's
// order. A version it cannot read is skipped by Terraform 1.13 and later
// (skipped lists them, with go-versions' error); Terraform 1.12 and
// earlier and OpenTofu fail the query, and err is the error init then
// prints after "Could not retrieve the list of available versions for
// provider ...". OpenTofu reads the registry's answer into a map and
// names whichever invalid version it meets first; prerel names the first
// in the registry's order.
func (r Release) ProviderVersions(provider string, listed []string) (kept []string, skipped []Skipped, err error) {
	for _, s := range listed {
		if _, perr := parseProviderVersion(s); perr != nil {
			if !r.SkipsInvalidProviderVersions() {
				return nil, nil, &QueryError{Release: r, Provider: provider, Version: s, Reason: perr.Error()}
			}
			skipped = append(skipped, Skipped{Version: s, Reason: perr.Error()})
			continue
		}
		kept = append(kept, s)
	}
	return kept, skipped, nil
}

// parseProviderVersion is go-versions' ParseVersion, the provider
// installer's, with a panic (a number too large for uint64) as an error.
func parseProviderVersion(s string) (v versions.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("go-versions ParseVersion panicked: %v", p)
		}
	}()
	return versions.ParseVersion(s)
}

// Skipped is a listed provider version a release skips, with go-versions'
// reason.
type Skipped struct {
	Version, Reason string
}

// QueryError is the error of a release whose provider query fails on a
// version it cannot read.
type QueryError struct {
	Release  Release
	Provider string
	Version  string
	Reason   string
}

// Error is the text the release prints, prefixed with the release:
// `tofu@1.12.6: could not query provider registry for
// registry.opentofu.org/hashicorp/aws: registry response includes
// invalid version string "1.2.3.4": ...`.
func (e *QueryError) Error() string {
	return fmt.Sprintf("%s: could not query provider registry for %s: registry response includes invalid version string %q: %s",
		e.Release, e.Provider, e.Version, e.Reason)
}

// ModuleVersions is what the module installer keeps of the versions a
// module registry lists: every version hashicorp/go-version reads, four
// parts included; a version it cannot read is skipped with a warning
// ("Invalid response from remote module registry") by every release.
func (r Release) ModuleVersions(listed []string) (kept []string, skipped []Skipped) {
	for _, s := range listed {
		if _, err := goversion.NewVersion(s); err != nil {
			skipped = append(skipped, Skipped{Version: s, Reason: err.Error()})
			continue
		}
		kept = append(kept, s)
	}
	return kept, skipped
}

// Requirement is one version requirement on the program itself, as
// package terraform/config reads it.
type Requirement struct {
	// Constraint is the constraint as written.
	Constraint string
	// Language is set for language { compatible_with { opentofu = ... } }
	// and clear for terraform { required_version }.
	Language bool
	// Tofu is set when the requirement is in a .tofu or .tofu.json file.
	Tofu bool
}

// AppliesTo reports whether the release reads req: Terraform reads
// required_version from .tf files (it never reads .tofu files);
// OpenTofu before 1.12 reads required_version from every file it reads;
// OpenTofu 1.12 and later only from .tofu files, and from
// language { compatible_with }, which no earlier release and no
// Terraform reads.
func (r Release) AppliesTo(req Requirement) bool {
	switch {
	case r.Product == Terraform:
		return !req.Tofu && !req.Language
	case req.Language:
		return r.Has(LanguageBlock)
	case r.Has(LanguageBlock):
		return req.Tofu
	default:
		return !req.Tofu || r.ReadsTofuFiles()
	}
}

// Admits reports whether the release's own version meets constraint as
// required_version is checked: hashicorp/go-version's NewConstraint and
// Check, four-part versions included ("= 1.15.9.0" admits 1.15.9,
// "~> 1.15.9.0" does not). A constraint go-version refuses, or one that
// names a prerelease, is an error, as init reports it.
func (r Release) Admits(constraint string) (bool, error) {
	c, err := goversion.NewConstraint(constraint)
	if err != nil {
		return false, err
	}
	for _, one := range c {
		if one.Prerelease() {
			return false, fmt.Errorf("prerelease version constraints are not supported: %s", one)
		}
	}
	return c.Check(r.v), nil
}

// InstallProvider is the version the release's provider installer
// selects for constraint (Ruby-style, as required_providers writes it)
// from the versions a registry lists: the newest of ProviderVersions'
// kept versions in go-versions' MeetingConstraints set, as
// providercache.Installer.EnsureProviderVersions selects with
// VersionList.NewestInSet. ok is false when none is in the set; err is
// the release's QueryError, or go-versions' refusal of the constraint.
func (r Release) InstallProvider(provider, constraint string, listed []string) (version string, ok bool, err error) {
	kept, _, err := r.ProviderVersions(provider, listed)
	if err != nil {
		return "", false, err
	}
	spec, err := versions.MeetingConstraintsStringRuby(constraint)
	if err != nil {
		return "", false, err
	}
	var best versions.Version
	for _, s := range kept {
		v, _ := parseProviderVersion(s)
		if spec.Has(v) && (!ok || v.GreaterThan(best)) {
			best, version, ok = v, s, true
		}
	}
	return version, ok, nil
}
