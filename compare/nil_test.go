package compare_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
)

// Nil and zero values give errors or documented zero results, never a
// panic.
func TestNilValues(t *testing.T) {
	ctx := context.Background()
	r := goldenReport(t)
	errs := map[string]func() error{
		"Run with a nil domain": func() error {
			_, err := compare.Run(ctx, nil, []engine.Policy{linear, sameBase}, compare.Options{})
			return err
		},
		"Corpus of a nil file system": func() error { _, err := compare.Corpus(nil, compare.PairByContext); return err },
		"FileFS of a nil file system": func() error { _, err := compare.FileFS(nil, "cases.tsv"); return err },
		"Render a nil report":         func() error { return render.Render(&bytes.Buffer{}, render.FormatText, nil, render.Options{}) },
		"Render to a nil writer":      func() error { return render.Render(nil, render.FormatText, r, render.Options{}) },
		"RenderText a nil report":     func() error { return render.Render(&bytes.Buffer{}, render.FormatText, nil, render.Options{}) },
		"RenderMarkdown a nil report": func() error { return render.Render(&bytes.Buffer{}, render.FormatMarkdown, nil, render.Options{}) },
		"RenderJSON a nil report":     func() error { return render.Render(&bytes.Buffer{}, render.FormatJSON, nil, render.Options{}) },
		"WriteJSON a nil report":      func() error { return (*compare.Report)(nil).WriteJSON(&bytes.Buffer{}) },
		"WriteBaseline a nil report": func() error {
			return compare.WriteBaseline(filepath.Join(t.TempDir(), "b.json"), nil)
		},
		"DecodeReport a nil reader": func() error { _, err := compare.DecodeReport(nil); return err },
		"ComputeDrift of nil reports": func() error {
			_, err := compare.ComputeDrift(ctx, nil, nil, nil, nil)
			return err
		},
	}
	for name, f := range errs {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic: %v", p)
				}
			}()
			if err := f(); err == nil {
				t.Error("no error")
			}
		})
	}
	if d := compare.Diff(nil, nil); len(d) != 0 {
		t.Errorf("Diff(nil, nil) = %v", d)
	}
	if d := compare.Diff(nil, r); len(d) == 0 {
		t.Error("Diff(nil, report) finds no change")
	}
	if s := compare.Signature(nil, nil, ">= 1.0.0", "1.0.0"); s != "" {
		t.Errorf("Signature(nil, nil, ...) = %q", s)
	}
	if b := (*compare.Report)(nil).Baseline(); b != nil {
		t.Errorf("(*Report)(nil).Baseline() = %v", b)
	}
	if err := compare.CheckReference("x", []engine.Policy{nil, linear}); err == nil {
		t.Error("CheckReference with a nil policy: no error")
	}
}

// The random domain's count runs from 1 to MaxRandomCount.
func TestRandomCountIsBounded(t *testing.T) {
	for _, n := range []int{0, -1, compare.MaxRandomCount + 1, math.MaxInt} {
		if _, err := compare.Random(1, n); err == nil || !strings.Contains(err.Error(), "want 1 to") {
			t.Errorf("Random(1, %d): %v, want an error", n, err)
		}
	}
	d, err := compare.Random(1, compare.MaxRandomCount)
	if err != nil || d.Info().Cases != compare.MaxRandomCount {
		t.Errorf("Random(1, MaxRandomCount): %v", err)
	}
}

// miscounted announces one case more than it yields.
type miscounted struct{ listDomain }

func (d miscounted) Info() compare.DomainInfo {
	info := d.listDomain.Info()
	info.Cases++
	return info
}

// A domain that yields another number of cases than it announced fails
// the run.
func TestRunChecksTheCaseCount(t *testing.T) {
	d := miscounted{listDomain{groups: []compare.Group{{Constraint: ">= 1.0.0", Versions: []string{"1.0.0"}}}}}
	_, err := compare.Run(context.Background(), d, []engine.Policy{linear, sameBase}, compare.Options{})
	if err == nil || !strings.Contains(err.Error(), "yielded 1 case, but announced 2") {
		t.Errorf("error %v", err)
	}
}

// admitsAll is a policy that admits every version.
type admitsAll struct{}

func (admitsAll) Name() string                           { return "admits-all" }
func (admitsAll) Rule() string                           { return "admits everything" }
func (admitsAll) Compile(string) (engine.Matcher, error) { return admitsAll{}, nil }
func (admitsAll) Match(string) engine.Result             { return engine.Allowed("admitted") }

// panicsOnMatch is a policy whose matcher panics: a bug in a policy.
type panicsOnMatch struct{}

func (panicsOnMatch) Name() string                           { return "panics" }
func (panicsOnMatch) Rule() string                           { return "panics when it judges" }
func (panicsOnMatch) Compile(string) (engine.Matcher, error) { return panicsOnMatch{}, nil }
func (panicsOnMatch) Match(string) engine.Result             { panic("the matcher broke") }

func TestRunReportsAPanickingPolicy(t *testing.T) {
	d, err := compare.Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = compare.Run(context.Background(), d, []engine.Policy{admitsAll{}, panicsOnMatch{}}, compare.Options{Workers: 2})
	var pe *compare.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Run = %v, want a *compare.PanicError", err)
	}
	if pe.Policy != "panics" || pe.Value != "the matcher broke" || pe.Constraint == "" || len(pe.Stack) == 0 {
		t.Errorf("PanicError = %+v", pe)
	}
	if !strings.Contains(err.Error(), `policy "panics" panicked on constraint`) {
		t.Errorf("error = %q", err)
	}
}
