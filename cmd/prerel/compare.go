package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/prerel/prerel/report"

	"github.com/spf13/pflag"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	comparerender "github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// compareCommand is prerel compare.
var compareCommand = command{
	name:    "compare",
	args:    "[flags]",
	summary: "differential report: where policies agree and diverge, with witnesses",
	help: `Run every case of a domain through every chosen policy and report, first, how
each differs from the reference (today's Terraform and OpenTofu rule): how
often they agree, which admits more, and witnesses in words. Then the case
shapes that split the policies, the agreement matrix, the divergence classes
with causes and smallest witnesses, and on the corpus domain what each policy
would install. With --baseline, the report begins with the drift per policy
and the command exits 1 when the run differs from the baseline. When
GITHUB_STEP_SUMMARY is set, the Markdown report is appended to it; if that
fails, the baseline is still written and checked, and the exit status is 3.
With --shard K/N, it runs the K-th of N disjoint parts of the domain and
writes a partial report for 'prerel merge', which makes the report of the
whole run from the partial reports of every shard. Without --policies it
compares all the policies, the native ones and the adapters; with --baseline,
the policies the baseline records, and a note names the registered ones it
does not gate. --policies with --baseline must name the baseline's policies.`,
	policySources: true,
	flags:         compareFlags,
}

// compareFlags defines the flags of prerel compare and returns its run.
func compareFlags(fs *flagSet) runFunc {
	names := addPolicies(fs)
	var df domainFlags
	df.add(fs)
	format := addFormat(fs, comparerender.DriftFormats)
	baseline, writeBaseline := addBaseline(fs)
	reference := fs.String("reference", "", "the `POLICY` the summary compares the others with (default:\n"+compare.DefaultReference+", today's Terraform and OpenTofu rule)")
	installers := addInstallerFlag(fs)
	showAll := addShowAll(fs)
	rank := fs.String("rank", string(compare.RankRelevance), "order of classes and case shapes: relevance (how common\nthe constraint shape is in real configurations, then count)\nor count")
	minAge := addCompareMinAge(fs)
	var shard shardFlag // --shard: a partial report for prerel merge (merge.go)
	shardVar(fs, &shard)
	return func(e *env, args []string) (output, error) {
		if len(args) != 0 {
			return output{}, usagef("compare takes no arguments, got %q (a file domain is given with --domain)", args[0])
		}
		if err := df.check(fs, &shard); err != nil {
			return output{}, err
		}
		if format.value == report.SARIF && (*baseline == "" || shard.set) {
			return output{}, usagef("--format sarif is the drift from a baseline: it needs --baseline, and no --shard")
		}
		if err := installers.fromEnv(e); err != nil {
			return output{}, err
		}
		ps, err := comparePolicies(e, *names)
		if err != nil {
			return output{}, err
		}
		if df.kind == compare.DomainAges { // the age dimension (cooldown.go)
			return compareAges(e, fs, ps, minAge, format.value, *showAll)
		}
		d, err := openDomain(df.DomainSpec)
		if err != nil {
			return output{}, err
		}
		base, err := readBaseline(*baseline, *writeBaseline)
		if err != nil {
			return output{}, err
		}
		var ungated []string // registered, not in the baseline: a note
		if base != nil {
			if ps, ungated, err = gatedPolicies(e, base, *baseline, *names); err != nil {
				return output{}, err
			}
		}
		opt, err := compareOptions(e, *rank, *reference, ps)
		if err != nil {
			return output{}, err
		}
		if shard.set { // a shard writes its partial report (merge.go)
			return runShard(e, d, ps, opt, shard.shard, df.Args())
		}
		// A policy command that fails ends the run at once.
		rep, err := compare.Run(e.context(), d, ps, opt)
		if err := runError(err); err != nil {
			return output{}, err
		}
		rep.PolicyErrors = comparerender.PolicyErrorsOf(ps)
		ropt := comparerender.Options{Options: renderOptions(*showAll), BaselinePath: *baseline, Installers: installers.Names()}
		return reportOutput(e, "compare", d, base, rep, opt.Relevance, ropt, format.value, *writeBaseline, ungated...)
	}
}

// gatedPolicies are the policies of a run checked against the baseline
// base read from path: the baseline's without --policies (names), with
// the registered policies it does not hold; names must otherwise be the
// baseline's policies (compare.GatedPolicies).
func gatedPolicies(e *env, base *compare.Report, path string, names policyList) ([]engine.Policy, []string, error) {
	g, err := compare.GatedPolicies(base, e.registry.Names(), names)
	var pe *compare.PolicySetError
	switch {
	case errors.As(err, &pe) && pe.Unregistered:
		return nil, nil, usagef("--baseline %s: %v; load them (--policy-file, --policy-cmd) or rewrite the baseline with --write-baseline", printable.String(path), err)
	case err != nil:
		return nil, nil, usagef("--baseline %s: %v; without --policies the run compares the baseline's policies", printable.String(path), err)
	}
	ps, err := comparePolicies(e, g.Policies)
	return ps, g.Ungated, err
}

