package impact

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/installer"
)

// Options says which policies Run compares.
type Options struct {
	// Policy is P; required.
	Policy engine.Policy
	// Against is B for every call; nil means today's installers, looked
	// up in Policies: resolve.TerraformModulePolicy for module calls,
	// resolve.ProviderPolicy for provider requirements.
	Against engine.Policy
	// Policies holds today's installers; required when Against is nil.
	Policies *engine.Registry
	// SimulatePrereleases inserts X.Y.Z-beta.1 and X.Y.Z-rc.1 before each
	// release X.Y.Z of every history that offers no prerelease.
	SimulatePrereleases bool
	// Terraform and OpenTofu are the releases today's installers stand
	// for, named in the report; the zero Release means the newest of
	// each (package terraform/installer). Every release has the same
	// prerelease rule, so they change no class.
	Terraform, OpenTofu installer.Release
	// Cooldown is a minimum release age on P's selections (engine.Cooldown,
	// the policy first); B, today's init, has none. It needs histories
	// with dates (History.Published): an undated version is held back
	// unless Cooldown.AllowUndated.
	Cooldown engine.Cooldown
}

// maxExamples is how many left-out history lines the report names.
const maxExamples = 3

// assessKey is what an assessment depends on: B, the constraint and the
// history (P is the same for every call).
type assessKey struct {
	against, constraint, history string
}

// triple is a distinct (repository, source, constraint).
type triple struct{ repo, source, constraint string }

// caseKey is one Case.
type caseKey struct {
	kind                        Kind
	source, constraint, history string
}

// Run assesses every call of d with a history and counts the classes.
func Run(d *Domain, opts Options) (*Report, error) {
	if opts.Policy == nil {
		return nil, errors.New("impact: Options.Policy is required")
	}
	against, err := baselines(opts)
	if err != nil {
		return nil, err
	}
	r := &Report{
		Schema:         SchemaVersion,
		Policy:         opts.Policy.Name(),
		Against:        Against{Module: against[KindModule].Name(), Provider: against[KindProvider].Name(), Today: opts.Against == nil},
		Domain:         DomainInfo{Name: d.Name, Dirs: d.Dirs, VersionsFrom: d.VersionsFrom, Sample: d.Sample},
		RefusedByBoth:  RefusedByBoth{Constraints: []string{}},
		WithoutHistory: []SourceCount{},
		Skipped:        nonNil(d.Skipped),
		Unread:         d.Unread,
		Problems:       nonNil(d.Problems),
	}
	if r.Against.Today {
		tf, tofu := opts.Terraform, opts.OpenTofu
		if tf.IsZero() {
			tf = installer.Newest(installer.Terraform)
		}
		if tofu.IsZero() {
			tofu = installer.Newest(installer.OpenTofu)
		}
		r.Against.Installers = []string{tf.String(), tofu.String()}
	}
	r.NotVersions.Examples, r.Repeated.Examples = []LineExample{}, []LineExample{}
	if r.Unread == nil {
		r.Unread = []Unread{}
	}

	offers := map[string]*offer{}
	assessed := map[assessKey]Assessment{}
	acc := newAccumulator()
	for i := range d.Calls {
		c := &d.Calls[i]
		b := against[c.Kind]
		if b == nil {
			return nil, fmt.Errorf("impact: call %s %s: unknown kind %q", c.Repo, c.Place(), c.Kind)
		}
		h := d.Histories[c.History]
		if c.History == "" || h == nil {
			acc.without(c)
			continue
		}
		o := offers[c.History]
		if o == nil {
			o = newOffer(h, opts.SimulatePrereleases)
			offers[c.History] = o
			r.NotVersions.add(h.Name, o.notVersions)
			r.Repeated.add(h.Name, o.repeated)
		}
		k := assessKey{b.Name(), c.Constraint, c.History}
		a, ok := assessed[k]
		if !ok {
			if opts.Cooldown.Active() {
				a = AssessCooled(opts.Policy, b, c.Constraint, o.versions, h.dates(o.versions), opts.Cooldown)
			} else {
				a = Assess(opts.Policy, b, c.Constraint, o.versions)
			}
			assessed[k] = a
		}
		acc.add(c, a, o, h)
	}
	acc.fill(r, d, offers, opts.SimulatePrereleases)
	if opts.Cooldown.Active() {
		r.Cooldown = engine.FormatMinAge(opts.Cooldown.MinAge) + " at " + opts.Cooldown.Now.UTC().Format(time.RFC3339)
	}
	r.run = &runInputs{domain: d, policy: opts.Policy, against: against, simulate: opts.SimulatePrereleases}
	return r, nil
}

