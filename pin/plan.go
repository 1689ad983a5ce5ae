package pin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// FileName is the name of the override file pin writes in a module
// directory. Terraform reads it after the primary files, with the other
// override files, in name order.
const FileName = "prerel_override.tf"

// DefaultCommand is the command the header of a written file names when
// Options.Command is empty.
const DefaultCommand = "prerel pin"

// SchemaVersion is the version of the JSON form of a Plan: it changes
// when a field changes meaning or disappears.
const SchemaVersion = 1

// Options tunes Plan.
type Options struct {
	// Command is the command the header of each written file names, so
	// that a reader knows how to write it again or remove it; ""
	// means DefaultCommand. Build refuses one that holds a control
	// character (a newline would end the comment).
	Command string
	// Policies holds today's installers: resolve.ProviderPolicy, with
	// which a provider pin is checked against every module's constraint,
	// and the module installers each module pin is checked with
	// (resolve.Item.TerraformPolicy and OpenTofuPolicy); required when
	// something is to be pinned.
	Policies *engine.Registry
	// AllowOutside lets pin write and remove its files in module
	// directories outside the boundary: the Git repository that holds
	// the root module's directory, or that directory outside a
	// repository. A symbolic link at the file itself is never followed.
	AllowOutside bool
	// TerraformTree is the configuration as Terraform reads it (no .tofu
	// file), when tree is OpenTofu's reading and some module has .tofu
	// files: a call or provider the two read differently is not pinned,
	// since one override file serves both. Nil, with a nil tree, is the
	// report's (resolve.Report.TerraformTree).
	TerraformTree *config.Tree
}

// Plan is what pin writes and what it cannot pin.
type Plan struct {
	Schema int `json:"schema"`
	// Dir is the root module's directory, as the report has it.
	Dir string `json:"dir"`
	// Command is the command the files' headers name.
	Command string `json:"command"`
	// Installers name the releases whose init is today's, as the
	// report has them: ["terraform@1.15.9", "tofu@1.12.6"].
	Installers []string `json:"installers,omitempty"`
	// InstallersFrom say where each of Installers came from
	// (resolve.Report.InstallersFrom).
	InstallersFrom []string `json:"installers_from,omitempty"`
	// Pins are the overrides, module calls first in tree order, then
	// providers.
	Pins []Pin `json:"pins"`
	// Unpinned are the items whose chosen policy selects another version
	// than today's installer but that cannot be pinned, and why.
	Unpinned []Unpinned `json:"unpinned"`
	// Files are the override files to write, one per module directory
	// that has pins, the root first.
	Files []File `json:"files"`
	// Stale are files pin wrote before (recognised by their header) in
	// directories that need none now: Write removes them.
	Stale []string `json:"stale"`
	// Blocked are files named FileName (or prerel_override.tofu, which
	// OpenTofu reads instead) that pin did not write: it never writes
	// over them, and the pins of their directory are Unpinned.
	Blocked []string `json:"blocked"`
	// Refused are the files pin will not write nor remove (a symbolic
	// link, or a file outside the boundary), with the reason; the pins of
	// their directory are Unpinned.
	Refused []Refusal `json:"refused"`
	// Leftovers are temporary files a pin that was killed left (a dot,
	// FileName, digits): Write and Remove remove them.
	Leftovers []string `json:"leftovers"`
	// Warnings are resolve's warnings about the configuration (among
	// them where Terraform and OpenTofu read it differently).
	Warnings []string `json:"warnings"`
	// LockFile is the dependency lock file, relative to Dir; "" when
	// there is none.
	LockFile string `json:"lock_file,omitempty"`
	// LockRefused says why the lock file cannot be written (a symbolic
	// link, or outside the boundary): WriteOptions.Unlock fails then.
	LockRefused string `json:"lock_refused,omitempty"`
	// Lock are the providers whose lock file entry must change for init
	// to install the pinned version (or, once the pins are removed,
	// today's selection again).
	Lock []LockChange `json:"lock"`
	// Dirs are the module directories of the tree that are not
	// downloaded by init, the root first: where Build looks for files pin
	// wrote before, and Remove removes them.
	Dirs []string `json:"dirs"`

	// report is the report the plan was built from, whose findings a
	// SARIF rendering leads with.
	report *resolve.Report
}

