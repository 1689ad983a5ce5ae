package resolve

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// checkLocks judges every locked provider against the configuration:
// the chosen policy's verdict and today's installer's on the locked
// version, for the provider's combined constraint.
func checkLocks(locked []config.LockedProvider, jobs []*job, items []Item, rel func(hcl.Range) string) []Lock {
	out := []Lock{}
	for _, lp := range locked {
		l := Lock{Address: lp.Address, Version: lp.Version, LockedConstraints: lp.Constraints, Pos: rel(lp.Pos), Range: lp.Pos}
		if i := providerIndex(jobs, lp.Address); i >= 0 {
			it, j := items[i], jobs[i]
			l.Required, l.Name, l.Constraint, l.Policy = true, it.Name, it.Constraint, it.Policy
			res := engine.Evaluate(j.chosen, it.Constraint, lp.Version)
			today := engine.Evaluate(j.today.terraform, it.Constraint, lp.Version).Verdict
			l.Verdict, l.Reason, l.TerraformVerdict = &res.Verdict, res.Reason, &today
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b Lock) int { return strings.Compare(a.Address, b.Address) })
	return out
}

// providerIndex returns the index of the provider job for a lock file's
// address, or -1.
func providerIndex(jobs []*job, addr string) int {
	p, err := address.ParseProvider(addr)
	if err != nil {
		return -1
	}
	return slices.IndexFunc(jobs, func(j *job) bool { return j.key.kind == KindProvider && j.key.provider == p })
}
