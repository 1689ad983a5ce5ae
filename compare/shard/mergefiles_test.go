package shard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// TestMergeFiles checks that Merge builds from the files of the shards
// the report the run builds, makes the domain again and gets the
// policies once, and that it tells a file it cannot read from parts that
// do not merge.
func TestMergeFiles(t *testing.T) {
	d := exhaustiveDomain(t, 1)
	ps := resolvePolicies(t, "strict", "lexical", "cargo")
	want, err := compare.Run(context.Background(), d, ps, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for i, p := range runShards(t, d, ps, compare.Options{}, 3) {
		paths = append(paths, writePartial(t, dir, fmt.Sprintf("part%d.json", i), p))
	}
	domains, lookups := 0, 0
	opts := MergeOptions{
		Hints:    cliHints,
		Domain:   func([]string, compare.DomainInfo) (compare.Domain, error) { domains++; return d, nil },
		Policies: func([]string) ([]engine.Policy, error) { lookups++; return ps, nil },
	}
	merged, err := Merge(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, "the merged report", indented(t, merged.Report), indented(t, want))
	if domains != 1 || lookups != 1 || merged.Domain != d {
		t.Errorf("the domain made %d times, the policies got %d times", domains, lookups)
	}
	partial, err := Merge(context.Background(), paths[:2], MergeOptions{Hints: cliHints, Partial: true})
	if err != nil || partial.Partial == nil || partial.Partial.Complete() {
		t.Errorf("--partial of 2 of 3 shards: %v", err)
	}

	_, err = Merge(context.Background(), paths[:2], opts)
	if !errors.Is(err, ErrBadParts) {
		t.Errorf("a missing shard: %v, want ErrBadParts", err)
	}
	_, err = Merge(context.Background(), append(paths, paths[0]), opts)
	if !errors.Is(err, ErrBadParts) {
		t.Errorf("a shard given twice: %v, want ErrBadParts", err)
	}
	var read *ReadError
	_, err = Merge(context.Background(), []string{filepath.Join(dir, "none.json")}, opts)
	if !errors.As(err, &read) || errors.Is(err, ErrBadParts) {
		t.Errorf("a file that does not exist: %v, want a ReadError", err)
	}
	noDomain := opts
	noDomain.Domain = func([]string, compare.DomainInfo) (compare.Domain, error) { return nil, errors.New("no such domain") }
	if _, err = Merge(context.Background(), paths, noDomain); !errors.Is(err, ErrBadParts) {
		t.Errorf("a domain that cannot be made again: %v, want ErrBadParts", err)
	}
}
