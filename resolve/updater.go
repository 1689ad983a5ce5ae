package resolve

import (
	"fmt"

	"github.com/prerel/prerel/engine"
)

// UpdaterReport is what an updater (Renovate, Dependabot) would select and
// propose for each item, next to what terraform init installs, and where
// the two disagree. Report.AddUpdater fills it.
type UpdaterReport struct {
	// Name is the updater's policy: renovate, dependabot or
	// terraform-module-versions.
	Name string `json:"name"`
	// Items follow Report.Items, leaving out those whose versions could
	// not be listed.
	Items []UpdaterItem `json:"items"`
	// Disagreements counts the items with at least one disagreement.
	Disagreements int `json:"disagreements"`
	// KeepOffPins, when prerel pin's files hold pins, is the updater's
	// configuration that keeps it off those files (Renovate's
	// ignorePaths, Dependabot's exclude-paths), so that it does not
	// propose to bump a pin; "" when none holds one or the updater has no
	// such setting.
	KeepOffPins string `json:"keep_off_pins,omitempty"`
}

// PinFilePattern matches the files prerel pin writes, for an updater's
// ignore setting.
const PinFilePattern = "**/prerel_override.tf"

// keepOffPins is each updater's setting that keeps it off prerel pin's
// files.
var keepOffPins = map[string]string{
	"renovate":   `renovate.json: "ignorePaths": ["` + PinFilePattern + `"] (next to the paths already there)`,
	"dependabot": `.github/dependabot.yml, in the terraform entry of updates: exclude-paths: ["` + PinFilePattern + `"]`,
}

// UpdaterItem is one module call or provider under an updater.
type UpdaterItem struct {
	Kind       Kind   `json:"kind"`
	Name       string `json:"name"`
	Constraint string `json:"constraint"`
	// Current is the version the updater starts from: the locked one of a
	// provider in the lock file, else "" (none).
	Current string `json:"current,omitempty"`
	// Selects is the newest version the updater admits within the
	// constraint: Renovate's lock-file update, the version Dependabot
	// keeps the constraint for. Nil for none.
	Selects *string `json:"selects"`
	// Proposes is the updater's proposal, when its policy is a Proposer:
	// for Renovate the newest candidate above the current version (the
	// locked one, else what it selects) that its ignoreUnstable filter
	// keeps, for Dependabot the newest candidate whatever the constraint
	// (it rewrites the constraint to admit it). Nil when it proposes
	// nothing new.
	Proposes *string `json:"proposes"`
	// Installs is what terraform init installs today; nil for none.
	Installs *string `json:"installs"`
	// Disagreements says where the updater and init part: a version the
	// updater selects or proposes that init refuses (for a provider, a
	// lock entry the updater writes that init rejects), a version init
	// installs that the updater misses.
	Disagreements []string `json:"disagreements,omitempty"`
	// BumpsPin is, for an item prerel pin's file pins, the version the
	// updater would propose in that file in place of the pin (it reads
	// the pin as an exact constraint); nil when it would leave it.
	BumpsPin *string `json:"bumps_pin,omitempty"`
}

// AddUpdater fills r.Updater for the updater policy p, judging init's side
// with the policies of reg that r names as today's Terraform. Items whose
// versions could not be listed are left out.
func (r *Report) AddUpdater(p engine.Policy, reg *engine.Registry) error {
	if r == nil || p == nil || reg == nil {
		return fmt.Errorf("resolve: AddUpdater needs a report, an updater policy and a registry")
	}
	locked := map[string]string{}
	for _, l := range r.Locks {
		locked[l.Address] = l.Version
	}
	u := &UpdaterReport{Name: p.Name()}
	for i := range r.Items {
		it := &r.Items[i]
		if it.Status == StatusError || it.listed == nil {
			continue
		}
		installer, ok := reg.Lookup(it.TerraformPolicy)
		if !ok {
			return fmt.Errorf("resolve: no policy %q for today's Terraform", it.TerraformPolicy)
		}
		ui := UpdaterItem{Kind: it.Kind, Name: it.Name, Constraint: it.Constraint, Installs: it.ByPolicy[it.TerraformPolicy]}
		if it.Kind == KindProvider {
			ui.Current = locked[it.Address]
		}
		if sel, err := engine.Select(p, it.Constraint, it.listed); err == nil && sel.Found {
			ui.Selects = &sel.Version
		}
		ui.Proposes = proposal(p, it.Constraint, ui.Current, ui.Selects, it.listed)
		ui.Disagreements = disagreements(p, installer, it.Constraint, &ui)
		if pin := it.Pinned; pin != nil {
			pv := pin.Version
			if v := proposal(p, pv, pv, &pv, it.listed); v != nil {
				ui.BumpsPin = v
				ui.Disagreements = append(ui.Disagreements, fmt.Sprintf("it would propose %s in place of the pin %s in %s: keep it off prerel pin's files", *v, pv, pin.File))
			}
			u.KeepOffPins = keepOffPins[p.Name()]
		}
		if len(ui.Disagreements) > 0 {
			u.Disagreements++
		}
		u.Items = append(u.Items, ui)
	}
	r.Updater = u
	return nil
}

