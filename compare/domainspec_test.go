package compare_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
)

// TestDomainSpec makes each built-in domain from its flags, records the
// flags that make it again, and says what is wrong with flags out of
// range, a misspelt domain and a corpus that cannot be read.
func TestDomainSpec(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cases.tsv")
	if err := os.WriteFile(file, []byte(">= 1.0\t1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec compare.DomainSpec
		args string // of a spec that opens, else the error
		err  string
	}{
		{compare.DomainSpec{Name: "exhaustive", Scope: 2}, "--domain exhaustive --scope 2", ""},
		{compare.DomainSpec{Name: "random", Seed: 3, Count: 10}, "--domain random --seed 3 --count 10", ""},
		{compare.DomainSpec{Name: "corpus", Pairing: "all"}, "--domain corpus --pairing all", ""},
		{compare.DomainSpec{Name: file}, "--domain " + file, ""},
		{compare.DomainSpec{Name: "random", Count: 0}, "", "--count must be from 1 to 1000000, got 0"},
		{compare.DomainSpec{Name: "corpus", Pairing: "some"}, "", "pairing"},
		{compare.DomainSpec{Name: "exhaustiv"}, "", "--domain exhaustiv: no such domain or file: expected exhaustive, random, corpus, ages or a file of CONSTRAINT<TAB>VERSION lines (did you mean exhaustive?)"},
		{compare.DomainSpec{Name: ""}, "", "--domain is empty: expected exhaustive"},
	}
	for _, tt := range tests {
		d, err := tt.spec.Open(prerel.Corpus())
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || d == nil {
			t.Fatalf("%+v: %v", tt.spec, err)
		}
		if got := strings.Join(tt.spec.Args(), " "); got != tt.args {
			t.Errorf("%+v: args %q, want %q", tt.spec, got, tt.args)
		}
	}
	_, err := compare.DomainSpec{Name: "corpus", Pairing: "context"}.Open(fstest.MapFS{})
	if ce := (*compare.CorpusError)(nil); !errors.As(err, &ce) {
		t.Errorf("an empty corpus: %v, want a CorpusError", err)
	}
	for name, want := range map[string]string{"exhaustive": "exhaustive", "ages": "ages", "Exhaustive": "file", "x.tsv": "file"} {
		if got, err := compare.DomainKind(name); got != want || err != nil {
			t.Errorf("DomainKind(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
}

func TestCheckDomainFlags(t *testing.T) {
	for _, tt := range []struct {
		kind  string
		given []string
		err   string
	}{
		{compare.DomainExhaustive, []string{"format", "scope"}, ""},
		{compare.DomainRandom, []string{"count", "seed"}, ""},
		{compare.DomainRandom, []string{"count", "pairing", "scope"}, "--pairing applies only to --domain corpus, and this run has --domain random"},
		{compare.DomainFile, []string{"domain", "min-age"}, "--min-age applies only to --domain ages, and this run has a file domain"},
		{compare.DomainAges, []string{"min-age", "policies"}, ""},
	} {
		err := compare.CheckDomainFlags(tt.kind, tt.given)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || err.Error() != tt.err) {
			t.Errorf("CheckDomainFlags(%s, %q) = %v, want %q", tt.kind, tt.given, err, tt.err)
		}
	}
}