// baselines returns B for each kind.
func baselines(opts Options) (map[Kind]engine.Policy, error) {
	if opts.Against != nil {
		return map[Kind]engine.Policy{KindModule: opts.Against, KindProvider: opts.Against}, nil
	}
	if opts.Policies == nil {
		return nil, errors.New("impact: Options.Policies is required when Options.Against is nil")
	}
	out := map[Kind]engine.Policy{}
	for kind, name := range map[Kind]string{KindModule: resolve.TerraformModulePolicy, KindProvider: resolve.ProviderPolicy} {
		p, ok := opts.Policies.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("impact: the policy %q, which stands for today's installer, is not registered", name)
		}
		out[kind] = p
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// add counts left-out lines of one history.
func (l *LeftOut) add(history string, lines []string) {
	if len(lines) == 0 {
		return
	}
	l.Lines += len(lines)
	l.Histories++
	for _, line := range lines {
		if len(l.Examples) < maxExamples {
			l.Examples = append(l.Examples, LineExample{History: history, Line: line})
		}
	}
}

// member is one assessed call.
type member struct {
	call    *Call
	a       Assessment
	offer   *offer
	history *History
}

// accumulator gathers the calls while Run goes through them.
type accumulator struct {
	data          Data
	repos         map[string]bool
	distinct      map[triple]bool
	distinctHist  map[triple]bool
	histories     map[string]bool
	members       map[Class][]member
	noHistory     map[[2]string]int
	refusedByBoth map[string]bool
}

func newAccumulator() *accumulator {
	return &accumulator{
		repos: map[string]bool{}, distinct: map[triple]bool{}, distinctHist: map[triple]bool{},
		histories: map[string]bool{}, members: map[Class][]member{}, noHistory: map[[2]string]int{},
		refusedByBoth: map[string]bool{},
	}
}

// count counts c in the data.
func (acc *accumulator) count(c *Call) {
	acc.data.Calls++
	if c.Kind == KindModule {
		acc.data.ModuleCalls++
	} else {
		acc.data.ProviderCalls++
	}
	acc.repos[c.Repo] = true
	acc.distinct[tripleOf(c)] = true
}

func tripleOf(c *Call) triple { return triple{c.Repo, c.SourceKey, c.Constraint} }

// without counts a call without a history.
func (acc *accumulator) without(c *Call) {
	acc.count(c)
	acc.data.WithoutHistory++
	acc.noHistory[[2]string{string(c.Kind), c.SourceKey}]++
}

// add counts an assessed call.
func (acc *accumulator) add(c *Call, a Assessment, o *offer, h *History) {
	acc.count(c)
	acc.data.WithHistory++
	acc.distinctHist[tripleOf(c)] = true
	acc.histories[c.History] = true
	acc.members[a.Class] = append(acc.members[a.Class], member{c, a, o, h})
	if a.Class == Unchanged && a.Against.Refused() {
		acc.refusedByBoth[c.Constraint] = true
	}
}

// fill writes the counts, classes and examples into r.
func (acc *accumulator) fill(r *Report, d *Domain, offers map[string]*offer, simulate bool) {
	acc.data.Repositories = len(acc.repos)
	acc.data.RepositoriesRead = max(d.Repositories, len(acc.repos))
	acc.data.Distinct = len(acc.distinct)
	acc.data.DistinctWithHistory = len(acc.distinctHist)
	acc.data.Histories = len(acc.histories)
	r.Data = acc.data

	for k, n := range acc.noHistory {
		r.WithoutHistory = append(r.WithoutHistory, SourceCount{Kind: Kind(k[0]), SourceKey: k[1], Calls: n})
	}
	slices.SortFunc(r.WithoutHistory, func(a, b SourceCount) int {
		return cmp.Or(b.Calls-a.Calls, cmp.Compare(a.SourceKey, b.SourceKey), cmp.Compare(a.Kind, b.Kind))
	})

	changed := map[triple]bool{}
	for _, class := range Classes {
		ms := acc.members[class]
		cr := ClassReport{Class: class, Changed: class.Changed(), Cases: []Case{}}
		cr.Calls, cr.Distinct = len(ms), distinctOf(ms)
		cr.Percent = percent(cr.Calls, acc.data.WithHistory)
		for _, m := range ms {
			if m.offer.simulated {
				cr.Simulated++
			}
		}
		if class.Changed() {
			cr.ByCause = byCause(ms)
			for _, m := range ms {
				changed[tripleOf(m.call)] = true
			}
			r.Changed.Calls += len(ms)
			if len(ms) > 0 {
				cr.Example = example(smallest(ms))
				cr.Cases = cases(ms)
			}
		} else {
			for _, m := range ms {
				if m.a.Against.Refused() {
					r.RefusedByBoth.Calls++
				}
			}
		}
		r.Classes = append(r.Classes, cr)
	}
	r.Changed.Distinct = len(changed)
	for c := range acc.refusedByBoth {
		r.RefusedByBoth.Constraints = append(r.RefusedByBoth.Constraints, c)
	}
	slices.Sort(r.RefusedByBoth.Constraints)

	if simulate {
		sim := &Simulation{HistoriesUsed: len(offers)}
		for _, o := range offers {
			if o.simulated {
				sim.Histories++
			}
		}
		for _, ms := range acc.members {
			for _, m := range ms {
				if m.offer.simulated {
					sim.Calls++
				}
			}
		}
		r.Simulated = sim
	}
}

// percent is n of total in percent, rounded to one decimal.
func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return math.Round(1000*float64(n)/float64(total)) / 10
}

