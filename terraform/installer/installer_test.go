package installer

import (
	"errors"
	"strings"
	"testing"
)

// TestProviderInstallTable is, per release, what init installs for a
// provider from a registry answer, or the error it stops with: the
// behaviour of RegistrySource.AvailableVersions in each release.
func TestProviderInstallTable(t *testing.T) {
	const addr = "registry.terraform.io/hashicorp/aws"
	answers := map[string][]string{
		"clean":     {"1.0.0", "1.1.0", "2.0.0-beta.1"},
		"v-prefix":  {"1.0.0", "v1.1.0", "1.2.0"},
		"four-part": {"1.0.0", "1.2.3.4", "1.2.0"},
		"empty":     {"1.0.0", "", "1.2.0"},
	}
	type row struct {
		release, answer, constraint string
		want                        string // the version installed, "none", or "error: " and a part of the error
	}
	rows := []row{
		{"terraform@1.15.9", "clean", ">= 1.0.0", "1.1.0"},
		{"terraform@1.15.9", "clean", "2.0.0-beta.1", "2.0.0-beta.1"},
		{"terraform@1.15.9", "v-prefix", ">= 1.0.0", "1.2.0"},
		{"terraform@1.15.9", "four-part", ">= 1.2.3", "none"},
		{"terraform@1.15.9", "four-part", ">= 1.0.0", "1.2.0"},
		{"terraform@1.15.9", "empty", "~> 1.0", "1.2.0"},
		{"terraform@1.13.0", "four-part", ">= 1.0.0", "1.2.0"},
		{"terraform@1.12.2", "clean", ">= 1.0.0", "1.1.0"},
		{"terraform@1.12.2", "v-prefix", ">= 1.0.0", `error: terraform@1.12.2: could not query provider registry for registry.terraform.io/hashicorp/aws: registry response includes invalid version string "v1.1.0": `},
		{"terraform@1.12.2", "four-part", ">= 1.0.0", `error: invalid version string "1.2.3.4": too many numbered portions`},
		{"terraform@1.0.0", "empty", ">= 1.0.0", `error: invalid version string ""`},
		{"tofu@1.12.6", "clean", ">= 1.0.0", "1.1.0"},
		{"tofu@1.12.6", "v-prefix", ">= 1.0.0", `error: tofu@1.12.6: could not query provider registry for registry.terraform.io/hashicorp/aws: registry response includes invalid version string "v1.1.0"`},
		{"tofu@1.12.6", "four-part", ">= 1.0.0", `error: invalid version string "1.2.3.4"`},
		{"tofu@1.12.6", "empty", "~> 1.0", `error: invalid version string ""`},
		{"tofu@1.6.0", "four-part", ">= 1.0.0", `error: invalid version string "1.2.3.4"`},
	}
	for _, r := range rows {
		rel := MustParse(r.release)
		v, ok, err := rel.InstallProvider(addr, r.constraint, answers[r.answer])
		got := v
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case !ok:
			got = "none"
		}
		if strings.HasPrefix(r.want, "error: ") {
			if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, strings.TrimPrefix(r.want, "error: ")) {
				t.Errorf("%s, %s, %q: got %q, want an error containing %q", r.release, r.answer, r.constraint, got, r.want)
			}
			continue
		}
		if got != r.want {
			t.Errorf("%s, %s, %q: got %q, want %q", r.release, r.answer, r.constraint, got, r.want)
		}
	}
}

// TestModuleVersions: every release skips what go-version cannot read and
// keeps four-part versions.
func TestModuleVersions(t *testing.T) {
	for _, s := range Releases {
		kept, skipped := MustParse(s).ModuleVersions([]string{"1.0.0", "1.2.3.4", "v1.1.0", "", "1.x"})
		if strings.Join(kept, " ") != "1.0.0 1.2.3.4 v1.1.0" || len(skipped) != 2 {
			t.Errorf("%s: kept %q, skipped %v", s, kept, skipped)
		}
	}
}

// TestAdmits: required_version as go-version checks it, four parts
// included.
func TestAdmits(t *testing.T) {
	rel := MustParse("terraform@1.15.9")
	for _, c := range []struct {
		constraint string
		want       bool
		err        string
	}{
		{"= 1.15.9.0", true, ""},
		{"~> 1.15.9.0", false, ""},
		{"~> 1.15.0", true, ""},
		{">= 1.15.9.1", false, ""},
		{"< 1.15.9.1", true, ""},
		{">= 1.16", false, ""},
		{">= 1.15.0-beta1", false, "prerelease version constraints are not supported"},
		{"~>", false, "malformed constraint"},
	} {
		got, err := rel.Admits(c.constraint)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Admits(%q): error %v, want %q", c.constraint, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Admits(%q) = %v, %v; want %v", c.constraint, got, err, c.want)
		}
	}
}

