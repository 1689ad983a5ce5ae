package adapters_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/policies"
)

// TestGoVersionsCargoIsTheSketch checks that for ">= 1.1.0-beta.2" the
// adapter's set is the expression
// AtLeast(bound).Intersection(AtMost(coreBound)).Union(AtLeast(bound).WithoutUnrequestedPrereleases()),
// version by version over the versions of the largest exhaustive scope and
// a few more.
func TestGoVersionsCargoIsTheSketch(t *testing.T) {
	bound := versions.MustParseVersion("1.1.0-beta.2")
	core := versions.MustParseVersion("1.1.0")
	sketch := versions.AtLeast(bound).Intersection(versions.AtMost(core)).Union(versions.AtLeast(bound).WithoutUnrequestedPrereleases())

	m, err := adapters.GoVersionsCargo{}.Compile(">= 1.1.0-beta.2")
	if err != nil {
		t.Fatal(err)
	}
	candidates := []string{"1.1.0-beta.1", "1.1.0-beta.2", "1.1.0-beta.3", "1.1.0-rc.1", "1.1.0", "1.1.1-beta", "1.2.0", "2.0.0-beta.1", "1.1.0-beta.2+b", "1.0.0"}
	d, err := compare.Exhaustive(compare.MaxScope)
	if err != nil {
		t.Fatal(err)
	}
	err = d.Groups(func(g compare.Group) bool {
		candidates = append(candidates, g.Versions...)
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range candidates {
		v, err := versions.ParseVersion(text)
		if err != nil {
			continue
		}
		got := m.Match(text).Verdict == engine.Allow
		if want := sketch.Has(v); got != want {
			t.Errorf(">= 1.1.0-beta.2 | %s: adapter %v, sketch %v", text, got, want)
		}
	}
}

// The reasons go-versions-cargo and cargo may differ for, as the proof
// names them: each is a way go-versions reads the text, none is the
// prerelease rule.
const (
	whyVPrefix    = "v prefix refused"        // ParseRubyStyleMulti or ParseVersion refuses a "v"
	whyUnspec     = "0.0.0 is Unspecified"    // Set.Has answers false for 0.0.0
	whyMetadata   = "build metadata"          // "=" and "!=" sets are keyed by the whole version
	whyPrecedence = "prerelease precedence"   // fewer prerelease identifiers sort lower
	whyBoth       = "metadata and precedence" // only both readings together explain the case
	whyUnknown    = "unexplained"             // none of the above: a difference of the rule
)

// goVersionsCargoProof is what the harness finds, comparing cargo (a) with
// go-versions-cargo (b) on one exhaustive scope: the agreement, the
// divergence classes by cause (classes, cases, and one witness of the
// cause), and every diverging case explained by one reason.
type goVersionsCargoProof struct {
	scope          int
	agree, diverge int64
	causes         map[compare.Cause][2]int64 // classes, cases
	witnesses      []goVersionsCargoWitness
	reasons        map[string]int64 // cases by reason
}

var goVersionsCargoProofs = []goVersionsCargoProof{
	{
		// Every day: scope 1 has no "v" prefix, which scopes 2 and 4
		// prove in the long run.
		scope: 1, agree: 31139, diverge: 613,
		causes: map[compare.Cause][2]int64{
			compare.CauseUnknown:    {30, 171},
			compare.CauseMetadata:   {72, 254},
			compare.CausePrecedence: {53, 188},
		},
		witnesses: []goVersionsCargoWitness{
			{compare.CauseUnknown, "< 1", "0.0.0", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "1", "1.0.0+b", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "!= 1", "1.0.0+b", engine.Reject, engine.Allow},
			{compare.CauseMetadata, "= 1.0.0-beta", "1.0.0-beta+b", engine.Allow, engine.Reject},
			{compare.CausePrecedence, "~> 1.0.0-beta", "1.0.0-alpha.beta", engine.Reject, engine.Allow},
		},
		reasons: map[string]int64{
			whyUnspec:     171,
			whyMetadata:   254,
			whyPrecedence: 188,
		},
	},
	{
		scope: 2, agree: 379320, diverge: 73860,
		causes: map[compare.Cause][2]int64{
			compare.CauseSyntax:     {64, 71388},
			compare.CauseUnknown:    {54, 666},
			compare.CauseMetadata:   {222, 1050},
			compare.CausePrecedence: {138, 756},
		},
		witnesses: []goVersionsCargoWitness{
			{compare.CauseSyntax, "v1.0.0", "1.0.0", engine.Allow, engine.Invalid},
			{compare.CauseSyntax, "1", "v1.0.0-beta", engine.Reject, engine.Invalid},
			{compare.CauseUnknown, "< 1", "0.0.0", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "1", "1.0.0+b", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "!= 1", "1.0.0+b", engine.Reject, engine.Allow},
			{compare.CauseMetadata, "= 1.0.0-beta", "1.0.0-beta+b", engine.Allow, engine.Reject},
			{compare.CausePrecedence, "~> 1.0.0-beta", "1.0.0-alpha.beta", engine.Reject, engine.Allow},
		},
		reasons: map[string]int64{
			whyVPrefix:    71388,
			whyUnspec:     666,
			whyMetadata:   1050,
			whyPrecedence: 756,
		},
	},
	{
		scope: 4, agree: 4206269, diverge: 410623,
		causes: map[compare.Cause][2]int64{
			compare.CauseSyntax:     {66, 400108},
			compare.CauseUnknown:    {170, 3240},
			compare.CauseMetadata:   {353, 2514},
			compare.CausePrecedence: {645, 4761},
		},
		witnesses: []goVersionsCargoWitness{
			{compare.CauseSyntax, "v1.0.0", "1.0.0", engine.Allow, engine.Invalid},
			{compare.CauseSyntax, "0", "v1.0.0-beta", engine.Reject, engine.Invalid},
			{compare.CauseUnknown, "< 1", "0.0.0", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "1", "1.0.0+b", engine.Allow, engine.Reject},
			{compare.CauseMetadata, "!= 1", "1.0.0+b", engine.Reject, engine.Allow},
			{compare.CausePrecedence, ">= 1.0.0-alpha.1", "1.0.0-beta", engine.Allow, engine.Reject},
			{compare.CausePrecedence, "~> 1.0.0-beta", "1.0.0-alpha.beta", engine.Reject, engine.Allow},
		},
		reasons: map[string]int64{
			whyVPrefix:    400108,
			whyUnspec:     3240,
			whyMetadata:   2498,
			whyPrecedence: 4762,
			whyBoth:       15,
		},
	},
}

// goVersionsCargoWitness is the witness of one class: its cause, its case
// and the verdicts of cargo and go-versions-cargo.
type goVersionsCargoWitness struct {
	cause               compare.Cause
	constraint, version string
	cargo, goVersions   engine.Verdict
}

// TestGoVersionsCargoAgainstCargo runs cargo and go-versions-cargo through
// the harness on the exhaustive domain and pins what it finds: the
// agreement, the classes and cases of each cause, witnesses, and every
// class in a golden file (testdata/go-versions-cargo), so that any new or
// vanished class fails. No class has the prerelease rule as its cause:
// the two differ only where go-versions reads the text differently (a "v"
// prefix refused, build metadata in "=" and "!=", its prerelease
// precedence) and on 0.0.0, which go-versions treats as its Unspecified
// version and the harness's counterfactuals cannot change, so it names
// that cause unknown. Then every diverging case is explained on its own.
// Every day on scope 1, where every cause but the "v" prefix shows; on
// scopes 2 and 4 in the long run.
func TestGoVersionsCargoAgainstCargo(t *testing.T) {
	longtest.SkipShort(t)
	for _, want := range goVersionsCargoProofs {
		t.Run(fmt.Sprintf("scope %d", want.scope), func(t *testing.T) {
			if want.scope > compare.MinScope && !longtest.Enabled() {
				t.Skipf("scope %d judges hundreds of thousands of cases twice or more: a long test (%s=1); every day scope %d is proven", want.scope, longtest.Env, compare.MinScope)
			}
			checkGoVersionsCargoProof(t, want)
		})
	}
}

func checkGoVersionsCargoProof(t *testing.T, want goVersionsCargoProof) {
	a, b := policies.Cargo{}, adapters.GoVersionsCargo{}
	d, err := compare.Exhaustive(want.scope)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compare.Run(context.Background(), d, []engine.Policy{a, b}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pair, _ := r.PairOf(a.Name(), b.Name())
	if pair.Agree != want.agree || pair.Diverge != want.diverge || pair.CasesLeftOut != 0 {
		t.Errorf("agree %d, diverge %d, left out %d; want %d, %d, 0", pair.Agree, pair.Diverge, pair.CasesLeftOut, want.agree, want.diverge)
	}

	causes := map[compare.Cause][2]int64{}
	var list strings.Builder
	fmt.Fprintf(&list, "# cargo (a) vs go-versions-cargo (b), %s\n", r.Domain.Description)
	fmt.Fprintf(&list, "# cause\tcases\tsignature\twitness\n")
	for _, c := range r.Classes {
		n := causes[c.Cause]
		causes[c.Cause] = [2]int64{n[0] + 1, n[1] + c.Count}
		w := c.Witness
		fmt.Fprintf(&list, "%s\t%d\t%s\t%q | %q (%s/%s)\n", c.Cause, c.Count, c.Signature, w.Constraint, w.Version, w.AVerdict, w.BVerdict)
	}
	golden.Check(t, filepath.Join("testdata", "go-versions-cargo", fmt.Sprintf("scope-%d.txt", want.scope)), []byte(list.String()))
	if !maps.Equal(causes, want.causes) {
		t.Errorf("classes and cases by cause:\n%v\nwant\n%v", causes, want.causes)
	}
	for _, w := range want.witnesses {
		found := false
		for _, c := range r.Classes {
			cw := c.Witness
			if c.Cause == w.cause && cw.Constraint == w.constraint && cw.Version == w.version && cw.AVerdict == w.cargo && cw.BVerdict == w.goVersions {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no class with witness %q | %q (%s/%s)", w.cause, w.constraint, w.version, w.cargo, w.goVersions)
		}
	}

	reasons, examples := explainDivergences(t, d, a, b)
	if !maps.Equal(reasons, want.reasons) {
		t.Errorf("diverging cases by reason:\n%v\nwant\n%v\nexamples: %v", reasons, want.reasons, examples)
	}
	var total int64
	for _, n := range reasons {
		total += n
	}
	if total != pair.Diverge {
		t.Errorf("%d diverging cases explained, the report counts %d", total, pair.Diverge)
	}
}

var (
	buildMetadata = regexp.MustCompile(`\+[0-9A-Za-z.-]+`)
	vPrefix       = regexp.MustCompile(`\bv([0-9])`)
)

// explainDivergences judges every case of d with both policies and names,
// for each case where they differ, the one reading of go-versions that
// explains it, by changing the case until they agree:
//
//   - v prefix refused: b refuses the text with go-versions' "v" prefix
//     error, and accepts it with every "v" removed (the case without the
//     "v" is a case of the domain too, explained on its own);
//   - 0.0.0 is Unspecified: the version is 0.0.0, a admits it, b does not;
//   - build metadata: with every "+build" removed the two agree;
//   - prerelease precedence: compare.CauseOf names the precedence quirk
//     (with every prerelease renamed in SemVer order the two agree);
//   - metadata and precedence: neither change alone, but with "+build"
//     removed compare.CauseOf names the precedence quirk.
//
// It returns the cases by reason, and the first case of each.
func explainDivergences(t *testing.T, d compare.Domain, a, b engine.Policy) (map[string]int64, map[string]string) {
	t.Helper()
	counts, examples := map[string]int64{}, map[string]string{}
	judge := func(m engine.Matcher, err error, v string) engine.Result {
		if err != nil {
			return engine.InvalidResult(err)
		}
		return m.Match(v)
	}
	agree := func(c, v string) bool {
		return engine.Evaluate(a, c, v).Verdict == engine.Evaluate(b, c, v).Verdict
	}
	err := d.Groups(func(g compare.Group) bool {
		ma, errA := a.Compile(g.Constraint)
		mb, errB := b.Compile(g.Constraint)
		for _, v := range g.Versions {
			ra, rb := judge(ma, errA, v), judge(mb, errB, v)
			if ra.Verdict == rb.Verdict {
				continue
			}
			why := whyUnknown
			stripped, strippedV := buildMetadata.ReplaceAllString(g.Constraint, ""), buildMetadata.ReplaceAllString(v, "")
			switch {
			case ra.Verdict == engine.Invalid:
			case rb.Verdict == engine.Invalid:
				without := engine.Evaluate(b, vPrefix.ReplaceAllString(g.Constraint, "$1"), vPrefix.ReplaceAllString(v, "$1"))
				if strings.Contains(rb.Reason, `a "v" prefix should not be used`) && without.Verdict != engine.Invalid {
					why = whyVPrefix
				}
			case v == "0.0.0":
				if ra.Verdict == engine.Allow {
					why = whyUnspec
				}
			case (stripped != g.Constraint || strippedV != v) && agree(stripped, strippedV):
				why = whyMetadata
			case compare.CauseOf(a, b, g.Constraint, v) == compare.CausePrecedence:
				why = whyPrecedence
			case compare.CauseOf(a, b, stripped, strippedV) == compare.CausePrecedence:
				why = whyBoth
			}
			counts[why]++
			if _, ok := examples[why]; !ok {
				examples[why] = fmt.Sprintf("%q | %q (%s/%s)", g.Constraint, v, ra.Verdict, rb.Verdict)
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts, examples
}

// TestGoVersionsCargoWindowsMeetTheWholeRange shows why the windows are
// intersected with the whole range: with each comparator's window
// intersected with that comparator's range alone, "< 1.0.0" keeps only
// releases and ">= 1.0.0-beta, < 1.0.0" loses 1.0.0-rc.1, which cargo and
// go-versions-cargo admit.
func TestGoVersionsCargoWindowsMeetTheWholeRange(t *testing.T) {
	const constraint, version = ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1"
	ge := versions.AtLeast(versions.MustParseVersion("1.0.0-beta"))
	lt := versions.OlderThan(versions.MustParseVersion("1.0.0"))
	window := versions.AtLeast(versions.MustParseVersion("1.0.0-0")).Intersection(lt)
	perComparator := versions.Intersection(
		ge.Intersection(window).Union(ge.WithoutUnrequestedPrereleases()),
		lt.WithoutUnrequestedPrereleases(),
	)
	if perComparator.Has(versions.MustParseVersion(version)) {
		t.Errorf("per-comparator windows admit %s for %q", version, constraint)
	}
	for _, p := range []engine.Policy{policies.Cargo{}, adapters.GoVersionsCargo{}} {
		if r := engine.Evaluate(p, constraint, version); r.Verdict != engine.Allow {
			t.Errorf("%s: %q | %q = %s (%s), want allow", p.Name(), constraint, version, r.Verdict, r.Reason)
		}
	}
}