// reportOutput is the output of compare and merge for the report rep of
// the whole run on d (compareOutput), which begins, with a baseline
// base, with the drift from it: from rep's part about base's policies
// (compare.GateRun). After the drift's answer, a note names the policies
// base does not gate: ungated, and those of rep beyond base's.
func reportOutput(e *env, cmd string, d compare.Domain, base, rep *compare.Report, relevance *compare.RelevanceTable, ropt comparerender.Options, format report.Format, writeBaseline string, ungated ...string) (output, error) {
	if base != nil {
		gated, more := compare.GateRun(base, rep)
		ungated = append(ungated, more...)
		var err error
		if ropt.Drift, err = compare.ComputeDrift(context.Background(), d, base, gated, relevance); err != nil {
			return output{}, inputError(fmt.Errorf("%s: %w", ropt.BaselinePath, err))
		}
	}
	out := compareOutput(e, cmd, format, rep, ropt, writeBaseline)
	if len(ungated) > 0 {
		write := out.writes[0]
		out.writes[0] = func() error {
			err := write() // the drift's answer, then the note
			fmt.Fprintf(e.stderr, "prerel %s: note: not in the baseline %s: %s; compare --write-baseline without --baseline gates every policy\n",
				cmd, printable.String(ropt.BaselinePath), strings.Join(ungated, ", "))
			return err
		}
	}
	return out, nil
}

// compareOptions are the options of a compare run: --rank, --reference,
// which must be among ps, the relevance of the corpus, and progress on
// a terminal.
func compareOptions(e *env, rank, reference string, ps []engine.Policy) (compare.Options, error) {
	rk, err := compare.ParseRank(rank)
	if err != nil {
		return compare.Options{}, usage(err)
	}
	if err := compare.CheckReference(reference, ps); err != nil {
		return compare.Options{}, usagef("--reference: %v; add it to --policies", err)
	}
	relevance, err := corpusRelevance()
	if err != nil {
		return compare.Options{}, failure(err)
	}
	opt := compare.Options{Reference: reference, Rank: rk, Relevance: relevance}
	if e.stderrIsTTY {
		opt.Progress = comparerender.Progress(e.stderr, time.Now)
	}
	return opt, nil
}

// runError is the error of a run of the compare harness: a panic of a
// policy, a bug, is raised again to be reported as every panic is, with
// its stack; any other error is an outside failure.
func runError(err error) error {
	var panicked *compare.PanicError
	if errors.As(err, &panicked) {
		panic(&workerPanic{value: err, stack: panicked.Stack})
	}
	return failure(err)
}

// readBaseline reads the baseline of --baseline, nil without one, and
// checks that --write-baseline names a file a baseline can be written
// to, of compare and merge.
func readBaseline(baseline, writeBaseline string) (*compare.Report, error) {
	var base *compare.Report
	if baseline != "" {
		var err error
		if base, err = compare.ReadBaseline(baseline); err != nil {
			return nil, inputError(err)
		}
	}
	if writeBaseline != "" {
		if _, err := compare.CheckBaselineTarget(writeBaseline); err != nil {
			return nil, baselineWriteError(err)
		}
	}
	return base, nil
}

// domainFlags are the flags of compare that make its domain.
type domainFlags struct {
	compare.DomainSpec
	kind string // of Name, once check has read it
}

// add defines the flags on fs.
func (f *domainFlags) add(fs *flagSet) {
	fs.StringVar(&f.Name, "domain", "exhaustive", "`DOMAIN`: exhaustive, random, corpus, ages (dated histories: the\nage dimension), or a file of CONSTRAINT<TAB>VERSION lines (a regular\nfile or a pipe)")
	fs.IntVar(&f.Scope, "scope", compare.DefaultScope, fmt.Sprintf("exhaustive domain: its size, %d to %d", compare.MinScope, compare.MaxScope))
	fs.Int64Var(&f.Seed, "seed", 1, "random domain: the seed")
	fs.IntVar(&f.Count, "count", 100000, fmt.Sprintf("random domain: the number of cases, 1 to %d", compare.MaxRandomCount))
	fs.StringVar(&f.Pairing, "pairing", string(compare.PairByContext), "corpus domain: which histories each real constraint meets\n(context or all)")
}

// check reads the kind of domain and refuses the flags of fs given that
// do not go with it (compare.CheckDomainFlags), or with the shard.
func (f *domainFlags) check(fs *flagSet, shard *shardFlag) error {
	kind, err := compare.DomainKind(f.Name)
	if err != nil {
		return usage(err)
	}
	f.kind = kind
	var set []string
	fs.Visit(func(fl *pflag.Flag) { set = append(set, fl.Name) })
	if err := compare.CheckDomainFlags(kind, set); err != nil {
		return usage(err)
	}
	return checkShardFlags(fs, shard)
}

