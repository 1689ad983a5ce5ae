package engine

import "sync"

// The fast path. A caller that judges many constraints against the same
// versions (compare's harness, select, eval) reads the versions once per
// policy into a VersionTable and compiles each constraint against it. The
// Policy and Matcher contract on text stays what users implement; a
// policy that also implements VersionReader gives the fast path its own
// parsed forms, and any other policy gets ReadVersions' generic table,
// which judges the texts with Compile and Match. Both paths give the same
// results: the packages that implement VersionReader prove it on the
// exhaustive domain.

// VersionReader is implemented by a Policy that can read a list of
// versions once, in its own parsed form, and judge it against many
// compiled constraints.
type VersionReader interface {
	Policy
	// ReadVersions reads versions once. The table judges versions[i] at
	// position i exactly as Compile and Match would judge the text.
	ReadVersions(versions []string) VersionTable
}

// VersionTable is one policy's reading of a list of versions. It must be
// safe for concurrent use.
type VersionTable interface {
	// Len is the number of versions read.
	Len() int
	// Compile compiles constraint as the policy's Compile does: an error
	// is the policy's refusal of the constraint, and the caller then
	// judges every version Invalid with InvalidResult(err).
	Compile(constraint string) (TableMatcher, error)
}

// TableMatcher judges the versions of its table against one constraint.
// It must be safe for concurrent use.
type TableMatcher interface {
	// Judge returns the result for the table's version i, reason
	// included: exactly what Matcher.Match returns for its text.
	Judge(i int) Result
	// Verdicts writes the verdict of every version of the table into out,
	// which has the table's length: out[i] is Judge(i).Verdict, without
	// the reasons. It is the hot path and should not allocate.
	Verdicts(out []Verdict)
}

// ReadVersions returns p's table of versions: p's own when p is a
// VersionReader, otherwise a table that keeps the texts and judges them
// with p.Compile and Match (MatchAll for a BatchMatcher). A nil p gives a
// table whose Compile fails with ErrNilPolicy.
func ReadVersions(p Policy, versions []string) VersionTable {
	if !isNil(p) {
		if r, ok := p.(VersionReader); ok {
			if t := r.ReadVersions(versions); !isNil(t) {
				return t
			}
		}
	}
	return &textTable{p: p, versions: versions}
}

// TextTable returns the generic table of ReadVersions for p, even when p
// is a VersionReader: the readable path that a VersionReader's own table
// must agree with.
func TextTable(p Policy, versions []string) VersionTable {
	return &textTable{p: p, versions: versions}
}

// textTable is the generic VersionTable: the version texts and p.
type textTable struct {
	p        Policy
	versions []string
}

func (t *textTable) Len() int { return len(t.versions) }

func (t *textTable) Compile(constraint string) (TableMatcher, error) {
	m, err := compile(t.p, constraint)
	if err != nil {
		return nil, err
	}
	if bm, ok := m.(BatchMatcher); ok {
		return &batchTableMatcher{m: bm, versions: t.versions}, nil
	}
	return &textMatcher{m: m, versions: t.versions}, nil
}

// textMatcher judges a textTable's versions with a Matcher, one at a
// time.
type textMatcher struct {
	m        Matcher
	versions []string
}

func (m *textMatcher) Judge(i int) Result { return m.m.Match(m.versions[i]) }

func (m *textMatcher) Verdicts(out []Verdict) {
	if vm, ok := m.m.(VerdictMatcher); ok {
		for i, v := range m.versions[:len(out)] {
			out[i] = vm.MatchVerdict(v)
		}
		return
	}
	for i, v := range m.versions[:len(out)] {
		out[i] = m.m.Match(v).Verdict
	}
}

// VerdictMatcher is implemented by a Matcher that can judge a version
// without building the reason: MatchVerdict(v) is Match(v).Verdict. A
// table of texts (TextTable) uses it for TableMatcher.Verdicts, the hot
// path of a differential run.
type VerdictMatcher interface {
	Matcher
	MatchVerdict(version string) Verdict
}

// batchTableMatcher judges a textTable's versions with one MatchAll call,
// made the first time a result is asked for and kept.
type batchTableMatcher struct {
	m        BatchMatcher
	versions []string
	once     sync.Once
	results  []Result
}

func (m *batchTableMatcher) all() []Result {
	m.once.Do(func() {
		m.results = make([]Result, len(m.versions))
		m.m.MatchAll(m.versions, m.results)
	})
	return m.results
}

func (m *batchTableMatcher) Judge(i int) Result { return m.all()[i] }

func (m *batchTableMatcher) Verdicts(out []Verdict) {
	for i, r := range m.all()[:len(out)] {
		out[i] = r.Verdict
	}
}