// Refusal is a file pin will not write nor remove.
type Refusal struct {
	// File is relative to the root directory, links followed.
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Pin is one override.
type Pin struct {
	Kind resolve.Kind `json:"kind"`
	// Name is a module call's call path ("app.net") or a provider's local
	// name in the root module.
	Name string `json:"name"`
	// Module is the address of the module whose override file holds the
	// pin: resolve.RootModule or "module.app".
	Module  string `json:"module"`
	Source  string `json:"source"`
	Address string `json:"address"`
	// Constraint is what the configuration asks for without the pin.
	Constraint string `json:"constraint"`
	// ConstraintFrom names the variables and locals a module call's
	// version expression was evaluated from (resolve.Item.ConstraintFrom);
	// "" for a literal.
	ConstraintFrom string `json:"constraint_from,omitempty"`
	// Version is the pinned version: what the chosen policy selects, in
	// the form the installers take as an exact pin (a module version the
	// registry lists as "v2.0.0" is pinned as "2.0.0").
	Version string `json:"version"`
	// Listed is the version as the registry lists it, when Version is
	// written otherwise.
	Listed     string `json:"listed,omitempty"`
	Policy     string `json:"policy"`
	PolicyFrom string `json:"policy_from"`
	// WantedFrom, when the version is the one the configuration wants
	// whatever the policy selects (resolve.Item.Wanted), is where it was
	// set: "prerel.hcl:4:10" or "--want db=2.0.0-beta.1".
	WantedFrom string `json:"wanted_from,omitempty"`
	// Terraform and OpenTofu are what today's installers select; nil for
	// none.
	Terraform *string `json:"terraform"`
	OpenTofu  *string `json:"opentofu"`
	// File is the override file, relative to the root directory.
	File string `json:"file"`
	// Why says why today's installer selects no version, when it selects
	// none (resolve.NoneToday).
	Why string `json:"why,omitempty"`
	// Aliases are a provider entry's configuration_aliases, repeated in
	// the override since the entry is replaced whole.
	Aliases []string `json:"configuration_aliases,omitempty"`
	// Range is the place of the constraint the pin overrides
	// (resolve.Item.Range).
	Range hcl.Range `json:"-"`
	// MinAge is the minimum release age the selection is made under
	// ("7d"), "" for none; EligibleSince when the pinned version became
	// eligible under it, and HeldBack the newer versions it holds back,
	// which init would install without the pin.
	MinAge        string            `json:"min_age,omitempty"`
	EligibleSince *time.Time        `json:"eligible_since,omitempty"`
	HeldBack      []engine.HeldBack `json:"held_back,omitempty"`
}

// cooldownOf fills in p's cooldown from the item.
func (p Pin) cooldownOf(it *resolve.Item) Pin {
	if c := it.Cooldown; c != nil && c.Exempt == "" {
		p.MinAge, p.EligibleSince, p.HeldBack = c.MinAge, c.EligibleSince, it.HeldBack
	}
	return p
}

// Unpinned is an item whose chosen policy selects another version than
// today's installer and that pin cannot pin.
type Unpinned struct {
	Kind     resolve.Kind `json:"kind"`
	Name     string       `json:"name"`
	Module   string       `json:"module"`
	Source   string       `json:"source"`
	Pos      string       `json:"pos,omitempty"`
	Selected *string      `json:"selected"`
	// Reason says why it cannot be pinned, Instead what the user can do.
	Reason  string `json:"reason"`
	Instead string `json:"instead"`
	// Range is the place of the item's constraint (resolve.Item.Range).
	Range hcl.Range `json:"-"`
	// Refusing are, for a provider pin other modules' constraints
	// refuse, those constraints.
	Refusing []resolve.Requirement `json:"-"`
}

// File is one override file to write.
type File struct {
	// Path is where it is written: the module directory joined with
	// FileName, or, when a symbolic link lies on the way, that file once
	// the links are followed (absolute). Rel is the file relative to the
	// root directory, links followed ("../modules/app/prerel_override.tf"
	// for a module outside it); Via, when a link lies on the way, the
	// path the configuration reaches it by.
	Path    string `json:"path"`
	Rel     string `json:"rel"`
	Via     string `json:"via,omitempty"`
	Module  string `json:"module"`
	Content string `json:"content"`
}

// LockChange is a provider whose lock file entry does not hold the
// version init must install.
type LockChange struct {
	Address string `json:"address"`
	Locked  string `json:"locked"`
	// Pinned is the version the pin asks for.
	Pinned string `json:"pinned"`
	Pos    string `json:"pos,omitempty"`
}

// UpgradeCommand is what the user runs so that init replaces the lock
// file entries of Plan.Lock; `tofu init -upgrade` for OpenTofu.
const UpgradeCommand = "terraform init -upgrade"

// Build works out the override files that make `terraform init` and
// `tofu init` install, for every module call and provider of report,
// what its chosen policy selects where that is not what today's
// installer selects.
//
// report and tree must read the same configuration without the files
// pin wrote: resolve.Run with Options.SkipFile set to Skip, and
// config.LoadTree with TreeOptions.SkipFile set to Skip (and the
// report's ModulesDir). A nil tree is the tree the report was resolved
// from (resolve.Report.Tree, with its TerraformTree), which reads the
// configuration once. Build reads the module directories to find the
// override files users wrote and the ones pin wrote before; it writes
// nothing. It refuses a configuration with a module call name, or a
// pinned provider's local name, that init refuses, and a command
// (Options.Command) with a control character.
func Build(report *resolve.Report, tree *config.Tree, opts Options) (*Plan, error) {
	if report != nil && tree == nil {
		tree = report.Tree()
		if opts.TerraformTree == nil {
			opts.TerraformTree = report.TerraformTree()
		}
	}
	if report == nil || tree == nil || tree.Root == nil {
		return nil, errors.New("pin: a report and its tree are required")
	}
	p := &Plan{Schema: SchemaVersion, Dir: report.Dir, Command: opts.Command,
		Pins: []Pin{}, Unpinned: []Unpinned{}, Files: []File{}, Stale: []string{}, Blocked: []string{}, Lock: []LockChange{},
		Refused: []Refusal{}, Leftovers: []string{}, Warnings: slices.Clone(report.Warnings), Installers: report.Installers, InstallersFrom: report.InstallersFrom}
	if p.Warnings == nil {
		p.Warnings = []string{}
	}
	if p.Command == "" {
		p.Command = DefaultCommand
	}
	if i := strings.IndexFunc(p.Command, isControl); i >= 0 {
		return nil, fmt.Errorf("pin: the command %q holds a control character at byte %d: the header comment of a written file names it on one line", p.Command, i)
	}
	for _, n := range tree.Nodes {
		for _, f := range n.Module.Files {
			if Skip(f) {
				return nil, fmt.Errorf("pin: the tree was read with %s, which prerel wrote: read it, and resolve the report, with SkipFile set to pin.Skip", f)
			}
		}
	}
	g, err := newGuard(report.Dir, opts.AllowOutside)
	if err != nil {
		return nil, err
	}
	p.report = report
	pl := planner{plan: p, report: report, tree: tree, opts: opts, guard: g, users: map[string]*userOverrides{}}
	if report.LockPath != "" {
		t, err := g.judge(report.Dir, report.LockPath)
		p.LockFile = t.rel
		if err != nil {
			var refused *RefusedError
			if !errors.As(err, &refused) {
				return nil, err
			}
			p.LockRefused = err.Error()
		}
	}
	for _, n := range tree.Nodes {
		// A call path joins names with dots, and an override names the
		// call: a name init refuses could stand for another call.
		for _, c := range n.Module.ModuleCalls {
			if !hclsyntax.ValidIdentifier(c.Name) {
				return nil, fmt.Errorf("pin: module call %q (%s%s): not a valid name, which init refuses: a name starts with a letter or underscore and holds only letters, digits, underscores and dashes",
					c.Name, pl.rel(c.Pos.Filename), posSuffix(c.Pos))
			}
		}
	}
	for _, n := range tree.Nodes {
		if !n.Remote() && !slices.Contains(p.Dirs, n.Dir) {
			p.Dirs = append(p.Dirs, n.Dir)
		}
	}
	for _, d := range p.Dirs {
		if err := pl.readDir(d); err != nil {
			return nil, err
		}
	}
	for i := range report.Items {
		it := &report.Items[i]
		// A wanted version is pinned even where today's installer selects
		// it now: a newer release would take its place. An item whose
		// chosen policy selects none is listed with why and what would.
		if !it.Changed() && it.Wanted == nil && it.Selected != nil {
			continue
		}
		var err error
		switch it.Kind {
		case resolve.KindModule:
			err = pl.module(it)
		case resolve.KindProvider:
			err = pl.provider(it)
		}
		if err != nil {
			return nil, err
		}
	}
	pl.shared()
	pl.expressions()
	// One file's pins together, in tree order of the files: the
	// root's first.
	fileOrder := func(pin Pin) int {
		for i, d := range p.Dirs {
			if pl.users[d].file.rel == pin.File {
				return i
			}
		}
		return len(p.Dirs)
	}
	slices.SortStableFunc(p.Pins, func(a, b Pin) int { return fileOrder(a) - fileOrder(b) })
	if err := pl.files(); err != nil {
		return nil, err
	}
	return p, nil
}

type planner struct {
	plan   *Plan
	report *resolve.Report
	tree   *config.Tree
	opts   Options
	guard  *guard
	// users are the override files users wrote, by directory.
	users map[string]*userOverrides
}

// userOverrides is what the override files of one directory that pin did
// not write set: module calls' versions and required_providers entries,
// each with the file.
type userOverrides struct {
	versions  map[string]string
	providers map[string]string
	// file is FileName there, judged; refused, why pin will not write
	// it; blocked, why a file pin did not write keeps it from writing
	// there.
	file             target
	refused, blocked string
}

// rel returns a path relative to the root directory as given, with ".."
// where it lies outside.
func (pl *planner) rel(path string) string { return relPath(pl.report.Dir, path) }

// readDir reads the override files of a module directory.
func (pl *planner) readDir(dir string) error {
	u := &userOverrides{versions: map[string]string{}, providers: map[string]string{}}
	pl.users[dir] = u
	var err error
	u.file, err = pl.guard.judge(pl.report.Dir, filepath.Join(dir, FileName))
	var refused *RefusedError
	switch {
	case errors.As(err, &refused) && refused.linked():
		// A link at the file itself is a file pin did not write.
	case errors.As(err, &refused):
		u.refused = err.Error()
	case err != nil:
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		if leftover.MatchString(name) && u.refused == "" {
			if ok, err := isLeftover(path); err != nil {
				return err
			} else if ok {
				pl.plan.Leftovers = append(pl.plan.Leftovers, relPath(pl.guard.realDir, filepath.Join(filepath.Dir(u.file.path), name)))
			}
			continue
		}
		if !resolve.IsOverrideFile(name) || strings.HasPrefix(name, ".") {
			continue
		}
		switch name {
		case FileName:
			own, err := Owned(path)
			if err != nil {
				return err
			}
			if own {
				continue
			}
			u.blocked = u.file.rel + " exists and prerel did not write it"
			if refused != nil && refused.Link {
				u.blocked = refused.Error() + "; prerel did not write it"
			}
			pl.plan.Blocked = append(pl.plan.Blocked, u.file.rel)
		case tofuFileName:
			u.blocked = pl.rel(path) + " exists, which OpenTofu reads instead of " + FileName + ", and prerel did not write it"
			pl.plan.Blocked = append(pl.plan.Blocked, pl.rel(path))
		}
		if err := u.read(path, pl.rel(path)); err != nil {
			return err
		}
	}
	return nil
}

// tofuFileName is the file OpenTofu reads instead of FileName when both
// exist: pin never writes it.
var tofuFileName = strings.TrimSuffix(FileName, ".tf") + ".tofu"

var (
	userRootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "module", LabelNames: []string{"name"}},
	}}
	userTerraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}
	userModuleSchema    = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "version"}}}
)

