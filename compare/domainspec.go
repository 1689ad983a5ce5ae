package compare

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/suggest"
)

// The kinds of domain a DomainSpec names.
const (
	DomainExhaustive = "exhaustive"
	DomainRandom     = "random"
	DomainCorpus     = "corpus"
	DomainFile       = "file"
	DomainAges       = "ages"
)

// domainsExpected lists what --domain takes, for messages.
const domainsExpected = "expected exhaustive, random, corpus, ages or a file of CONSTRAINT<TAB>VERSION lines"

// A DomainSpec names a domain as prerel compare's flags do, and as a
// partial report records them (Args): --domain (a built-in domain,
// spelled exactly, or a file) and the flags of each built-in domain.
type DomainSpec struct {
	// Name is exhaustive, random, corpus, ages, or else a file.
	Name string
	// Scope is the exhaustive domain's; Seed and Count the random
	// domain's; Pairing the corpus domain's.
	Scope   int
	Seed    int64
	Count   int
	Pairing string
}

// DomainKind tells which kind of domain the --domain value name names:
// one of the built-in domains, spelled exactly, or else a file. An empty
// name is an error that lists the domains.
func DomainKind(name string) (string, error) {
	switch name {
	case DomainExhaustive, DomainRandom, DomainCorpus, DomainAges:
		return name, nil
	case "":
		return "", fmt.Errorf("--domain is empty: %s", domainsExpected)
	}
	return DomainFile, nil
}

// DomainFlagKinds names, for each flag that applies to one kind of
// domain only, that kind.
var DomainFlagKinds = map[string]string{
	"scope":   DomainExhaustive,
	"seed":    DomainRandom,
	"count":   DomainRandom,
	"pairing": DomainCorpus,
	"min-age": DomainAges,
}

// CheckDomainFlags refuses, for a domain of kind, the first of the flags
// given (names without "--", in order) that applies to another kind of
// domain only (DomainFlagKinds), so that none is ignored in silence.
func CheckDomainFlags(kind string, given []string) error {
	for _, name := range given {
		want, ok := DomainFlagKinds[name]
		if !ok || want == kind {
			continue
		}
		what := "--domain " + kind
		if kind == DomainFile {
			what = "a file domain"
		}
		return fmt.Errorf("--%s applies only to --domain %s, and this run has %s", name, want, what)
	}
	return nil
}

// Args are the flags that make the domain again, for a partial report:
// --domain and the flags of its kind.
func (s DomainSpec) Args() []string {
	kind, _ := DomainKind(s.Name)
	switch kind {
	case DomainExhaustive:
		return []string{"--domain", kind, "--scope", strconv.Itoa(s.Scope)}
	case DomainRandom:
		return []string{"--domain", kind, "--seed", strconv.FormatInt(s.Seed, 10), "--count", strconv.Itoa(s.Count)}
	case DomainCorpus:
		return []string{"--domain", kind, "--pairing", s.Pairing}
	}
	return []string{"--domain", s.Name}
}

// A CorpusError is the error of Open for a corpus domain whose corpus
// cannot be read: the built-in corpus's fault, not the spec's.
type CorpusError struct{ Err error }

func (e *CorpusError) Error() string { return e.Err.Error() }
func (e *CorpusError) Unwrap() error { return e.Err }

// Open makes the domain s names, but the ages domain (package
// compare/age), the corpus domain from corpus (prerel.Corpus). A built-in
// domain's flags out of range are an error that says so; the corpus
// failing to be read a CorpusError; a file domain gives File's error,
// but a name that is neither a domain nor a file, which gets the list of
// domains and the nearest one.
func (s DomainSpec) Open(corpus fs.FS) (Domain, error) {
	kind, err := DomainKind(s.Name)
	if err != nil {
		return nil, err
	}
	switch kind {
	case DomainExhaustive:
		return Exhaustive(s.Scope)
	case DomainRandom:
		if s.Count < 1 || s.Count > MaxRandomCount {
			return nil, fmt.Errorf("--count must be from 1 to %d, got %d", MaxRandomCount, s.Count)
		}
		return Random(s.Seed, s.Count)
	case DomainCorpus:
		p, err := ParsePairing(s.Pairing)
		if err != nil {
			return nil, err
		}
		d, err := Corpus(corpus, p)
		if err != nil {
			return nil, &CorpusError{err}
		}
		return d, nil
	case DomainAges:
		return nil, errors.New("the ages domain is made by package compare/age")
	}
	d, err := File(s.Name)
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(s.Name, `/\.`) {
		hint := ""
		if k := suggest.Closest(s.Name, []string{DomainExhaustive, DomainRandom, DomainCorpus}); k != "" {
			hint = fmt.Sprintf(" (did you mean %s?)", k)
		}
		return nil, fmt.Errorf("--domain %s: no such domain or file: %s%s", printable.String(s.Name), domainsExpected, hint)
	}
	return d, err
}
