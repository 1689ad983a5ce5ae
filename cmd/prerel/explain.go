package main

import (
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/report"
)

// explainCommand is prerel explain.
var explainCommand = command{
	name:    "explain",
	args:    "--policy P [flags] CONSTRAINT VERSION",
	summary: "one policy's reasoning, comparator by comparator",
	help: `Show how one policy reaches its verdict for a constraint and a version,
comparator by comparator: how each comparator was read ("~>" expanded,
partial versions filled), which held, which prerelease rule applied and why,
and the verdict. For a wrapped library it shows what the library was asked
and what it answered. A policy that does not explain itself still shows its
verdict and reason.`,
	policySources: true,
	flags: func(fs *flagSet) runFunc {
		name := fs.String("policy", "", "the `POLICY` to explain (see 'prerel policies')")
		format := addFormat(fs, report.ExplainFormats)
		return func(e *env, args []string) (output, error) {
			if *name == "" {
				return output{}, usagef("explain needs --policy: one of %s", strings.Join(e.registry.Names(), ", "))
			}
			if len(args) != 2 {
				return output{}, usagef("explain needs a constraint and one version, got %s", plural.Of(len(args), "argument", "arguments"))
			}
			constraint, version := args[0], args[1]
			if err := usage(engine.CheckParses(constraint, []string{version})); err != nil {
				return output{}, err
			}
			p, err := e.policy(*name)
			if err != nil {
				return output{}, err
			}
			rep := report.NewExplainReport(p, constraint, version)
			return rendered(report.Explain, format.value, rep, renderOptions(false), nil), nil
		}
	},
}
