package shard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
)

// TestRemakeDomain makes a built-in domain again from the flags a
// partial report records, a file domain only from the merge's own file,
// and refuses a domain that is not the one the shards ran.
func TestRemakeDomain(t *testing.T) {
	spec := compare.DomainSpec{Name: "random", Seed: 3, Count: 10}
	d, err := spec.Open(prerel.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(file, []byte(">= 1.0\t1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := compare.File(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		info compare.DomainInfo
		file string
		err  string // "" when the domain is made again
	}{
		{spec.Args(), d.Info(), "", ""},
		{[]string{"--domain", file}, fd.Info(), file, ""},
		{nil, d.Info(), "", "the partial reports do not record how their domain was made"},
		{[]string{"--domain", "random", "--nope"}, d.Info(), "", "which this prerel does not read"},
		{[]string{"--domain", "random", "--seed", "3", "--count", "0"}, d.Info(), "", "cannot be made again: --count must be from 1"},
		{[]string{"--domain", "/elsewhere/cases.tsv"}, fd.Info(), "", "the shards ran a file domain (--domain /elsewhere/cases.tsv): give merge --domain with that file"},
		{[]string{"--domain", "random", "--seed", "4", "--count", "10"}, d.Info(), "", "made again is"},
	}
	for _, tt := range tests {
		got, err := RemakeDomain(tt.args, tt.info, tt.file, prerel.Corpus())
		if tt.err == "" {
			if err != nil || got.Info() != tt.info {
				t.Errorf("%q: %v", tt.args, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
		}
	}
}