// Proposer is implemented by an updater policy that proposes versions
// beyond the one it selects within the constraint (package updaters'
// Renovate and Dependabot). Propose returns the version proposed for a
// dependency with this constraint, at current (the locked version, or
// "" for none), when the updater selects selected within the constraint
// ("" for none), from the available versions; false for none.
type Proposer interface {
	Propose(constraint, current, selected string, available []string) (string, bool)
}

// proposal is UpdaterItem.Proposes: p's proposal when it is a Proposer
// and proposes another version than current and selects.
func proposal(p engine.Policy, constraint, current string, selects *string, listed []string) *string {
	pr, ok := p.(Proposer)
	if !ok {
		return nil
	}
	selected := ""
	if selects != nil {
		selected = *selects
	}
	v, ok := pr.Propose(constraint, current, selected, listed)
	if !ok || v == selected || v == current {
		return nil
	}
	return &v
}

// disagreements is UpdaterItem.Disagreements.
func disagreements(p, installer engine.Policy, constraint string, ui *UpdaterItem) []string {
	var out []string
	admits := func(q engine.Policy, v string) bool { return engine.Evaluate(q, constraint, v).Verdict == engine.Allow }
	if ui.Selects != nil && !admits(installer, *ui.Selects) {
		if ui.Kind == KindProvider {
			// What the updater selects within the constraint is what it
			// writes into .terraform.lock.hcl.
			out = append(out, fmt.Sprintf("init rejects the lock entry %s, which %s writes", *ui.Selects, p.Name()))
		} else {
			out = append(out, fmt.Sprintf("init refuses %s, which %s selects", *ui.Selects, p.Name()))
		}
	}
	if ui.Proposes != nil && admits(p, *ui.Proposes) && !admits(installer, *ui.Proposes) {
		out = append(out, fmt.Sprintf("init refuses %s, which %s proposes within the constraint", *ui.Proposes, p.Name()))
	}
	if ui.Installs != nil && !admits(p, *ui.Installs) {
		out = append(out, fmt.Sprintf("%s misses %s, which init installs", p.Name(), *ui.Installs))
	}
	return out
}

// updaterSection is the section of the text and Markdown reports for
// r.Updater.
func (r *Report) updaterSection(code, text func(string) string) section {
	u := r.Updater
	s := section{title: fmt.Sprintf("Updater %s versus terraform init (%d of %d disagree)", u.Name, u.Disagreements, len(u.Items))}
	show := func(v *string) string {
		if v == nil {
			return "none"
		}
		return text(*v)
	}
	// The items that disagree first, so that a cut list keeps them.
	items := make([]UpdaterItem, 0, len(u.Items))
	for _, ui := range u.Items {
		if len(ui.Disagreements) > 0 {
			items = append(items, ui)
		}
	}
	for _, ui := range u.Items {
		if len(ui.Disagreements) == 0 {
			items = append(items, ui)
		}
	}
	for _, ui := range items {
		line := fmt.Sprintf("%s %s (%s): %s selects %s", ui.Kind, code(ui.Name), text(ui.Constraint), u.Name, show(ui.Selects))
		if ui.Proposes != nil {
			line += ", proposes " + show(ui.Proposes)
		}
		line += "; init installs " + show(ui.Installs)
		for _, d := range ui.Disagreements {
			line += "; ! " + text(d)
		}
		s.lines = append(s.lines, line)
	}
	if u.KeepOffPins != "" {
		// First, so that a cut list keeps it.
		s.lines = append([]string{"to keep " + u.Name + " off prerel pin's files: " + text(u.KeepOffPins)}, s.lines...)
	}
	return s
}