func distinctOf(ms []member) int {
	seen := map[triple]bool{}
	for _, m := range ms {
		seen[tripleOf(m.call)] = true
	}
	return len(seen)
}

func byCause(ms []member) *ByCause {
	var rule, reading, cooldown []member
	for _, m := range ms {
		switch m.a.Cause {
		case CausePrereleaseRule:
			rule = append(rule, m)
		case CauseCooldown:
			cooldown = append(cooldown, m)
		default:
			reading = append(reading, m)
		}
	}
	bc := &ByCause{
		PrereleaseRule: Tally{Calls: len(rule), Distinct: distinctOf(rule)},
		Reading:        Tally{Calls: len(reading), Distinct: distinctOf(reading)},
	}
	if len(cooldown) > 0 {
		bc.Cooldown = &Tally{Calls: len(cooldown), Distinct: distinctOf(cooldown)}
	}
	return bc
}

// compareSmallest orders members as the package documentation says:
// the history that publishes the fewest versions, the shortest
// constraint, the constraint text, the repository, the path, the line.
func compareSmallest(a, b member) int {
	return cmp.Or(
		cmp.Compare(a.offer.published, b.offer.published),
		cmp.Compare(len(a.call.Constraint), len(b.call.Constraint)),
		cmp.Compare(a.call.Constraint, b.call.Constraint),
		cmp.Compare(a.call.Repo, b.call.Repo),
		cmp.Compare(a.call.Path, b.call.Path),
		cmp.Compare(a.call.Line, b.call.Line),
	)
}

func smallest(ms []member) member { return slices.MinFunc(ms, compareSmallest) }

// example is the full account of one member.
func example(m member) *Example {
	nearby, after := m.offer.nearby(m.a.Against.Version(), m.a.Policy.Version())
	return &Example{
		Call: *m.call, Against: m.a.Against, Policy: m.a.Policy, Cause: m.a.Cause,
		History: HistoryInfo{Name: m.history.Name, From: m.history.From, Versions: len(m.offer.versions),
			Published: m.offer.published, Simulated: m.offer.simulated, Nearby: nearby, After: after},
	}
}

// cases groups members into cases, the most calls first, then the one
// with the smallest member first.
func cases(ms []member) []Case {
	type group struct {
		c     Case
		min   member
		repos map[string]bool
	}
	groups := map[caseKey]*group{}
	var order []*group
	for _, m := range ms {
		k := caseKey{m.call.Kind, m.call.SourceKey, m.call.Constraint, m.call.History}
		g := groups[k]
		if g == nil {
			g = &group{c: Case{Kind: m.call.Kind, SourceKey: m.call.SourceKey, Source: m.call.Source,
				Constraint: m.call.Constraint, History: m.history.Name, Against: m.a.Against, Policy: m.a.Policy,
				Cause: m.a.Cause, Simulated: m.offer.simulated}, min: m, repos: map[string]bool{}}
			groups[k] = g
			order = append(order, g)
		}
		g.c.Calls++
		g.repos[m.call.Repo] = true
		if compareSmallest(m, g.min) < 0 {
			g.min = m
		}
	}
	slices.SortFunc(order, func(a, b *group) int {
		return cmp.Or(b.c.Calls-a.c.Calls, compareSmallest(a.min, b.min))
	})
	out := make([]Case, len(order))
	for i, g := range order {
		g.c.Repos = len(g.repos)
		g.c.Source = g.min.call.Source
		out[i] = g.c
	}
	return out
}
