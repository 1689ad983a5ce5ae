package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
)

func runCompare(e *env, args []string) error {
	fs := newFlags(e, "compare", "[flags]",
		"Run every case of a domain through every chosen policy and report, first, how\n"+
			"each differs from the reference (today's Terraform and OpenTofu rule): how\n"+
			"often they agree, which admits more, and witnesses in words. Then the case\n"+
			"shapes that split the policies, the agreement matrix, the divergence classes\n"+
			"with causes and smallest witnesses, and on the corpus domain what each policy\n"+
			"would install. With --baseline, the report begins with the drift per policy\n"+
			"and the command exits 1 when the run differs from the baseline.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies to compare (default: all, the native policies\nand the adapters)")
	domain := fs.String("domain", "exhaustive", "`DOMAIN`: exhaustive, random, corpus, or a file of CONSTRAINT<TAB>VERSION\nlines")
	scope := fs.Int("scope", compare.DefaultScope, fmt.Sprintf("size of the exhaustive domain, %d to %d", compare.MinScope, compare.MaxScope))
	seed := fs.Int64("seed", 1, "seed of the random domain")
	count := fs.Int("count", 100000, "number of cases of the random domain")
	pairing := fs.String("pairing", string(compare.PairByContext), "corpus domain: which histories each real constraint meets\n(context or all)")
	format := compareFormat{compare.FormatText}
	fs.Var(&format, "format", "output format: "+compareFormatNames())
	baseline := fs.String("baseline", "", "compare the run with the baseline in `FILE`; exit 1 when they differ")
	writeBaseline := fs.String("write-baseline", "", "write the run's baseline to `FILE` (atomically)")
	reference := fs.String("reference", "", "the `POLICY` the summary compares the others with (default:\n"+compare.DefaultReference+", today's Terraform and OpenTofu rule)")
	showAll := fs.Bool("show-all", false, "list every case shape, class and pair instead of the first ones")
	rank := fs.String("rank", string(compare.RankRelevance), "order of classes and case shapes: relevance (how common\nthe constraint shape is in real configurations, then count)\nor count")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("compare takes no arguments, got %q (a file domain is given with --domain)", fs.Arg(0))
	}
	ps, err := comparePolicies(e, names)
	if err != nil {
		return err
	}
	d, err := openDomain(*domain, *scope, *seed, *count, *pairing)
	if err != nil {
		return err
	}
	var base *compare.Report
	if *baseline != "" {
		if base, err = compare.ReadBaseline(*baseline); err != nil {
			return inputError(err)
		}
	}
	rk, err := compare.ParseRank(*rank)
	if err != nil {
		return usage(err)
	}
	if err := compare.CheckReference(*reference, ps); err != nil {
		return usagef("--reference: %v; add it to --policies", err)
	}
	relevance, err := compare.CorpusRelevance(prerel.Corpus())
	if err != nil {
		return failure(err)
	}
	opt := compare.Options{Reference: *reference, Rank: rk, Relevance: relevance}
	if e.stderrIsTTY {
		opt.Progress = progressPrinter(e, time.Now)
	}
	report, err := compare.Run(context.Background(), d, ps, opt)
	if err != nil {
		return failure(err)
	}
	ropt := compare.RenderOptions{All: *showAll, BaselinePath: *baseline}
	if base != nil {
		if ropt.Drift, err = compare.ComputeDrift(context.Background(), d, base, report, relevance); err != nil {
			return inputError(fmt.Errorf("%s: %w", *baseline, err))
		}
	}
	if err := writeCompareOutputs(e, format.format, report, ropt, *writeBaseline); err != nil {
		return err
	}
	if base == nil {
		return nil
	}
	return checkBaseline(e, *baseline, ropt.Drift)
}

// comparePolicies resolves --policies for compare: at least two, each
// once.
func comparePolicies(e *env, names policyList) ([]engine.Policy, error) {
	ps, err := e.resolve(names)
	if err != nil {
		return nil, err
	}
	if len(ps) < 2 {
		return nil, usagef("compare needs at least two policies, got %d", len(ps))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Name()] {
			return nil, usagef("compare: policy %q given twice", p.Name())
		}
		seen[p.Name()] = true
	}
	return ps, nil
}

