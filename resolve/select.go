package resolve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/registry"
)

// listing is the answer to one version lookup.
type listing struct {
	listing *registry.Listing
	err     error
}

// lookup lists the versions of every distinct address once, at most n
// at once (DefaultConcurrency when n is 0 or less). The jobs of one
// address share its listing, so that the answers, and the order they are
// reported in (the jobs'), do not depend on which lookup ends first.
func lookup(ctx context.Context, src registry.Source, jobs []*job, n int) map[lookupKey]listing {
	if n <= 0 {
		n = DefaultConcurrency
	}
	var keys []lookupKey
	seen := map[lookupKey]bool{}
	for _, j := range jobs {
		if !seen[j.key] {
			seen[j.key] = true
			keys = append(keys, j.key)
		}
	}
	results := make([]listing, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if k.kind == KindModule {
				results[i].listing, results[i].err = src.ModuleVersions(ctx, k.module)
			} else {
				results[i].listing, results[i].err = src.ProviderVersions(ctx, k.provider)
			}
		}()
	}
	wg.Wait()
	out := make(map[lookupKey]listing, len(keys))
	for i, k := range keys {
		out[k] = results[i]
	}
	return out
}

// policies returns the policies shown for the job, each once: the chosen
// one, today's Terraform and OpenTofu, then the extra ones.
func (j *job) policies(extra []engine.Policy) []engine.Policy {
	var ps []engine.Policy
	for _, p := range append([]engine.Policy{j.chosen, j.today.terraform, j.today.opentofu}, extra...) {
		if !slices.ContainsFunc(ps, func(q engine.Policy) bool { return q.Name() == p.Name() }) {
			ps = append(ps, p)
		}
	}
	return ps
}

// resolve selects with every policy shown and fills in the item.
func (j *job) resolve(l listing, extra []engine.Policy, d datesOf) Item {
	it := j.item
	it.TerraformPolicy, it.OpenTofuPolicy = j.today.terraform.Name(), j.today.opentofu.Name()
	ps := j.policies(extra)
	it.ByPolicy = map[string]*string{}
	for _, p := range ps {
		it.columns = append(it.columns, p.Name())
		it.ByPolicy[p.Name()] = nil
	}
	switch {
	case l.err != nil:
		it.Status, it.Problem, it.err = StatusError, l.err.Error(), l.err
		return it
	case l.listing == nil:
		it.Status, it.Problem = StatusError, "no versions were listed"
		return it
	}
	versions := l.listing.Versions
	it.From, it.Available = l.listing.From, len(versions)
	it.listed = versions
	if v, ok := newest(versions); ok {
		it.Newest = &v
	}
	it.selectAll(ps, versions)
	it.Selected = it.ByPolicy[j.chosen.Name()]
	if j.want.Version != "" {
		it.applyWant(j.want, versions)
	}
	j.applyCooldown(&it, versions, d)
	it.ChangesTerraform = !sameVersion(it.Selected, it.ByPolicy[it.TerraformPolicy])
	it.ChangesOpenTofu = !sameVersion(it.Selected, it.ByPolicy[it.OpenTofuPolicy])
	it.Status, it.Problem = it.status()
	return it
}

// selectAll runs engine.Select for every policy and gathers the refusals
// and the versions some policy cannot read.
func (it *Item) selectAll(ps []engine.Policy, versions []string) {
	var unreadable []Unreadable
	index := map[string]int{} // version → its place in unreadable
	for _, p := range ps {
		sel, err := engine.Select(p, it.Constraint, versions)
		if err != nil {
			if it.Refused == nil {
				it.Refused = map[string]string{}
			}
			it.Refused[p.Name()] = err.Error()
			continue
		}
		if sel.Found {
			v := sel.Version
			it.ByPolicy[p.Name()] = &v
		}
		for _, u := range sel.Unreadable {
			i, ok := index[u.Version]
			if !ok {
				i = len(unreadable)
				index[u.Version] = i
				unreadable = append(unreadable, Unreadable{Version: u.Version, Reason: u.Reason})
			}
			unreadable[i].Policies = append(unreadable[i].Policies, p.Name())
		}
	}
	it.Unreadable = unreadable
}

// status says whether the chosen policy selected a version and, if not,
// why, naming every requirement with its origin.
func (it *Item) status() (Status, string) {
	if w := it.Wanted; w != nil && it.Selected == nil {
		return StatusUnsatisfied, fmt.Sprintf("the version wanted (%s), %s, is not among the %d versions the registry lists for %s %s%s",
			w.From, w.Version, it.Available, it.Kind, it.Source, didYouMean(w.Version, it.listed))
	}
	if reason := it.Refused[it.Policy]; reason != "" {
		return StatusUnsatisfied, fmt.Sprintf("policy %s refuses the constraint %q: %s", it.Policy, it.Constraint, reason)
	}
	if it.Selected != nil {
		return StatusOK, ""
	}
	if c := it.Cooldown; c != nil && c.Changed {
		return StatusUnsatisfied, fmt.Sprintf("the cooldown (min_age %s, %s) holds back every version policy %s admits for %s %s: %s",
			c.MinAge, c.From, it.Policy, it.Kind, it.Source, heldList(it.HeldBack))
	}
	wanted := fmt.Sprintf("the constraint %q", it.Constraint)
	if it.Kind == KindProvider {
		wanted = it.Origins()
	}
	problem := fmt.Sprintf("no available version of %s %s matches %s under policy %s", it.Kind, it.Source, wanted, it.Policy)
	switch {
	case it.Available == 0:
		problem += "; the registry lists no versions"
	case it.Newest != nil:
		problem += fmt.Sprintf("; the newest available version is %s", *it.Newest)
	default:
		problem += "; no listed version can be read"
	}
	return StatusUnsatisfied, problem
}

// Origins returns the requirements with where each comes from, as one
// line: `root: >= 6.0; module.eks: ~> 6.10.0`. A requirement with no
// constraint shows as "(any)".
func (it *Item) Origins() string {
	parts := make([]string, len(it.Requirements))
	for i, r := range it.Requirements {
		c := r.Constraint
		if c == "" {
			c = "(any)"
		}
		parts[i] = r.Module + ": " + c
	}
	return strings.Join(parts, "; ")
}

func sameVersion(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// newest returns the newest version of vs by SemVer precedence, among those
// the engine can read.
func newest(vs []string) (string, bool) {
	var best engine.Version
	var text string
	found := false
	for _, s := range vs {
		v, err := engine.ParseVersion(s)
		if err != nil {
			continue
		}
		if !found || best.Less(v) {
			best, text, found = v, s, true
		}
	}
	return text, found
}
