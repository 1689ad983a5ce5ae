package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
	comparerender "github.com/prerel/prerel/compare/render"
	compareshard "github.com/prerel/prerel/compare/shard"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// mergeSummary is the help text of prerel merge.
const mergeSummary = "Merge the partial reports of a sharded compare run into the report of the\n" +
	"whole run. 'prerel compare --shard K/N --format json' runs the K-th of N\n" +
	"disjoint parts of the domain (the groups of cases whose index modulo N is\n" +
	"K-1) and writes its partial report; merge reads any number of them and\n" +
	"writes exactly the report compare writes without --shard, in any format.\n" +
	"\n" +
	"The parts must be shards of one run: the same domain (scope, seed, count,\n" +
	"pairing or file cases), the same policies in the same order, the same\n" +
	"--reference and --rank, the same number of shards, each shard once; a\n" +
	"part that is not one, or is truncated, is refused (exit 2), and so is a\n" +
	"missing shard. With --partial, any of the shards merge into one partial\n" +
	"report instead, to be merged again later: merging does not depend on\n" +
	"the order or grouping of the parts.\n" +
	"\n" +
	"The policies are those of the shards, by name: give merge the same\n" +
	"--policy-file and --policy-cmd. A policy that judges a sample of cases\n" +
	"or a kept witness otherwise than the shards' is refused.\n" +
	"\n" +
	"Every kept witness must be a case of the domain the shards ran, so merge\n" +
	"makes that domain again: a built-in domain (exhaustive, random, corpus)\n" +
	"from the flags the shards record, a file domain only from merge's own\n" +
	"--domain FILE (merge opens no file a partial report names). Without it,\n" +
	"the witnesses cannot be checked and merge refuses (exit 2); so does a\n" +
	"witness the domain does not hold, with the file, pair and class named.\n" +
	"A witness must also be the case its shard keeps, the smallest of its\n" +
	"class among the shard's groups: merge judges the cases of the class's\n" +
	"shape that come before it, and refuses another case of the class (exit\n" +
	"2), naming the file, the class and the witness the shard keeps. The\n" +
	"witness of a pair's selection must be the smallest of the shard's groups\n" +
	"where the two policies install different versions, with what each\n" +
	"installs: merge works out what they install from the groups that come\n" +
	"before it, and refuses another group (exit 2), naming the file, the pair\n" +
	"and the group the shard keeps.\n" +
	"With --partial, no witness is checked against the domain: the merge that\n" +
	"writes the report checks them.\n" +
	"\n" +
	"--baseline, --write-baseline, --show-all, GITHUB_STEP_SUMMARY and the exit\n" +
	"statuses are those of compare; --baseline describes the changed verdicts\n" +
	"with the same domain."

// mergeCommand is prerel merge.
var mergeCommand = command{
	name:          "merge",
	args:          "[flags] PARTIAL...",
	summary:       "the whole run's report from the partial reports of compare --shard",
	help:          mergeSummary,
	policySources: true,
	flags:         mergeFlags,
}

// mergeFlags defines the flags of prerel merge and returns its run.
func mergeFlags(fs *flagSet) runFunc {
	format := addFormat(fs, comparerender.Formats)
	baseline, writeBaseline := addBaseline(fs)
	showAll := addShowAll(fs)
	installers := addInstallerFlag(fs)
	ownDomain := fs.String("domain", "", "the `FILE` of the file domain the shards ran, to check the witnesses\nwith (merge opens no file a partial report names)")
	partial := fs.Bool("partial", false, "write the merged partial report (JSON) instead of the report; the\nparts may then be any of the shards")
	return func(e *env, args []string) (output, error) {
		if err := checkMergeFlags(fs, args, *partial, *ownDomain); err != nil {
			return output{}, err
		}
		base, err := readBaseline(*baseline, *writeBaseline)
		if err != nil {
			return output{}, err
		}
		if err := installers.fromEnv(e); err != nil {
			return output{}, err
		}
		merged, err := compareshard.Merge(e.context(), args, compareshard.MergeOptions{
			Hints: partialHints, Partial: *partial,
			Domain: func(args []string, info compare.DomainInfo) (compare.Domain, error) {
				return compareshard.RemakeDomain(args, info, *ownDomain, prerel.Corpus())
			},
			Policies: func(names []string) ([]engine.Policy, error) {
				ps, err := e.resolve(names)
				if err != nil {
					return nil, usagef("the partial reports compare %s: %s; give merge the --policy-file and --policy-cmd the shards had",
						quote(strings.Join(names, ", ")), quote(err.Error()))
				}
				return ps, nil
			},
		})
		if err != nil {
			return output{}, mergeError(err)
		}
		if *partial {
			return output{report: func(w io.Writer) error { return partialWriteError(merged.Partial.WriteJSON(w)) }}, nil
		}
		ropt := comparerender.Options{Options: renderOptions(*showAll), BaselinePath: *baseline, Installers: installers.Names()}
		return reportOutput(e, "merge", merged.Domain, base, merged.Report, merged.Relevance, ropt, format.value, *writeBaseline)
	}
}