// read records what one override file sets; a file that does not parse
// is left to the configuration reader, which reports it.
func (u *userOverrides) read(path, rel string) error {
	src, err := safefile.Read(path, safefile.ConfigLimit)
	if safefile.IsNotRegular(err) {
		return nil // not read by the configuration reader either
	}
	if err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	var f *hcl.File
	if strings.HasSuffix(path, ".json") {
		f, _ = hclread.ParseJSON(src, path)
	} else {
		f, _ = hclread.ParseHCL(src, path)
	}
	if f == nil || f.Body == nil {
		return nil
	}
	content, _, _ := f.Body.PartialContent(userRootSchema)
	if content == nil {
		return nil
	}
	for _, b := range content.Blocks {
		switch b.Type {
		case "module":
			if c, _, _ := b.Body.PartialContent(userModuleSchema); c != nil && c.Attributes["version"] != nil {
				u.versions[b.Labels[0]] = rel
			}
		case "terraform":
			tc, _, _ := b.Body.PartialContent(userTerraformSchema)
			if tc == nil {
				continue
			}
			for _, rp := range tc.Blocks {
				attrs, _ := rp.Body.JustAttributes()
				for name := range attrs {
					u.providers[name] = rel
				}
			}
		}
	}
	return nil
}

// unpinned records an item that cannot be pinned.
func (pl *planner) unpinned(it *resolve.Item, module, reason, instead string) {
	pl.plan.Unpinned = append(pl.plan.Unpinned, Unpinned{Kind: it.Kind, Name: it.Name, Module: module, Source: it.Source,
		Pos: it.Pos, Range: it.Range, Selected: it.Selected, Reason: reason, Instead: instead})
}

