package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
)

// OverrideStale flags a prerel_override.tf that is not what prerel pin
// would write now: the same check as prerel pin --check (packages
// resolve and pin), with the policies of prerel.hcl. Versions come from
// the index file the rule's index attribute names or, by default, from
// what the root module knows offline: the module versions of
// .terraform/modules/modules.json, the provider versions of the lock file
// and the versions the override files pin. Offline, a pin that no longer
// follows from the configuration shows (the constraint or the policy
// changed); a newer version on the registry needs the index. The rule
// stays quiet in a root module with neither prerel.hcl nor a file prerel
// pin wrote.
type OverrideStale struct {
	tflint.DefaultRule
}

// Name returns the rule's name.
func (r *OverrideStale) Name() string { return "prerel_override_stale" }

// Enabled returns true: the rule is on by default.
func (r *OverrideStale) Enabled() bool { return true }

// Severity returns WARNING: init installs what the file pins, which is no
// longer what the configuration asks.
func (r *OverrideStale) Severity() tflint.Severity { return tflint.WARNING }

// Link returns the rule's documentation.
func (r *OverrideStale) Link() string { return link(r.Name()) }

// Check plans prerel pin and compares its files with the ones on disk.
func (r *OverrideStale) Check(runner tflint.Runner) error {
	rt, ok, err := rootOf(runner)
	if err != nil || !ok {
		return err
	}
	var conf sourceConfig
	if err := runner.DecodeRuleConfig(r.Name(), &conf); err != nil {
		return err
	}
	findings, err := staleOverrides(rt, conf)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if err := runner.EmitIssue(r, f.msg, f.rng); err != nil {
			return err
		}
	}
	return nil
}

// staleOverrides runs pin --check's plan and check on the root module and
// returns what differs, each at its place as tflint names it.
func staleOverrides(rt *root, conf sourceConfig) ([]finding, error) {
	tree, err := rt.loadTree(false, pin.Skip)
	if err != nil {
		return nil, err
	}
	files := pinFiles(tree)
	if len(files) == 0 && !isFile(filepath.Join(rt.dir, policyconfig.DefaultFile)) {
		return nil, nil
	}
	src, err := conf.source(rt)
	if err != nil {
		return nil, err
	}
	if src == nil {
		k, err := knownVersions(tree, rt.dir)
		if err != nil {
			return nil, err
		}
		src = k
	}
	rep, cfg, err := resolveRoot(rt, src, pin.Skip)
	if err != nil {
		return nil, err
	}
	opts := pin.Options{Policies: cfg.Registry()}
	if readsTofuFiles(tree) {
		// One override file serves both installers: where they read the
		// configuration differently, pin pins nothing.
		if opts.TerraformTree, err = rt.loadTree(true, pin.Skip); err != nil {
			return nil, err
		}
	}
	plan, err := pin.Build(rep, tree, opts)
	if err != nil {
		return nil, fmt.Errorf("prerel: %w", err)
	}
	diffs, err := pin.Check(plan)
	if err != nil {
		return nil, fmt.Errorf("prerel: %w", err)
	}
	var out []finding
	reported := map[string]bool{}
	for _, it := range rep.StalePins() {
		p := it.Pinned
		out = append(out, finding{msg: stalePinMessage(rt, &it, plan), rng: rt.fileRange(p.File, p.Line)})
		reported[filepath.ToSlash(p.File)] = true
	}
	for _, d := range diffs {
		if reported[filepath.ToSlash(d.File)] {
			continue
		}
		switch d.Kind {
		case "missing":
			rng := rt.fileRange(d.File, 1)
			var names []string
			for _, p := range plan.Pins {
				if p.File != d.File {
					continue
				}
				names = append(names, fmt.Sprintf("%s %s = %s", p.Kind, p.Name, p.Version))
				if it := findItem(rep, p.Kind, p.Name); it != nil && len(names) == 1 {
					if r, ok := rt.itemRange(it.Pos); ok {
						rng = r
					}
				}
			}
			out = append(out, finding{msg: fmt.Sprintf("prerel pin would write %s (%s): run prerel pin", d.File, strings.Join(names, ", ")), rng: rng})
		case "changed":
			out = append(out, finding{msg: fmt.Sprintf("%s is not what prerel pin would write from line %d on: run prerel pin", d.File, d.Line), rng: rt.fileRange(d.File, d.Line)})
		case "stale":
			out = append(out, finding{msg: fmt.Sprintf("prerel pin would remove %s: nothing in its module needs a pin now; run prerel pin", d.File), rng: rt.fileRange(d.File, 1)})
		}
	}
	if _, ok := src.(*known); !ok {
		// With an index or a registry, as pin --check: versions that
		// could not be listed.
		for _, it := range rep.Errors() {
			if rng, ok := rt.itemRange(it.Pos); ok {
				out = append(out, finding{msg: fmt.Sprintf("the versions of %s %s could not be listed, so the pins are not checked: %s", it.Kind, it.Name, it.Problem), rng: rng})
			}
		}
	}
	for _, l := range rep.RefusedLocks() {
		if rng, ok := rt.itemRange(l.Pos); ok {
			out = append(out, finding{msg: fmt.Sprintf("the lock file holds %s %s, which %s does not admit for %q: %s", l.Address, l.Version, l.Policy, l.Constraint, l.Reason), rng: rng})
		}
	}
	return out, nil
}

// stalePinMessage says what pin would do with an item's stale pin.
func stalePinMessage(rt *root, it *resolve.Item, plan *pin.Plan) string {
	head := fmt.Sprintf("%s %s is pinned to %s, but", it.Kind, it.Name, it.Pinned.Version)
	policy := fmt.Sprintf("policy %s (%s)", it.Policy, rt.relFrom(it.PolicyFrom))
	for _, p := range plan.Pins {
		if p.Kind == it.Kind && p.Name == it.Name {
			return fmt.Sprintf("%s %s selects %s for %q now: run prerel pin", head, policy, p.Version, it.Constraint)
		}
	}
	for _, u := range plan.Unpinned {
		if u.Kind == it.Kind && u.Name == it.Name {
			return fmt.Sprintf("%s prerel pin would remove the pin: %s", head, u.Reason)
		}
	}
	if it.Selected == nil {
		return fmt.Sprintf("%s %s selects no version for %q now; prerel pin would remove the pin", head, policy, it.Constraint)
	}
	return fmt.Sprintf("%s init installs what %s selects, %s, without it; prerel pin would remove the pin", head, policy, *it.Selected)
}

// findItem returns the report's item of that kind and name.
func findItem(rep *resolve.Report, kind resolve.Kind, name string) *resolve.Item {
	for i := range rep.Items {
		if rep.Items[i].Kind == kind && rep.Items[i].Name == name {
			return &rep.Items[i]
		}
	}
	return nil
}

// isFile reports whether path is an existing file.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}
