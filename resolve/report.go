package resolve

import (
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// Kind is what an Item stands for.
type Kind string

// The kinds of items.
const (
	KindModule   Kind = "module"
	KindProvider Kind = "provider"
)

// Status says whether an Item was resolved.
type Status string

// Item statuses.
const (
	StatusOK          Status = "ok"          // the chosen policy selects a version
	StatusUnsatisfied Status = "unsatisfied" // it admits no available version, or refuses the constraint
	StatusError       Status = "error"       // the versions could not be listed
)

// RootModule is how a Requirement names the root module.
const RootModule = "root"

// SchemaVersion is the version of the JSON form of a Report, numbered as
// the other reports': it changes when a field changes meaning or
// disappears; a new field does not change it.
const SchemaVersion = 1

// Report is the result of Run. Its JSON form is the contract scripts rely
// on: see Render, whose JSON format writes it.
type Report struct {
	// Schema is SchemaVersion.
	Schema        int    `json:"schema"`
	Dir           string `json:"dir"`
	VersionsFrom  string `json:"versions_from"`
	ConfigFile    string `json:"config_file,omitempty"`
	ManifestFile  string `json:"manifest_file,omitempty"`
	DefaultPolicy string `json:"default_policy"`
	DefaultFrom   string `json:"default_policy_from"`
	// Installers name the releases whose init is today's:
	// ["terraform@1.15.9", "tofu@1.12.6"] (Options.Terraform and
	// Options.OpenTofu).
	Installers []string `json:"installers"`
	// InstallersFrom say, for each of Installers, where it came from
	// ("terraform on PATH", ".terraform-version in /src"); "" when it was
	// named (--installer) or is the newest prerel knows.
	InstallersFrom []string `json:"installers_from,omitempty"`
	Extra          []string `json:"extra_policies"`
	// Modules are the module addresses read, the root first.
	Modules  []string `json:"modules_read"`
	Items    []Item   `json:"items"`
	Unread   []Unread `json:"unread"`
	Skipped  []Skip   `json:"skipped"`
	LockFile string   `json:"lock_file,omitempty"`
	// LockPath is the lock file's path as it was opened (relative to the
	// working directory, or absolute), for a program that writes it;
	// LockFile is the form to show.
	LockPath string   `json:"-"`
	Locks    []Lock   `json:"locks,omitempty"`
	Warnings []string `json:"warnings"`
	// Updater is what an updater would select and propose next to what
	// init installs, when AddUpdater was called.
	Updater *UpdaterReport `json:"updater,omitempty"`
	// Readers name, when AddReaders was called, the programs whose
	// reading each item's Readers holds, in order: today's installers'
	// releases first.
	Readers []string `json:"readers,omitempty"`
	// Cooldown is, when some item has a minimum release age, when the
	// ages were counted and what the cooldown changed.
	Cooldown *CooldownHeader `json:"cooldown,omitempty"`

	// notes are Warnings with their places, one for one (Report.SARIF).
	notes []note
	// tree and tfTree are the configuration Run read (Tree,
	// TerraformTree).
	tree, tfTree *config.Tree
}

// Tree is the module tree Run resolved the report from, as OpenTofu
// reads it (or as Terraform does, when OpenTofu is a release that reads
// no .tofu file), without the files Options.SkipFile left out; nil for a
// report Run did not make. Package pin builds its plan on it, so that the
// configuration is read once.
func (r *Report) Tree() *config.Tree { return r.tree }

// TerraformTree is the module tree as Terraform reads it (no .tofu file)
// when it differs from Tree: when some module has .tofu files that Tree's
// reading includes. Nil otherwise.
func (r *Report) TerraformTree() *config.Tree { return r.tfTree }

// Item is one module call or one provider of the module tree and what
// each policy selects for it.
type Item struct {
	Kind Kind `json:"kind"`
	// Name is a module call's call path ("eks.node_group") or a
	// provider's local name in the first module that requires it.
	Name string `json:"name"`
	// Source is the source address as written (for a provider without
	// one, the implied hashicorp/NAME).
	Source string `json:"source"`
	// Address is the registry address in full, host included.
	Address string `json:"address"`
	// Constraint is the constraint the chosen policy applies: a module
	// call's version argument, or every requirement of a provider joined
	// with ", ".
	Constraint string `json:"constraint"`
	// ConstraintFrom names, for a module call whose version is an
	// expression evaluated as Terraform 1.15 and OpenTofu 1.8 evaluate it
	// before init, the variables and locals it refers to and where each
	// is declared: "var.major (variables.tf:3)"; "" for a literal.
	ConstraintFrom string `json:"constraint_from,omitempty"`
	// Requirements are the constraints Constraint is made of and where
	// each comes from.
	Requirements []Requirement `json:"requirements"`
	// Pos is where the first requirement is written, relative to the
	// root directory; "" for an implied provider.
	Pos string `json:"pos,omitempty"`
	// Range is that place, its file as it was opened (relative to the
	// working directory, or absolute), for a renderer that locates it
	// (SARIF); the zero Range where Pos is "".
	Range hcl.Range `json:"-"`
	// Policy is the chosen policy, PolicyFrom where it was chosen.
	Policy     string `json:"policy"`
	PolicyFrom string `json:"policy_from"`
	// Selected is what the chosen policy selects; nil for none.
	Selected *string `json:"selected"`
	// TerraformPolicy and OpenTofuPolicy name the by_policy entries that
	// stand for today's Terraform and OpenTofu.
	TerraformPolicy string `json:"terraform_policy"`
	OpenTofuPolicy  string `json:"opentofu_policy"`
	// ByPolicy maps each policy shown to its selection, nil for none.
	ByPolicy map[string]*string `json:"by_policy"`
	// ChangesTerraform and ChangesOpenTofu report whether the chosen
	// policy selects another version than today's Terraform or OpenTofu.
	ChangesTerraform bool   `json:"changes_terraform"`
	ChangesOpenTofu  bool   `json:"changes_opentofu"`
	Status           Status `json:"status"`
	// Problem says why the status is not ok.
	Problem string `json:"problem,omitempty"`
	// Available is how many versions were listed; Newest the newest of
	// them by SemVer precedence that the engine can read.
	Available int     `json:"available"`
	Newest    *string `json:"newest"`
	// Refused maps a policy that refuses the constraint to its reason.
	Refused map[string]string `json:"refused,omitempty"`
	// TodayErrors are the errors today's releases stop with on the
	// registry's answer: Terraform 1.12 and earlier and every OpenTofu
	// release fail a provider query on one listed version go-versions
	// cannot read ("1.2.3.4", "v1.0.0", ""), where Terraform 1.13 and
	// later skip it.
	TodayErrors []TodayError `json:"today_errors,omitempty"`
	// Unreadable lists the listed versions some policy shown cannot read.
	Unreadable []Unreadable `json:"unreadable,omitempty"`
	// From is where the versions came from: a URL or an index entry.
	From string `json:"from,omitempty"`
	// Implied is set for a provider that no required_providers entry
	// names in any module.
	Implied bool `json:"implied,omitempty"`
	// Readers is what each reader of Report.Readers assumes for the item
	// (AddReaders); nil otherwise.
	Readers map[string]Reading `json:"readers,omitempty"`
	// Pinned is the pin prerel pin wrote for the item, which init
	// installs, when the configuration was read without pin's files
	// (Options.SkipFile); nil when none holds it.
	Pinned *Pinned `json:"pinned,omitempty"`
	// Wanted is the exact version the configuration wants, whatever the
	// policy selects (prerel.hcl's want, --want): Selected is that version
	// as the registry lists it, nil when it is not listed.
	Wanted *Wanted `json:"wanted,omitempty"`
	// WhyNoneToday is NoneToday in the JSON report: why today's
	// Terraform selects no version, what the other policies select and
	// the pin; absent when it selects one. Render's JSON format fills it.
	WhyNoneToday *NoneToday `json:"none_today,omitempty"`
	// NoMatch says, when the chosen policy selects no version from the
	// listed ones, why, and what would install the versions the user
	// likely wants: the policies that select them, and the edits of the
	// constraint, each verified, under which the chosen policy does. Run
	// fills it; it is nil when the chosen policy selects a version or
	// the versions could not be listed.
	NoMatch *NoMatch `json:"no_match,omitempty"`
	// NewMajor lists the policies, in column order, that select a
	// prerelease of a higher major version than today's Terraform
	// selects (see NewMajorPrerelease). Render's JSON format fills it.
	NewMajor []string `json:"new_major_prerelease,omitempty"`
	// Cooldown is what the chosen policy's minimum release age does to
	// the item; nil without one. Selected is the selection under it.
	Cooldown *Cooldown `json:"cooldown,omitempty"`
	// HeldBack are the versions the chosen policy admits, newer than
	// Selected, that the cooldown holds back, newest first, each with
	// its "published_at" and "eligible_at" (null when undated).
	HeldBack []engine.HeldBack `json:"held_back,omitempty"`

	dates   engine.Dates  // the listed versions' dates, under a cooldown
	minAge  time.Duration // the chosen policy's minimum age
	host    string        // the registry host of the address
	columns []string      // policy names in column order
	err     error         // the lookup's error, when Problem is one
	listed  []string      // the versions listed
}

// Requirement is one module's constraint on a module call or provider.
type Requirement struct {
	// Module is the address of the module it is written in: RootModule
	// or "module.eks".
	Module     string `json:"module"`
	Constraint string `json:"constraint"`
	// Pos is where it is written, relative to the root directory; ""
	// for a provider the module only implies.
	Pos string `json:"pos,omitempty"`
	// Range is that place, its file as it was opened (see Item.Range).
	Range hcl.Range `json:"-"`
}

// Columns returns the policy names shown for the item in column order: the
// chosen policy, today's Terraform, today's OpenTofu, then the extra
// policies; each name once.
func (it *Item) Columns() []string { return it.columns }

// Changed reports whether the chosen policy selects another version than
// today's Terraform or OpenTofu.
func (it *Item) Changed() bool { return it.ChangesTerraform || it.ChangesOpenTofu }

// Unreadable is a listed version that some policies cannot read.
type Unreadable struct {
	Version  string   `json:"version"`
	Policies []string `json:"policies"`
	Reason   string   `json:"reason"`
}

// Unread is a module call whose module could not be read, so that its
// own calls and provider requirements are unknown.
type Unread struct {
	// Module is the address the module would have ("module.eks").
	Module string `json:"module"`
	Source string `json:"source"`
	Pos    string `json:"pos,omitempty"`
	Reason string `json:"reason"`
}

// Skip is a module call or provider that is not looked up in a registry,
// and why.
type Skip struct {
	Kind   Kind   `json:"kind"`
	Name   string `json:"name"`
	Source string `json:"source"`
	Pos    string `json:"pos,omitempty"`
	Reason string `json:"reason"`
}

// Lock is one provider of the lock file, judged by the chosen policy
// against the configuration's constraint.
type Lock struct {
	Address string `json:"address"`
	Version string `json:"version"`
	// LockedConstraints is what the lock file recorded.
	LockedConstraints string `json:"locked_constraints"`
	Pos               string `json:"pos"`
	// Range is that place, its file as it was opened (see Item.Range).
	Range hcl.Range `json:"-"`
	// Required is false when the configuration no longer requires the
	// provider; the fields below are then empty.
	Required   bool   `json:"required"`
	Name       string `json:"name,omitempty"`
	Constraint string `json:"constraint"`
	Policy     string `json:"policy,omitempty"`
	// Verdict is the chosen policy's verdict on the locked version, with
	// its reason; TerraformVerdict is today's installer's. Both are nil
	// when the provider is not required.
	Verdict          *engine.Verdict `json:"verdict,omitempty"`
	Reason           string          `json:"reason,omitempty"`
	TerraformVerdict *engine.Verdict `json:"terraform_verdict,omitempty"`
}

// Admitted reports whether the chosen policy admits the locked version.
func (l *Lock) Admitted() bool { return l.Verdict != nil && *l.Verdict == engine.Allow }

// Unsatisfied returns the items whose chosen policy admits no available
// version; none for a nil report.
func (r *Report) Unsatisfied() []Item { return r.withStatus(StatusUnsatisfied) }

// Errors returns the items whose versions could not be listed; none for a
// nil report.
func (r *Report) Errors() []Item { return r.withStatus(StatusError) }

// RefusedLocks returns the lock file's providers that the configuration
// requires and whose locked version the chosen policy does not admit for
// the configuration's constraint; none for a nil report.
func (r *Report) RefusedLocks() []Lock {
	if r == nil {
		return nil
	}
	var out []Lock
	for _, l := range r.Locks {
		if l.Required && !l.Admitted() {
			out = append(out, l)
		}
	}
	return out
}

// Marked reports whether some item is marked as changing today's
// selection: whether the chosen policy selects another version than
// today's Terraform or OpenTofu for it.
func (r *Report) Marked() bool {
	if r == nil {
		return false
	}
	for i := range r.Items {
		if r.Items[i].Changed() {
			return true
		}
	}
	return false
}

// redacted returns a copy of r with the credentials of every URL it
// shows replaced (see Run), so that a report built by other means than
// Run is rendered without them too; r itself is not changed.
func (r *Report) redacted() *Report {
	c := *r
	c.Items = slices.Clone(r.Items)
	c.Unread = slices.Clone(r.Unread)
	c.Skipped = slices.Clone(r.Skipped)
	c.Warnings = slices.Clone(r.Warnings)
	c.notes = slices.Clone(r.notes)
	c.redact()
	return &c
}

// redact replaces the credentials of every URL the report shows (see
// Run).
func (r *Report) redact() {
	r.VersionsFrom = registry.RedactURL(r.VersionsFrom)
	for i := range r.Items {
		it := &r.Items[i]
		it.From, it.Problem = registry.RedactURL(it.From), registry.RedactURL(it.Problem)
	}
	for i := range r.Unread {
		u := &r.Unread[i]
		u.Source, u.Reason = registry.RedactURL(u.Source), registry.RedactURL(u.Reason)
	}
	for i := range r.Skipped {
		k := &r.Skipped[i]
		k.Source, k.Reason = registry.RedactURL(k.Source), registry.RedactURL(k.Reason)
	}
	for i, w := range r.Warnings {
		r.Warnings[i] = registry.RedactURL(w)
	}
}

func (r *Report) withStatus(s Status) []Item {
	if r == nil {
		return nil
	}
	var out []Item
	for _, it := range r.Items {
		if it.Status == s {
			out = append(out, it)
		}
	}
	return out
}

// Listed returns the versions the registry listed for the item, as
// listed; nil when they were not listed (or the item was read from
// JSON).
func (it *Item) Listed() []string { return it.listed }