// checkMergeFlags refuses merge without partial reports, the flags of
// the report with --partial, and a --domain that is not a file.
func checkMergeFlags(fs *flagSet, args []string, partial bool, ownDomain string) error {
	if len(args) == 0 {
		return usagef("merge needs the partial reports to merge, written by prerel compare --shard K/N --format json")
	}
	if set := given(fs, "baseline", "domain", "format", "show-all", "write-baseline"); partial && len(set) > 0 {
		return usagef("%s applies to the report, and --partial writes a partial report", set[0])
	}
	if ownDomain == "" {
		return nil
	}
	if kind, err := compare.DomainKind(ownDomain); err != nil {
		return usage(err)
	} else if kind != compare.DomainFile {
		return usagef("--domain takes the file of a file domain; merge makes the %s domain again from the partial reports", kind)
	}
	return nil
}

// mergeError is the error of merge for an error of compareshard.Merge:
// a file that cannot be read is the user's input (inputError), parts
// that do not merge bad input, a failure to walk the domain an outside
// failure. A panic of a policy is raised again.
func mergeError(err error) error {
	var panicked *compare.PanicError
	var read *compareshard.ReadError
	var ee *exitError
	switch {
	case errors.As(err, &panicked):
		panic(&workerPanic{value: err, stack: panicked.Stack})
	case errors.As(err, &read):
		return inputError(read.Err)
	case errors.Is(err, compareshard.ErrBadParts):
		return usage(trimCompare(err))
	case errors.As(err, &ee):
		return err
	}
	return failure(trimCompare(err))
}

// partialWriteError is the error of writing a partial report to stdout.
func partialWriteError(err error) error {
	if err != nil {
		return fmt.Errorf("write the partial report: %w", err)
	}
	return nil
}

// trimCompare drops the package's "compare: " from an error of package
// compare, which merge's own prefix replaces.
func trimCompare(err error) error {
	if msg, ok := strings.CutPrefix(err.Error(), "compare: "); ok {
		return errors.New(msg)
	}
	return err
}

// partialHints are the words of merge's errors on what is not a partial
// report.
var partialHints = compareshard.Hints{
	Writer: "prerel compare --shard",
	Write:  "prerel compare --shard K/N --format json",
}

// shardFlag is compare's --shard K/N: the shard, and whether it was
// given.
type shardFlag struct {
	shard compareshard.Shard
	set   bool
}

// shardUsage is the help of --shard.
const shardUsage = "run only shard `K/N`, the K-th of N disjoint parts of the domain, and\n" +
	"write its partial report (JSON) for prerel merge"

// shardVar defines --shard on fs.
func shardVar(fs *flagSet, f *shardFlag) {
	parse := func(s string) (shardFlag, error) {
		sh, err := compareshard.ParseShard(s)
		return shardFlag{sh, true}, err
	}
	text := func(f shardFlag) string {
		if !f.set {
			return ""
		}
		return f.shard.String()
	}
	fs.Var(&valueFlag[shardFlag]{f, "K/N", parse, text}, "shard", shardUsage)
}

// checkShardFlags refuses, with --shard, the flags that apply to a
// report: a shard writes a partial report, in JSON, and the report is
// merge's.
func checkShardFlags(fs *flagSet, shard *shardFlag) error {
	if !shard.set {
		return nil
	}
	for _, name := range given(fs, "baseline", "format", "show-all", "write-baseline") {
		if name != "--format" {
			return usagef("%s applies to the report of the whole run: give it to prerel merge, not to compare --shard", name)
		} else if fs.Lookup("format").Value.String() != string(comparerender.FormatJSON) {
			return usagef("--shard writes a partial report, which is JSON: give --format json or leave --format out (prerel merge writes the report in any format)")
		}
	}
	return nil
}

// runShard runs one shard, whose partial report is the output, with the
// flags that make its domain again (for merge --baseline).
func runShard(e *env, d compare.Domain, ps []engine.Policy, opt compare.Options, sh compareshard.Shard, domainArgs []string) (output, error) {
	p, err := compareshard.RunPartial(e.context(), d, ps, opt, sh)
	if err := runError(err); err != nil {
		return output{}, err
	}
	p.DomainArgs = domainArgs
	return output{report: func(w io.Writer) error { return partialWriteError(p.WriteJSON(w)) }}, nil
}

// quote makes text from a partial report or baseline fit for a message:
// clipped as reasons are (engine.ClipReason) and printable.
func quote(s string) string {
	return printable.String(engine.ClipReason(s))
}
