package compare_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/internal/jsonstream"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/longtest"
)

// onText hides everything but engine.Policy (and engine.Selector, when
// the policy has it) of a policy, so that a run judges it on text:
// Compile, then Match for every version, through engine.TextTable.
type onText struct{ p engine.Policy }

func (t onText) Name() string                                      { return t.p.Name() }
func (t onText) Rule() string                                      { return t.p.Rule() }
func (t onText) Compile(constraint string) (engine.Matcher, error) { return t.p.Compile(constraint) }

// selectorOnText is onText for a policy that is an engine.Selector.
type selectorOnText struct{ onText }

func (t selectorOnText) Select(constraint string, available []string) (engine.Selection, error) {
	return t.p.(engine.Selector).Select(constraint, available)
}

// textOnly wraps every policy with onText.
func textOnly(policies []engine.Policy) []engine.Policy {
	out := make([]engine.Policy, len(policies))
	for i, p := range policies {
		if _, ok := p.(engine.Selector); ok {
			out[i] = selectorOnText{onText{p}}
		} else {
			out[i] = onText{p}
		}
	}
	return out
}

// reportBytes is the JSON form of r and of its baseline, verdicts
// included, as WriteJSON writes them but not indented: the same bytes
// but for the blanks, which indenting a report of every verdict spends a
// third of the test on.
func reportBytes(t *testing.T, r *compare.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jsonstream.Write(&buf, r, false); err != nil {
		t.Fatal(err)
	}
	if err := jsonstream.Write(&buf, r.Baseline(), false); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The fast path (each policy's own VersionTable, verdict vectors, reasons
// fetched for the witnesses at the end) gives the report that judging
// every case on text gives, byte for byte, baseline verdicts included,
// with every registered policy: on the smallest exhaustive domain every
// day, on the default one in the long run (longtest).
func TestFastPathMatchesText(t *testing.T) {
	longtest.SkipShort(t)
	scope := longtest.Pick(compare.MinScope, compare.DefaultScope)
	policies := catalogue.New().All()
	// Every day every sixth group of scope 1 (each policy's table is
	// proven against its text on more in its own package); the whole
	// default scope in the long run.
	var d compare.Domain = mustExhaustive(t, scope)
	if !longtest.Enabled() {
		d = everyNth{d, 6}
	}
	want, err := compare.Run(context.Background(), d, textOnly(policies), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := compare.Run(context.Background(), d, policies, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reportBytes(t, got), reportBytes(t, want)) {
		t.Errorf("%s: the report differs from the one judged on text", d.Info().Description)
	}
}

// everyNth is the domain of every n-th group of d.
type everyNth struct {
	d compare.Domain
	n int
}

func (e everyNth) Info() compare.DomainInfo {
	info := e.d.Info()
	info.Description += " (a sample)"
	info.Cases = 0
	e.groups(func(g compare.Group) bool { info.Cases += int64(len(g.Versions)); return true })
	return info
}

func (e everyNth) Groups(yield func(compare.Group) bool) error { return e.groups(yield) }

func (e everyNth) groups(yield func(compare.Group) bool) error {
	i := 0
	return e.d.Groups(func(g compare.Group) bool {
		i++
		return i%e.n != 0 || yield(g)
	})
}

// On real histories the selection compared from the verdicts (for a
// Selector, from the versions it allows) is what engine.Select makes of
// the whole history, for every group and pair, and the report is the one
// judged on text.
func TestFastPathSelection(t *testing.T) {
	full, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	n := longtest.Pick(400, 40)
	d := everyNth{full, n}
	policies := catalogue.New().All()
	r, err := compare.Run(context.Background(), d, policies, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := compare.Run(context.Background(), d, textOnly(policies), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reportBytes(t, r), reportBytes(t, want)) {
		t.Errorf("the report differs from the one judged on text")
	}

	// Every pick again with engine.Select on the whole history.
	picks := map[[2]string][]string{} // (constraint, history) -> pick per policy
	agree := make([]int64, len(r.Selection.Pairs))
	var groups int64
	err = d.Groups(func(g compare.Group) bool {
		groups++
		ps := make([]string, len(policies))
		for i, p := range policies {
			sel, err := engine.Select(p, g.Constraint, g.Versions)
			switch {
			case err != nil:
				ps[i] = compare.InvalidSelected
			case !sel.Found:
				ps[i] = compare.NoneSelected
			default:
				ps[i] = sel.Version
			}
		}
		picks[[2]string{g.Constraint, g.History}] = ps
		k := 0
		for i := range policies {
			for j := i + 1; j < len(policies); j++ {
				if ps[i] == ps[j] {
					agree[k]++
				}
				k++
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Selection.Groups != groups {
		t.Errorf("%d groups compared, want %d", r.Selection.Groups, groups)
	}
	index := map[string]int{}
	for i, p := range policies {
		index[p.Name()] = i
	}
	for k, sp := range r.Selection.Pairs {
		if sp.Agree != agree[k] || sp.Diverge != groups-agree[k] {
			t.Errorf("%s vs %s: %d agree, %d diverge; engine.Select: %d, %d", sp.A, sp.B, sp.Agree, sp.Diverge, agree[k], groups-agree[k])
		}
		if w := sp.Witness; w != nil {
			ps := picks[[2]string{w.Constraint, w.History}]
			if ps == nil || ps[index[sp.A]] != w.ASelected || ps[index[sp.B]] != w.BSelected {
				t.Errorf("%s vs %s: witness %q on %s selects %q and %q; engine.Select: %q", sp.A, sp.B, w.Constraint, w.History, w.ASelected, w.BSelected, ps)
			}
		}
	}
}