// writeCompareOutputs writes the report to stdout, appends it to the
// GitHub step summary when there is one, and writes the baseline when
// asked to. Every error is an outside failure.
func writeCompareOutputs(e *env, format compare.Format, report *compare.Report, ropt compare.RenderOptions, baselinePath string) error {
	if err := compare.Render(e.stdout, format, report, ropt); err != nil {
		return failure(err)
	}
	if path := e.getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendStepSummary(path, report, ropt); err != nil {
			return failure(err)
		}
	}
	if baselinePath != "" {
		if err := compare.WriteBaseline(baselinePath, report); err != nil {
			return failure(err)
		}
		fmt.Fprintf(e.stderr, "prerel compare: wrote the baseline to %s\n", baselinePath)
	}
	return nil
}

// stderrChanges is how many of a drift's changes stderr lists; the
// report (and with --format json, every change) has the rest.
const stderrChanges = 20

// checkBaseline reports the drift from the baseline read from path: a
// difference is a finding, told on stderr in short: the changed verdicts
// per policy, then the first changes in words.
func checkBaseline(e *env, path string, d *compare.Drift) error {
	if d.Matches {
		fmt.Fprintf(e.stderr, "prerel compare: the run matches the baseline %s\n", path)
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the run differs from the baseline %s in %s:\n", path, plural.Of(len(d.Changes), "way", "ways"))
	for _, pd := range d.Policies {
		fmt.Fprintf(&b, "  %s: %s\n", pd.Policy, pd.MovesText())
	}
	shown := d.Changes[:min(len(d.Changes), stderrChanges)]
	for _, c := range shown {
		fmt.Fprintf(&b, "  - %s\n", c.Text)
	}
	if left := len(d.Changes) - len(shown); left > 0 {
		fmt.Fprintf(&b, "  ... and %d more changes (the report lists the changed verdicts per policy)\n", left)
	}
	fmt.Fprintf(&b, "If the change is intended, rewrite the baseline with --write-baseline %s.", path)
	return finding(errors.New(b.String()))
}

// openDomain returns the domain the --domain flag names. A domain that
// cannot be made from the flags is a usage error; a file domain is a file
// the user named (inputError).
func openDomain(name string, scope int, seed int64, count int, pairing string) (compare.Domain, error) {
	if name != "exhaustive" && name != "random" && name != "corpus" {
		d, err := compare.File(name)
		return d, inputError(err)
	}
	d, err := builtinDomain(name, scope, seed, count, pairing)
	return d, usage(err)
}

// builtinDomain returns the exhaustive, random or corpus domain.
func builtinDomain(name string, scope int, seed int64, count int, pairing string) (compare.Domain, error) {
	switch name {
	case "exhaustive":
		return compare.Exhaustive(scope)
	case "random":
		if count < 1 {
			return nil, fmt.Errorf("--count must be at least 1, got %d", count)
		}
		return compare.Random(seed, count)
	}
	p, err := compare.ParsePairing(pairing)
	if err != nil {
		return nil, err
	}
	return compare.Corpus(prerel.Corpus(), p)
}

// appendStepSummary appends the Markdown report to the GitHub Actions step
// summary file.
func appendStepSummary(path string, r *compare.Report, ropt compare.RenderOptions) error {
	var buf bytes.Buffer
	if err := compare.Render(&buf, compare.FormatMarkdown, r, ropt); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	return f.Close()
}

// progressPrinter reports progress on stderr once a run has lasted more
// than a second, overwriting one line; a shorter run prints nothing.
func progressPrinter(e *env, now func() time.Time) func(done, total int64) {
	start := now()
	shown := false
	return func(done, total int64) {
		elapsed := now().Sub(start)
		if !shown && elapsed < time.Second {
			return
		}
		if done >= total {
			if shown {
				fmt.Fprintf(e.stderr, "\r%d/%d cases (100%%) in %s\n", done, total, elapsed.Round(time.Millisecond))
			}
			return
		}
		shown = true
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(done) / float64(total)
		}
		fmt.Fprintf(e.stderr, "\r%d/%d cases (%.0f%%)", done, total, pct)
	}
}