// TestAppliesTo: which required_version each release reads.
func TestAppliesTo(t *testing.T) {
	tf := Requirement{Constraint: ">= 1.0"}
	tofu := Requirement{Constraint: ">= 1.0", Tofu: true}
	lang := Requirement{Constraint: ">= 1.12", Language: true}
	for _, c := range []struct {
		release        string
		tf, tofu, lang bool
	}{
		{"terraform@1.15.9", true, false, false},
		{"terraform@1.16.4", true, false, false},
		{"terraform@1.0.0", true, false, false},
		{"tofu@1.7.0", true, false, false},
		{"tofu@1.8.0", true, true, false},
		{"tofu@1.11.0", true, true, false},
		{"tofu@1.12.0", false, true, true},
		{"tofu@1.12.6", false, true, true},
	} {
		r := MustParse(c.release)
		if got := [3]bool{r.AppliesTo(tf), r.AppliesTo(tofu), r.AppliesTo(lang)}; got != [3]bool{c.tf, c.tofu, c.lang} {
			t.Errorf("%s: AppliesTo .tf, .tofu, language = %v, want %v", c.release, got, [3]bool{c.tf, c.tofu, c.lang})
		}
	}
}

func TestFeatures(t *testing.T) {
	for _, c := range []struct {
		release                            string
		skips, expressions, tofuFiles, bug bool
	}{
		{"terraform@1.12.2", false, false, false, false},
		{"terraform@1.13.0", true, false, false, false},
		{"terraform@1.14.0", true, false, false, false},
		{"terraform@1.15.0", true, true, false, true},
		{"terraform@1.15.1", true, true, false, false},
		{"terraform@1.15.9", true, true, false, false},
		{"terraform@1.16.4", true, true, false, false},
		{"tofu@1.7.0", false, false, false, false},
		{"tofu@1.8.0", false, true, true, false},
		{"tofu@1.12.6", false, true, true, false},
	} {
		r := MustParse(c.release)
		got := [4]bool{r.SkipsInvalidProviderVersions(), r.AllowsModuleVersionExpressions(), r.ReadsTofuFiles(), r.RefusesLockedPrereleaseInState()}
		if want := [4]bool{c.skips, c.expressions, c.tofuFiles, c.bug}; got != want {
			t.Errorf("%s: skips, expressions, .tofu files, state bug = %v, want %v", c.release, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for s, want := range map[string]string{
		"terraform@1.15.9":  "terraform@1.15.9",
		"terraform@1.16.4":  "terraform@1.16.4",
		"tofu@1.12.6":       "tofu@1.12.6",
		"opentofu@1.10.2":   "tofu@1.10.2",
		"terraform@v1.14.3": "terraform@1.14.3",
	} {
		r, err := Parse(s)
		if err != nil || r.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", s, r, err, want)
		}
	}
	long := "terraform@1." + strings.Repeat("9", 100<<10) + ".0"
	for _, tt := range []struct{ in, want string }{
		{"terraform", `installer "terraform": expected terraform@VERSION or tofu@VERSION, such as terraform@1.16.4`},
		{"pulumi@1.0.0", `installer "pulumi@1.0.0": unknown product: expected terraform or tofu`},
		{"terraform@1.15", `installer "terraform@1.15": the version is not a release version MAJOR.MINOR.PATCH`},
		{"terraform@1.15.9.0", "the version is not a release version MAJOR.MINOR.PATCH"},
		{"terraform@1.16.0-beta1", "the version is not a release version MAJOR.MINOR.PATCH"},
		{"terraform@1.99.0", `installer "terraform@1.99.0": prerel knows Terraform releases 1.0.0 to 1.16.4`},
		{"tofu@1.5.0", "prerel knows OpenTofu releases 1.6.0 to 1.12.6"},
		{"terraform@1.99999999999999999999.0", `installer "terraform@1.99999999999999999999.0": the minor number of the version is too large: prerel knows Terraform releases 1.0.0 to 1.16.4`},
		{"tofu@99999999999999999999.0.0", "the major number of the version is too large: prerel knows OpenTofu releases 1.6.0 to 1.12.6"},
		{"terraform@1.15.99999999999999999999", "the patch number of the version is too large"},
		{"terraform@1.15.\x1b[2J", `installer "terraform@1.15.\x1b[2J": the version is not a release version`},
		// A long argument is quoted once, its start and end.
		{long, `installer "terraform@1.999`},
	} {
		in := tt.in
		_, err := Parse(in)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Text != in || !strings.Contains(err.Error(), tt.want) || len(in) > 20 && strings.Contains(pe.Reason, in) {
			t.Errorf("Parse(%.80q): error %.300v, want %q", in, err, tt.want)
		}
		if n := len(err.Error()); n > 300 {
			t.Errorf("Parse(%.80q): a message of %d bytes", in, n)
		}
	}
	if Newest(Terraform).String() != "terraform@1.16.4" || Newest(OpenTofu).String() != "tofu@1.12.6" {
		t.Errorf("Newest: %s, %s", Newest(Terraform), Newest(OpenTofu))
	}
}