// selection returns the chosen policy's selection, or records why there
// is none to pin.
func (pl *planner) selection(it *resolve.Item, module string) (string, bool) {
	if it.Status != resolve.StatusOK || it.Selected == nil {
		why := "the chosen policy " + it.Policy + " selects no version"
		switch {
		case it.NoMatch != nil:
			why += ": " + it.NoMatch.Why
		case it.Problem != "":
			why += ": " + it.Problem
		}
		pl.unpinned(it, module, why, instead(it))
		return "", false
	}
	return *it.Selected, true
}

// instead says what would install the version an item whose chosen
// policy selects none likely wants: the constraint edits under which the
// chosen policy selects it and the policies that select it, each checked
// by running the policy (resolve.NoMatch), and the wish itself (--want).
func instead(it *resolve.Item) string {
	const fallback = "widen the constraint or choose another policy in prerel.hcl; with no pin, init installs today's selection"
	n := it.NoMatch
	if n == nil || len(n.Wanted) == 0 {
		return fallback
	}
	var ways []string
	for _, e := range n.DidYouMean {
		ways = append(ways, fmt.Sprintf("did you mean %q? (%s selects %s with it)", e.Constraint, it.Policy, e.Selects))
	}
	for i, e := range n.Constraints {
		if i == 2 {
			break
		}
		what := fmt.Sprintf("write %q", e.Constraint)
		if e.Module != "" {
			what += " in " + e.Module
		}
		ways = append(ways, fmt.Sprintf("%s (%s then selects %s)", what, it.Policy, e.Selects))
	}
	var names []string
	for name, v := range n.Policies {
		// A rule to choose per module: a proposal or the user's own, not
		// an installer's, a library's or a bot's reading.
		if g := catalogue.Group(name); v == n.Wanted[0] && (g == catalogue.GroupProposals || g == catalogue.GroupOwn) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > 3 {
		names = append(names[:3], "others")
	}
	if len(names) > 0 {
		ways = append(ways, fmt.Sprintf("choose %s in prerel.hcl (each selects %s as written)", strings.Join(names, ", "), n.Wanted[0]))
	}
	key := it.Name
	if it.Kind == resolve.KindProvider {
		key = it.Source
	}
	ways = append(ways, fmt.Sprintf("or ask for it: --want %s=%s", key, n.Wanted[0]))
	return strings.Join(ways, "; ")
}

// module plans the pin of a module call.
func (pl *planner) module(it *resolve.Item) error {
	path := strings.Split(it.Name, ".")
	parent := pl.tree.Node(strings.Join(path[:len(path)-1], "."))
	module := callerOf(it.Name)
	if parent == nil {
		pl.unpinned(it, module, "the module that makes the call was not read", "run terraform init and plan again")
		return nil
	}
	if parent.Remote() {
		pl.unpinned(it, module, module+" is downloaded by init into its data directory, which init rewrites: an override there does not last",
			"pin the version inside that module's own source (a release of it that asks for it), or vendor the module and call it by a local path")
		return nil
	}
	version, ok := pl.selection(it, module)
	if !ok {
		return nil
	}
	u := pl.users[parent.Dir]
	name := path[len(path)-1]
	if !pl.writable(it, module, u) {
		return nil
	}
	if u.versions[name] != "" {
		pl.unpinned(it, module, u.versions[name]+" already overrides the version of this call",
			"remove that version argument, or set it to "+version+" yourself")
		return nil
	}
	if why := pl.readDifferently(parent, name); why != "" {
		pl.unpinned(it, module, why, "make the .tf and .tofu files agree on this call, or write the pins yourself: "+tofuFileName+" for OpenTofu, "+FileName+" for Terraform")
		return nil
	}
	written, err := pl.installable(it, version)
	if err != nil {
		return err
	}
	if written == "" {
		return nil
	}
	listed := ""
	if written != version {
		listed = version
	}
	pl.plan.Pins = append(pl.plan.Pins, Pin{Kind: it.Kind, Name: it.Name, Module: module, Source: it.Source, Address: it.Address,
		Constraint: it.Constraint, ConstraintFrom: it.ConstraintFrom, Version: written, Listed: listed, Policy: it.Policy, PolicyFrom: it.PolicyFrom,
		WantedFrom: wantedFrom(it), Terraform: it.ByPolicy[it.TerraformPolicy], OpenTofu: it.ByPolicy[it.OpenTofuPolicy], Why: whyNone(it),
		File: u.file.rel, Range: it.Range}.cooldownOf(it))
	return nil
}

// refuse lists the file of u among the refused, once.
func (pl *planner) refuse(u *userOverrides) {
	for _, r := range pl.plan.Refused {
		if r.File == u.file.rel {
			return
		}
	}
	pl.plan.Refused = append(pl.plan.Refused, Refusal{File: u.file.rel, Reason: u.refused})
}

// writable reports whether pin may write its file in the directory of u,
// or records why the item cannot be pinned.
func (pl *planner) writable(it *resolve.Item, module string, u *userOverrides) bool {
	switch {
	case u.refused != "":
		pl.refuse(u)
		pl.unpinned(it, module, u.refused, "pass --allow-outside if writing there is meant; within a Git repository, the whole repository is the boundary")
		return false
	case u.blocked != "":
		pl.unpinned(it, module, u.blocked, "rename it, or set the version there yourself")
		return false
	}
	return true
}

// wantedFrom is where the version an item wants was set, "" when it
// wants none.
func wantedFrom(it *resolve.Item) string {
	if it.Wanted == nil {
		return ""
	}
	return it.Wanted.From
}

// whyNone is what resolve.NoneToday says of an item, "" when today's
// installer selects a version.
func whyNone(it *resolve.Item) string {
	if n := it.NoneToday(); n != nil {
		return n.Why
	}
	return ""
}

// callerOf returns the address of the module that makes the call at a
// call path: resolve.RootModule for "net", "module.app" for "app.net".
func callerOf(callPath string) string {
	path := strings.Split(callPath, ".")
	if len(path) == 1 {
		return resolve.RootModule
	}
	return "module." + strings.Join(path[:len(path)-1], ".module.")
}

// shared keeps the module pins of a directory that several module
// instances share (a local module called from several places): one
// override file serves them all, so a call there is pinned only when
// every instance's item selects the same version; otherwise each is
// Unpinned. Pins of the same call from several instances become one.
func (pl *planner) shared() {
	items := map[string]*resolve.Item{}
	for i := range pl.report.Items {
		if it := &pl.report.Items[i]; it.Kind == resolve.KindModule {
			items[it.Name] = it
		}
	}
	type key struct{ file, label string }
	var kept []Pin
	done := map[key]bool{}
	for _, p := range pl.plan.Pins {
		if p.Kind != resolve.KindModule {
			kept = append(kept, p)
			continue
		}
		path := strings.Split(p.Name, ".")
		label := path[len(path)-1]
		k := key{p.File, label}
		if done[k] {
			continue
		}
		done[k] = true
		dir := pl.tree.Node(strings.Join(path[:len(path)-1], ".")).Dir
		var others []string
		agree := true
		for _, n := range pl.tree.Nodes {
			name := strings.Join(append(slices.Clone(n.Path), label), ".")
			if n.Dir != dir || name == p.Name {
				continue
			}
			others = append(others, name)
			selected := p.Version
			if p.Listed != "" {
				selected = p.Listed
			}
			if it := items[name]; it == nil || it.Selected == nil || *it.Selected != selected {
				agree = false
			}
		}
		if agree {
			kept = append(kept, p)
			continue
		}
		for _, name := range append([]string{p.Name}, others...) {
			it := items[name]
			if it == nil {
				it = &resolve.Item{Kind: resolve.KindModule, Name: name, Source: p.Source}
			}
			pl.unpinned(it, callerOf(name), "the module that makes this call is called from several places ("+strings.Join(append([]string{p.Name}, others...), ", ")+"), whose chosen policies do not all select "+p.Version,
				"choose the same policy for every one of these calls in prerel.hcl")
		}
	}
	pl.plan.Pins = kept
}

// expressions lists the registry module calls whose version is an
// expression: prerel does not know what they select, nor can it pin
// them.
func (pl *planner) expressions() {
	for _, n := range pl.tree.Nodes {
		for _, c := range n.Module.ModuleCalls {
			if !c.VersionExpr || c.SourceExpr || address.ParseModuleSource(c.Source).Kind != address.Registry {
				continue
			}
			it := &resolve.Item{Kind: resolve.KindModule, Name: strings.Join(append(slices.Clone(n.Path), c.Name), "."),
				Source: c.Source, Pos: pl.rel(c.VersionPos.Filename) + posSuffix(c.VersionPos)}
			module := resolve.RootModule
			if a := n.Address(); a != "" {
				module = a
			}
			pl.unpinned(it, module, "the version is an expression ("+c.Version+") that is not static: "+c.VersionNotStatic,
				"write the version as a literal string, or make the expression depend only on variables' defaults and locals, or set the pin in an override file yourself")
		}
	}
}

func posSuffix(r hcl.Range) string {
	if r.Filename == "" {
		return ""
	}
	return fmt.Sprintf(":%d:%d", r.Start.Line, r.Start.Column)
}

// provider plans the pin of a provider in the root module's override
// file, once the pin satisfies every other module's constraint.
func (pl *planner) provider(it *resolve.Item) error {
	version, ok := pl.selection(it, resolve.RootModule)
	if !ok {
		return nil
	}
	root := pl.tree.Root
	name, source := it.Name, it.Source
	var aliases []string
	found := false
	for _, p := range root.Module.Providers {
		src := p.Source
		if src == "" {
			src = "hashicorp/" + p.LocalName
		}
		addr, err := address.ParseProvider(src)
		if err != nil || address.ProviderKey(addr) != it.Address {
			continue
		}
		name, source, aliases, found = p.LocalName, src, p.ConfigurationAliases, true
		break
	}
	if !found {
		for _, p := range root.Module.Providers {
			if p.LocalName == name {
				pl.unpinned(it, resolve.RootModule, "the root module uses the local name "+name+" for another provider",
					"add a required_providers entry for "+it.Source+" to the root module under another name, then plan again")
				return nil
			}
		}
	}
	u := pl.users[root.Dir]
	if !pl.writable(it, resolve.RootModule, u) {
		return nil
	}
	switch {
	case u.providers[name] != "":
		pl.unpinned(it, resolve.RootModule, u.providers[name]+" already overrides the required_providers entry "+name,
			"remove that entry, or set its version to "+version+" yourself")
		return nil
	}
	if !hclsyntax.ValidIdentifier(name) {
		return fmt.Errorf("pin: provider %s: its local name %q is not a valid name, which init refuses: a name starts with a letter or underscore and holds only letters, digits, underscores and dashes", it.Source, name)
	}
	if why := pl.providerReadDifferently(it.Address); why != "" {
		pl.unpinned(it, resolve.RootModule, why, "make the .tf and .tofu files agree on this provider, or write the pins yourself: "+tofuFileName+" for OpenTofu, "+FileName+" for Terraform")
		return nil
	}
	if bad, reqs, err := pl.refusing(it, version); err != nil {
		return err
	} else if len(bad) > 0 {
		pl.unpinned(it, resolve.RootModule, version+" does not satisfy "+strings.Join(bad, "; "),
			"relax those constraints, or choose a policy for "+it.Source+" that selects a version they admit")
		pl.plan.Unpinned[len(pl.plan.Unpinned)-1].Refusing = reqs
		return nil
	}
	pl.plan.Pins = append(pl.plan.Pins, Pin{Kind: it.Kind, Name: name, Module: resolve.RootModule, Source: source, Address: it.Address,
		Constraint: it.Constraint, Version: version, Policy: it.Policy, PolicyFrom: it.PolicyFrom, WantedFrom: wantedFrom(it),
		Terraform: it.ByPolicy[it.TerraformPolicy], OpenTofu: it.ByPolicy[it.OpenTofuPolicy], Why: whyNone(it),
		File: u.file.rel, Aliases: aliases, Range: it.Range}.cooldownOf(it))
	for _, l := range pl.report.Locks {
		if l.Address == it.Address && !sameProviderVersion(l.Version, version) {
			pl.plan.Lock = append(pl.plan.Lock, LockChange{Address: l.Address, Locked: l.Version, Pinned: version, Pos: l.Pos})
		}
	}
	return nil
}

// sameProviderVersion reports whether the provider installer reads a and
// b as one version: a registry may list "1.1" where the lock file holds
// "1.1.0", and go-versions reads a missing part as zero.
func sameProviderVersion(a, b string) bool {
	if a == b {
		return true
	}
	va, erra := engine.ParseVersion(fillVersion(a))
	vb, errb := engine.ParseVersion(fillVersion(b))
	return erra == nil && errb == nil && va.Equal(vb) && va.Build() == vb.Build()
}

// fillVersion adds ".0" to a version of one or two numeric parts.
func fillVersion(s string) string {
	core, rest := s, ""
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		core, rest = s[:i], s[i:]
	}
	for n := strings.Count(core, "."); n < 2 && core != ""; n++ {
		core += ".0"
	}
	return core + rest
}

