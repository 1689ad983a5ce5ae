// Package gate puts prerel's chosen prerelease policies inside an
// installer: Terraform's or OpenTofu's init, the re-checks of plan and
// apply, and `providers mirror`. It answers, for one module call or one
// provider, "is this version admissible" and "which of these versions is
// selected", under the policy the root module's prerel.hcl chooses,
// exactly as `prerel resolve` reads that file (policyconfig.LoadDir with
// the catalogue's registry, catalogue.New).
//
// # Not mine
//
// The gate says "not mine" (a nil *Rule) wherever the installer's own
// code must run unchanged, quirks included:
//
//   - the root module has no prerel.hcl (Load returns a nil *Gate, and
//     every method of a nil *Gate returns nil);
//   - the policy chosen for the module call is today's rule of that
//     installer ("opentofu-module" for OpenTofu, "terraform-module" for
//     Terraform), or the policy chosen for the provider is today's
//     provider rule ("apparentlymart"), and no exact version is wanted.
//
// Everything else is the gate's: the installer asks the Rule and uses
// its answer in place of both its prerelease check and its range check
// (go-version's Check must not run after the gate, or the policy's
// admissions outside go-version's range are lost).
//
// A prerel.hcl without default_policy chooses "strict" for every module
// call and provider it does not name, as `prerel resolve` does; write
// default_policy = "opentofu-module" (or "terraform-module") to keep
// today's rule for the rest of the modules.
//
// # What an installer calls, and where
//
// Once per run, in the root module's directory (the working directory,
// which -chdir sets):
//
//	g, err := gate.Load(rootDir, gate.OpenTofu) // an error stops init
//
// Module calls, by call path (the call names from the root joined by
// dots, "eks.node_group"; the key of .terraform/modules/modules.json),
// with the constraint as written (go-version's Constraints.String()
// gives it back exactly):
//
//   - choosing a registry module's version: if r := g.Module(path); r !=
//     nil, install r.Select(constraint, listed), the listed versions as
//     the registry returned them;
//   - deciding whether an installed module must be replaced, and the
//     loader's "Module version requirements have changed":
//     r.Admits(constraint, installed).
//
// Providers, by address ("registry.opentofu.org/hashicorp/aws"), with
// the constraints of every module that requires it joined with ", ":
//
//   - the locked version's check and choosing the newest acceptable
//     version: r.Admits(constraint, locked), r.Select(constraint,
//     available);
//   - the re-check on plan and apply (the lock against the configuration)
//     and `providers mirror`: r.Admits and r.Select.
//
// # What stays the installer's
//
// The gate decides which version; nothing else. Listing versions,
// downloading, checksums and signatures, the dependency lock file (its
// format and the rule that a locked version wins until -upgrade), the
// module manifest, and every message stay the installer's. The gate
// reads no network and writes nothing.
package gate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/address"
)

// Installer names the installer the gate is built into: it decides
// which policy is today's rule for module calls.
type Installer string

const (
	// OpenTofu is OpenTofu's init: today's module rule is
	// "opentofu-module".
	OpenTofu Installer = "opentofu"
	// Terraform is Terraform's init: today's module rule is
	// "terraform-module".
	Terraform Installer = "terraform"
)

// Today's rules, as package resolve names them.
const (
	OpenTofuModulePolicy  = "opentofu-module"
	TerraformModulePolicy = "terraform-module"
	ProviderPolicy        = "apparentlymart"
)

// OpenTofuHost is OpenTofu's default provider registry: prerel.hcl's
// "hashicorp/aws" names registry.terraform.io/hashicorp/aws, which
// OpenTofu installs from here.
const OpenTofuHost = "registry.opentofu.org"

// Gate is the policy configuration of one root module. A nil *Gate is
// "no prerel.hcl": every answer is nil.
type Gate struct {
	cfg         *policyconfig.Config
	inst        Installer
	todayModule string
}

// Load reads prerel.hcl in the root module directory dir. Without one it
// returns nil, nil: the installer runs its own code everywhere. A
// prerel.hcl with a mistake is an error that names the file, line and
// column of every mistake; the installer should stop with it rather
// than install by a rule the user did not choose.
func Load(dir string, inst Installer) (*Gate, error) {
	var today string
	switch inst {
	case OpenTofu:
		today = OpenTofuModulePolicy
	case Terraform:
		today = TerraformModulePolicy
	default:
		return nil, fmt.Errorf("gate: unknown installer %q", inst)
	}
	cfg, diags := policyconfig.LoadDir(catalogue.New(), dir)
	if diags.HasErrors() {
		msgs := make([]string, 0, len(diags))
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				msgs = append(msgs, d.Error())
			}
		}
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	if cfg == nil || cfg.File() == "" {
		return nil, nil
	}
	return &Gate{cfg: cfg, inst: inst, todayModule: today}, nil
}

