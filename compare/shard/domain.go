package shard

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/printable"
)

// RemakeDomain makes the domain of a partial report again from args, the
// flags it records (Partial.DomainArgs, compare.DomainSpec.Args), and
// checks that it is the domain the shards ran, whose DomainInfo the
// partial report gives; when it cannot, it says why. A built-in domain
// is made from args, the corpus domain from corpus (prerel.Corpus); a
// file domain only from file, the merge's own --domain: a partial report
// may come from a job with fewer rights than the merge, and no file it
// names is opened. It is the MergeOptions.Domain of prerel merge.
func RemakeDomain(args []string, info compare.DomainInfo, file string, corpus fs.FS) (compare.Domain, error) {
	if len(args) == 0 {
		return nil, errors.New("the partial reports do not record how their domain was made")
	}
	recorded := quote(strings.Join(args, " "))
	fs := flag.NewFlagSet("domain", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var spec compare.DomainSpec
	fs.StringVar(&spec.Name, "domain", "", "")
	fs.IntVar(&spec.Scope, "scope", compare.DefaultScope, "")
	fs.Int64Var(&spec.Seed, "seed", 1, "")
	fs.IntVar(&spec.Count, "count", 100000, "")
	fs.StringVar(&spec.Pairing, "pairing", string(compare.PairByContext), "")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		return nil, fmt.Errorf("the partial reports record the domain as %q, which this prerel does not read", recorded)
	}
	kind, err := compare.DomainKind(spec.Name)
	if err != nil {
		return nil, err
	}
	var d compare.Domain
	switch {
	case kind != compare.DomainFile:
		if d, err = spec.Open(corpus); err != nil {
			return nil, fmt.Errorf("the domain of the partial reports (%s) cannot be made again: %w", recorded, err)
		}
	case file == "":
		return nil, fmt.Errorf("the shards ran a file domain (%s): give merge --domain with that file", recorded)
	default:
		if d, err = compare.File(file); err != nil {
			return nil, fmt.Errorf("--domain: %w", err)
		}
		recorded = "--domain " + printable.String(file)
	}
	if got, want := d.Info(), info; got != want {
		return nil, fmt.Errorf("the domain %s made again is %s, not %s as in the partial reports",
			recorded, quote(got.Description), quote(want.Description))
	}
	return d, nil
}