// openDomain makes the domain spec names (compare.DomainSpec.Open): the
// built-in corpus failing is an outside failure, a file domain a file
// the user named (inputError), anything else bad usage.
func openDomain(spec compare.DomainSpec) (compare.Domain, error) {
	d, err := spec.Open(prerel.Corpus())
	if ce := (*compare.CorpusError)(nil); errors.As(err, &ce) {
		return nil, failure(err)
	}
	return d, inputError(err)
}

// comparePolicies resolves --policies for compare: at least two (e.resolve
// refuses a name given twice).
func comparePolicies(e *env, names policyList) ([]engine.Policy, error) {
	ps, err := e.resolve(names)
	if err != nil {
		return nil, err
	}
	if len(ps) < 2 {
		return nil, usagef("compare needs at least two policies, got %d", len(ps))
	}
	return ps, nil
}

// compareOutput is the output of compare and merge: the report, then,
// once the run has succeeded, the baseline when asked to, the report
// appended to the GitHub step summary when there is one
// (render.AppendMarkdown), and last the drift from the baseline told. A
// failed output does not stop the others: each is reported, and the
// baseline is checked all the same. The exit status is then that of the
// failure (3, an outside failure; 2 for a baseline path that is not a
// regular file), even when the run also differs from the baseline, whose
// drift stderr still tells. cmd names the command (compare or merge) in
// stderr's messages.
func compareOutput(e *env, cmd string, format report.Format, rep *compare.Report, ropt comparerender.Options, baselinePath string) output {
	var failed []error
	render := func(w io.Writer) error {
		if err := comparerender.Render(w, format, rep, ropt); err != nil {
			failed = append(failed, failure(fmt.Errorf("write the report: %w", err)))
		}
		return nil
	}
	write := func() error {
		if baselinePath != "" {
			if err := compare.WriteBaseline(baselinePath, rep); err != nil {
				failed = append(failed, baselineWriteError(err))
			} else {
				fmt.Fprintf(e.stderr, "prerel %s: wrote the baseline to %s\n", cmd, printable.String(baselinePath))
			}
		}
		if path := e.getenv("GITHUB_STEP_SUMMARY"); path != "" {
			if err := comparerender.AppendMarkdown(path, rep, ropt); err != nil {
				fmt.Fprintf(e.stderr, "prerel %s: warning: cannot append the report to GITHUB_STEP_SUMMARY %s: %v\n", cmd, printable.String(path), err)
				failed = append(failed, failure(errors.New("the report was not appended to GITHUB_STEP_SUMMARY (see the warning above)")))
			}
		}
		return failedOutputs(e, cmd, ropt, failed)
	}
	return output{report: render, writes: []func() error{write}}
}

// failedOutputs is the error of compareOutput once its outputs are
// written: the drift from the baseline when none failed, else the
// failures, with the status of the worst.
func failedOutputs(e *env, cmd string, ropt comparerender.Options, failed []error) error {
	var drift error
	if ropt.Drift != nil {
		drift = checkBaseline(e, cmd, ropt.BaselinePath, ropt.Drift)
	}
	if len(failed) == 0 {
		return drift
	}
	if drift != nil {
		fmt.Fprintf(e.stderr, "prerel %s: %v\n", cmd, drift)
	}
	code, msgs := exitUsage, make([]string, len(failed))
	for i, err := range failed {
		code = max(code, exitStatus(err))
		msgs[i] = err.Error()
	}
	err := errors.New(strings.Join(msgs, "; "))
	if drift != nil {
		err = fmt.Errorf("%w; the exit status is %d for this, although the run also differs from the baseline", err, code)
	}
	return withStatus(code, err)
}

// baselineWriteError marks an error of --write-baseline: a path no
// baseline can be written to is bad usage, any other failure an outside
// failure.
func baselineWriteError(err error) error {
	var te *compare.TargetError
	if errors.As(err, &te) {
		return usagef("--write-baseline: %v", err)
	}
	return failure(fmt.Errorf("--write-baseline: %w", err))
}

// stderrChanges is how many of a drift's changes stderr lists; the
// report (and with --format json, every change) has the rest.
const stderrChanges = 20

// checkBaseline reports the drift from the baseline read from path: a
// difference is a finding, told on stderr in short: the changed verdicts
// per policy, then the first changes in words.
func checkBaseline(e *env, cmd, path string, d *compare.Drift) error {
	if d.Matches {
		fmt.Fprintf(e.stderr, "prerel %s: the run matches the baseline %s\n", cmd, printable.String(path))
		return nil
	}
	return finding(errors.New(d.Told(path, stderrChanges)))
}

// corpusRelevance is the relevance table of prerel's embedded corpus,
// read once per process: the corpus does not change and the table is
// only read.
var corpusRelevance = sync.OnceValues(func() (*compare.RelevanceTable, error) {
	return compare.CorpusRelevance(prerel.Corpus())
})