// refusing returns the requirements of modules other than the root that
// keep today's installer from installing version once the root pins it,
// each as "MODULE's CONSTRAINT (FILE:LINE)". Terraform intersects every
// module's constraints, and admits a prerelease only when one of them
// names it exactly: so the pin is judged together with all of them, and
// each is named that refuses it together with the pin alone; the
// requirements named are returned too.
func (pl *planner) refusing(it *resolve.Item, version string) ([]string, []resolve.Requirement, error) {
	if pl.opts.Policies == nil {
		return nil, nil, errors.New("pin: Options.Policies is required to pin a provider")
	}
	pol, ok := pl.opts.Policies.Lookup(resolve.ProviderPolicy)
	if !ok {
		return nil, nil, fmt.Errorf("pin: the policy %q, today's provider installer, is not registered", resolve.ProviderPolicy)
	}
	admits := func(constraints []string) (bool, error) {
		sel, err := engine.Select(pol, strings.Join(append([]string{version}, constraints...), ", "), []string{version})
		if err != nil {
			return false, nil // a constraint the installer refuses admits nothing
		}
		return sel.Found, nil
	}
	var others []resolve.Requirement
	var cs []string
	for _, r := range it.Requirements {
		if r.Module != resolve.RootModule && r.Constraint != "" {
			others = append(others, r)
			cs = append(cs, r.Constraint)
		}
	}
	if ok, err := admits(cs); ok || err != nil {
		return nil, nil, err
	}
	var bad []string
	var reqs []resolve.Requirement
	for _, r := range others {
		if ok, _ := admits([]string{r.Constraint}); !ok {
			bad = append(bad, fmt.Sprintf("%s's %q (%s)", r.Module, r.Constraint, r.Pos))
			reqs = append(reqs, r)
		}
	}
	if len(bad) == 0 {
		bad = append(bad, "the constraints of the other modules together")
		reqs = others
	}
	sort.Strings(bad)
	return bad, reqs, nil
}