// File is the path of the prerel.hcl read, "" for a nil g.
func (g *Gate) File() string {
	if g == nil {
		return ""
	}
	return g.cfg.File()
}

// Module returns the rule of the module call at callPath ("vpc",
// "eks.node_group"), or nil when the installer's own code decides.
func (g *Gate) Module(callPath string) *Rule {
	if g == nil {
		return nil
	}
	return g.rule("module "+callPath, g.cfg.Module(callPath), g.todayModule)
}

// Provider returns the rule of the provider at addr
// ("registry.opentofu.org/hashicorp/aws", "hashicorp/aws"), or nil when
// the installer's own code decides. For OpenTofu a provider of
// OpenTofuHost is also looked up under prerel's default host, so that
// prerel.hcl's "hashicorp/aws" names it. An address prerel cannot read is
// nil.
func (g *Gate) Provider(addr string) *Rule {
	if g == nil {
		return nil
	}
	p, err := address.ParseProvider(addr)
	if err != nil {
		return nil
	}
	ch := g.cfg.Provider(p)
	if !ch.Override && ch.Want == "" && g.inst == OpenTofu && p.Hostname.String() == OpenTofuHost {
		alias := p
		alias.Hostname = tfaddr.DefaultProviderRegistryHost
		ch = g.cfg.Provider(alias)
	}
	return g.rule("provider "+address.ProviderKey(p), ch, ProviderPolicy)
}

func (g *Gate) rule(name string, ch policyconfig.Choice, today string) *Rule {
	if ch.Policy == nil || (ch.Policy.Name() == today && ch.Want == "") {
		return nil
	}
	return &Rule{name: name, policy: ch.Policy, origin: ch.Origin.String(), want: ch.Want}
}

// Rule is the chosen policy of one module call or provider.
type Rule struct {
	name   string
	policy engine.Policy
	origin string
	want   string
}

// Policy is the chosen policy's name.
func (r *Rule) Policy() string { return r.policy.Name() }

// Want is the exact version prerel.hcl wants, "" for none.
func (r *Rule) Want() string { return r.want }

// String describes the rule for messages: `module "vpc": policy "cargo"
// (prerel.hcl:3:12)`.
func (r *Rule) String() string {
	s := fmt.Sprintf("%s: policy %q (%s)", r.name, r.policy.Name(), r.origin)
	if r.want != "" {
		s += fmt.Sprintf(", want %q", r.want)
	}
	return s
}

// Admits reports whether version is admissible for constraint: the
// policy's verdict on it alone (engine.Evaluate), or, when an exact
// version is wanted, whether it is that version.
func (r *Rule) Admits(constraint, version string) bool {
	if r.want != "" {
		_, ok := engine.FindListed(r.want, []string{version})
		return ok
	}
	return engine.Evaluate(r.policy, constraint, version).Verdict == engine.Allow
}

// Select returns the version of available, as listed, that the policy
// selects for constraint (engine.Select: the newest it admits), or the
// wanted version when one is wanted and listed; false when none is.
func (r *Rule) Select(constraint string, available []string) (string, bool) {
	if r.want != "" {
		return engine.FindListed(r.want, available)
	}
	sel, err := engine.Select(r.policy, constraint, available)
	if err != nil || !sel.Found {
		return "", false
	}
	return sel.Version, true
}

// Why says in one line why Select found nothing: the policy's refusal
// of the constraint, or that it admits no listed version.
func (r *Rule) Why(constraint string, available []string) string {
	if r.want != "" {
		return fmt.Sprintf("the wanted version %s is not listed", r.want)
	}
	if _, err := engine.Select(r.policy, constraint, available); err != nil {
		return fmt.Sprintf("policy %q refuses the constraint %q: %v", r.policy.Name(), constraint, err)
	}
	return fmt.Sprintf("policy %q admits none of the %d listed versions for %q", r.policy.Name(), len(available), constraint)
}
