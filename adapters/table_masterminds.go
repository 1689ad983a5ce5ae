package adapters

import (
	"reflect"
	"sync"
	"sync/atomic"

	semver "github.com/Masterminds/semver/v3"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The tables of masterminds and masterminds-pre. The translation writes
// each comparator as a piece (two comparators for a "~>") and joins the
// pieces with ", ", which semver.NewConstraint reads as one AND group of
// the pieces' comparators; Constraints.Check admits a version that every
// comparator admits, each checked with prereleases included when
// IncludePrerelease is set or some comparator of the group names a
// prerelease. So each piece has two columns: with IncludePrerelease set
// (included) and without it (notIncluded: the piece's own comparators
// decide, and a piece that names no prerelease leaves them out); a
// constraint takes the included columns when it includes prereleases and
// the others otherwise, and its verdict is every piece's. Each column is
// checked the first time a constraint needs it. A constraint that
// translates to "*" or to more than semver.MaxConstraintLen bytes, or
// whose pieces Masterminds refuses or panics on, is compiled whole as
// Compile does and judged with Check.
//
// The tables of masterminds and masterminds-pre that read the same
// versions in turn, as a run reads each list with every policy, share
// the versions and the pieces' columns (sharedMastermindsList): Check
// answers the same for a release with IncludePrerelease set or not
// (includedColumn), so the included column of a piece whose other column
// is checked already calls Check on the prereleases alone.

var _ engine.VersionReader = Masterminds{}

// ReadVersions reads versions with Masterminds' NewVersion, once.
func (m Masterminds) ReadVersions(texts []string) engine.VersionTable {
	l := sharedMastermindsList(texts)
	t := &mastermindsTable{m: m, versions: l.versions, errs: l.errs, pieces: l.pieces}
	t.read = readMastermindsPiece
	return t
}

type mastermindsTable struct {
	m        Masterminds
	versions []*semver.Version // nil where NewVersion refused the text
	errs     []error
	pieces   *listcache.Memo[mastermindsColumns] // shared with the other table of the list
	read     func(string) *mastermindsColumns
}

// mastermindsList is a list of versions as the Masterminds tables read
// it: the versions and the pieces' columns, which
// the tables of masterminds and masterminds-pre share.
type mastermindsList struct {
	versions []*semver.Version
	errs     []error
	pieces   *listcache.Memo[mastermindsColumns]
}

// mastermindsLists are the lists the Masterminds tables read last.
var mastermindsLists listcache.Cache[mastermindsList]

// sharedMastermindsList returns texts read as a mastermindsList, shared
// with the other tables that read the same texts; its memo's bound is
// the variant, which the tests change.
func sharedMastermindsList(texts []string) *mastermindsList {
	return mastermindsLists.Get(texts, memoLimit(len(texts)), readMastermindsList)
}

// readMastermindsList reads texts with NewVersion.
func readMastermindsList(texts []string) *mastermindsList {
	l := &mastermindsList{
		versions: make([]*semver.Version, len(texts)),
		errs:     make([]error, len(texts)),
		pieces:   newMemo[mastermindsColumns](len(texts)),
	}
	for i, text := range texts {
		l.versions[i], l.errs[i] = parseMastermindsVersion(text)
	}
	return l
}

// mastermindsColumns are one translated piece as Masterminds read it,
// and its columns, each checked the first time a constraint needs it.
type mastermindsColumns struct {
	cs                    *semver.Constraints // nil where Masterminds refused the piece
	included, notIncluded lazyColumn
}

// lazyColumn is a column made once; done is set once it is made, so that
// another column can read it without waiting for it.
type lazyColumn struct {
	once sync.Once
	done atomic.Bool
	col  column
}

// get makes the column with make the first time and returns it.
func (l *lazyColumn) get(make func() column) *column {
	l.once.Do(func() {
		l.col = make()
		l.done.Store(true)
	})
	return &l.col
}

// made returns the column when it is made, or nil.
func (l *lazyColumn) made() *column {
	if !l.done.Load() {
		return nil
	}
	return &l.col
}

// Len is the number of versions.
func (t *mastermindsTable) Len() int { return len(t.versions) }

// readMastermindsPiece parses one translated piece with
// semver.NewConstraint.
func readMastermindsPiece(text string) *mastermindsColumns {
	cs, err := newMastermindsConstraint(text)
	if err != nil {
		return &mastermindsColumns{}
	}
	return &mastermindsColumns{cs: cs}
}

// notIncludedColumn is the piece's column without IncludePrerelease.
func (t *mastermindsTable) notIncludedColumn(p *mastermindsColumns) *column {
	return p.notIncluded.get(func() column {
		notIncluded := *p.cs
		notIncluded.IncludePrerelease = false
		return t.checkColumn(&notIncluded)
	})
}

// includedColumn is the piece's column with IncludePrerelease set. Where
// the piece's column without it is made already, a release keeps its
// verdict there: Masterminds v3.5.0's constraint functions
// (constraints.go) read IncludePrerelease only to refuse a prerelease,
// so Check answers the same for a release either way
// (TestMastermindsIncludedReleases holds it to Check).
func (t *mastermindsTable) includedColumn(p *mastermindsColumns) *column {
	return p.included.get(func() column {
		included := *p.cs
		included.IncludePrerelease = true
		if known := p.notIncluded.made(); known != nil && !known.panicked {
			return newColumn(len(t.versions), func(i int) engine.Verdict {
				if t.errs[i] == nil && t.versions[i].Prerelease() == "" {
					return known.v[i]
				}
				return t.checkOne(&included, i)
			})
		}
		return t.checkColumn(&included)
	})
}

// newMastermindsConstraint is semver.NewConstraint, turning a panic into
// an error.
func newMastermindsConstraint(text string) (cs *semver.Constraints, err error) {
	defer func() {
		if p := recover(); p != nil {
			cs, err = nil, panicError("Masterminds NewConstraint", p)
		}
	}()
	return cachedMastermindsConstraint(text)
}

// checkColumn is the column of cs.Check over the table's versions. Where
// Check refuses every prerelease (mastermindsRefusesPrereleases), a
// prerelease is Reject without the call, which would build an error to
// throw away.
func (t *mastermindsTable) checkColumn(cs *semver.Constraints) column {
	refusesPre := mastermindsRefusesPrereleases(cs)
	return newColumn(len(t.versions), func(i int) engine.Verdict {
		if refusesPre && t.errs[i] == nil && t.versions[i].Prerelease() != "" {
			return engine.Reject
		}
		return t.checkOne(cs, i)
	})
}

// checkOne is cs.Check on version i: Invalid where NewVersion refused
// the version.
func (t *mastermindsTable) checkOne(cs *semver.Constraints, i int) engine.Verdict {
	if t.errs[i] != nil {
		return engine.Invalid
	}
	return mastermindsCheck(cs, t.versions[i])
}

// mastermindsRefusesPrereleases reports whether cs.Check refuses every
// prerelease version, as Masterminds v3.5.0 does (constraints.go) when
// IncludePrerelease is not set and no AND group of cs contains a
// prerelease: Check ands, in each group, the group's constraint functions
// with includePre = IncludePrerelease || containsPre[group], and every
// constraint function (constraintOps: = != > < >= <= ~ ^ and their
// aliases) first returns false for a prerelease when includePre is not
// set, so every non-empty group refuses it. containsPre and the groups
// are unexported: they are read with reflect, and any other layout than
// v3.5.0's answers false (Check is then called for every version).
// TestMastermindsRefusesPrereleases holds it to Check.
func mastermindsRefusesPrereleases(cs *semver.Constraints) bool {
	if cs == nil || cs.IncludePrerelease {
		return false
	}
	v := reflect.ValueOf(cs).Elem()
	pre, groups := v.FieldByName("containsPre"), v.FieldByName("constraints")
	if pre.Kind() != reflect.Slice || pre.Type().Elem().Kind() != reflect.Bool ||
		groups.Kind() != reflect.Slice || groups.Type().Elem().Kind() != reflect.Slice || pre.Len() != groups.Len() || pre.Len() == 0 {
		return false
	}
	for i := range pre.Len() {
		if pre.Index(i).Bool() || groups.Index(i).Len() == 0 {
			return false
		}
	}
	return true
}

// mastermindsCheck is Constraints.Check as a verdict, verdictPanicked when
// it panics.
func mastermindsCheck(cs *semver.Constraints, v *semver.Version) (verdict engine.Verdict) {
	defer func() {
		if recover() != nil {
			verdict = verdictPanicked
		}
	}()
	if cs.Check(v) {
		return engine.Allow
	}
	return engine.Reject
}

// Compile translates constraint and reads it piece by piece, or whole.
func (t *mastermindsTable) Compile(constraint string) (engine.TableMatcher, error) {
	var buf [4]mastermindsPiece
	text, pieces, err := mastermindsPieces(constraint, buf[:0])
	if err != nil {
		// Compile's error.
		_, err := t.m.compile(constraint)
		return nil, err
	}
	if len(pieces) == 0 || len(text) > semver.MaxConstraintLen {
		return t.whole(constraint)
	}
	includePre := t.m.IncludePrerelease
	for _, p := range pieces {
		includePre = includePre || p.prerelease
	}
	m := &mastermindsTableMatcher{t: t, constraint: constraint, translated: text}
	m.cols = m.colBuf[:0]
	for _, p := range pieces {
		c := t.pieces.Get(p.text, t.read)
		if c.cs == nil {
			return t.whole(constraint)
		}
		var col *column
		switch {
		case t.m.IncludePrerelease:
			col = t.includedColumn(c)
		case includePre:
			// masterminds: the column without IncludePrerelease first,
			// whose releases the included column takes.
			if col = t.notIncludedColumn(c); !col.panicked {
				col = t.includedColumn(c)
			}
		default:
			col = t.notIncludedColumn(c)
		}
		if col.panicked {
			return t.whole(constraint)
		}
		m.cols = append(m.cols, col)
	}
	return m, nil
}

// whole compiles constraint as Compile does, for a matcher that calls
// Check on every version.
func (t *mastermindsTable) whole(constraint string) (engine.TableMatcher, error) {
	mm, err := t.m.compile(constraint)
	if err != nil {
		return nil, err
	}
	return &mastermindsWholeMatcher{t: t, m: mm}, nil
}

type mastermindsTableMatcher struct {
	t          *mastermindsTable
	constraint string
	translated string // MastermindsConstraint's text of the constraint
	cols       []*column
	colBuf     [4]*column
	text       lazyResult[mastermindsMatcher]
}

// Judge is Match on version i. The columns give Check's answer: a version
// they admit is worded without a call to Masterminds, and only a version
// they refuse has the constraint compiled whole, for Validate to say why.
func (m *mastermindsTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	if m.admits(i) {
		return mastermindsAllowed(m.translated)
	}
	mm, err := m.text.get(func() (mastermindsMatcher, error) { return m.t.m.compile(m.constraint) })
	if err != nil {
		return engine.InvalidResult(err)
	}
	return mm.rejectParsed(m.t.versions[i])
}

// admits reports whether every column admits version i, as Verdicts
// answers Allow for it.
func (m *mastermindsTableMatcher) admits(i int) bool {
	for _, c := range m.cols {
		if c.v[i] != engine.Allow {
			return false
		}
	}
	return true
}

// Verdicts: every piece's column admits the version.
func (m *mastermindsTableMatcher) Verdicts(out []engine.Verdict) { and(out, m.cols) }

type mastermindsWholeMatcher struct {
	t *mastermindsTable
	m mastermindsMatcher
}

// Judge is Match on version i.
func (m *mastermindsWholeMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	return m.m.judgeParsed(m.t.versions[i])
}

// Verdicts is Check on every version; a panic is Invalid, as in Match.
func (m *mastermindsWholeMatcher) Verdicts(out []engine.Verdict) {
	for i := range out {
		if m.t.errs[i] != nil {
			out[i] = engine.Invalid
			continue
		}
		if out[i] = mastermindsCheck(m.m.cs, m.t.versions[i]); out[i] == verdictPanicked {
			out[i] = engine.Invalid
		}
	}
}
