package adapters

import (
	"reflect"
	"sync"

	semver "github.com/Masterminds/semver/v3"

	"github.com/prerel/prerel/engine"
)

// The tables of masterminds and masterminds-pre. The translation writes
// each comparator as a piece (two comparators for a "~>") and joins the
// pieces with ", ", which semver.NewConstraint reads as one AND group of
// the pieces' comparators; Constraints.Check admits a version that every
// comparator admits, each checked with prereleases included when
// IncludePrerelease is set or some comparator of the group names a
// prerelease. So the table keeps, for each piece, its column with
// IncludePrerelease set and, for masterminds, without it (the piece's
// own comparators then decide, and a piece that names no prerelease
// leaves them out); a constraint takes the first columns when it
// includes prereleases and the second otherwise, and its verdict is
// every piece's. For masterminds the first column of a piece is checked
// only when a constraint needs it. A constraint that translates to "*" or to more than
// semver.MaxConstraintLen bytes, or whose pieces Masterminds refuses or
// panics on, is compiled whole as Compile does and judged with Check.

var _ engine.VersionReader = Masterminds{}

// ReadVersions reads versions with Masterminds' NewVersion, once.
func (m Masterminds) ReadVersions(texts []string) engine.VersionTable {
	t := &mastermindsTable{
		m:        m,
		versions: make([]*semver.Version, len(texts)),
		errs:     make([]error, len(texts)),
		pieces:   newMemo[mastermindsColumns](len(texts)),
	}
	for i, text := range texts {
		t.versions[i], t.errs[i] = parseMastermindsVersion(text)
	}
	t.read = t.readPiece
	return t
}

type mastermindsTable struct {
	m        Masterminds
	versions []*semver.Version // nil where NewVersion refused the text
	errs     []error
	pieces   *memo[mastermindsColumns]
	read     func(string) *mastermindsColumns
}

// mastermindsColumns are one translated piece's columns: with
// IncludePrerelease set, and without it (for masterminds only). ok is
// false when Masterminds refused the piece or panicked on the first
// column it needs: included for masterminds-pre, notIncluded for
// masterminds, whose included column is checked only when a constraint
// that includes prereleases first needs it (includedColumn), as most
// constraints do not.
type mastermindsColumns struct {
	ok                    bool
	cs                    *semver.Constraints // the piece as Masterminds read it
	included, notIncluded column
	includedOnce          sync.Once
}

// Len is the number of versions.
func (t *mastermindsTable) Len() int { return len(t.versions) }

// readPiece parses one translated piece with semver.NewConstraint and
// checks every version.
func (t *mastermindsTable) readPiece(text string) *mastermindsColumns {
	p := &mastermindsColumns{}
	cs, err := newMastermindsConstraint(text)
	if err != nil {
		return p
	}
	p.cs = cs
	if t.m.IncludePrerelease {
		if t.includedColumn(p).panicked {
			return p
		}
	} else {
		notIncluded := *cs
		notIncluded.IncludePrerelease = false
		if p.notIncluded = t.checkColumn(&notIncluded); p.notIncluded.panicked {
			return p
		}
	}
	p.ok = true
	return p
}

// includedColumn is the piece's column with IncludePrerelease set,
// checked the first time it is needed. Where the piece's column without
// it is checked already, a release keeps its verdict there: Masterminds
// v3.5.0's constraint functions (constraints.go) read IncludePrerelease
// only to refuse a prerelease, so Check answers the same for a release
// either way (TestMastermindsIncludedReleases holds it to Check).
func (t *mastermindsTable) includedColumn(p *mastermindsColumns) *column {
	p.includedOnce.Do(func() {
		included := *p.cs
		included.IncludePrerelease = true
		if known := p.notIncluded.v; known != nil && !p.notIncluded.panicked {
			p.included = newColumn(len(t.versions), func(i int) engine.Verdict {
				if t.errs[i] == nil && t.versions[i].Prerelease() == "" {
					return known[i]
				}
				return t.checkOne(&included, i)
			})
			return
		}
		p.included = t.checkColumn(&included)
	})
	return &p.included
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
	m := &mastermindsTableMatcher{t: t, constraint: constraint}
	m.cols = m.colBuf[:0]
	for _, p := range pieces {
		c := t.pieces.get(p.text, t.read)
		if !c.ok {
			return t.whole(constraint)
		}
		col := &c.notIncluded
		if includePre {
			if col = t.includedColumn(c); col.panicked {
				return t.whole(constraint)
			}
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
	cols       []*column
	colBuf     [4]*column
	text       lazyResult[mastermindsMatcher]
}

// Judge is Match on version i.
func (m *mastermindsTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	mm, err := m.text.get(func() (mastermindsMatcher, error) { return m.t.m.compile(m.constraint) })
	if err != nil {
		return engine.InvalidResult(err)
	}
	return mm.judgeParsed(m.t.versions[i])
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
