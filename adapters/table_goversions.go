package adapters

import (
	"strings"

	"github.com/apparentlymart/go-versions/versions"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The tables of apparentlymart, apparentlymart-exact and
// go-versions-cargo. ParseRubyStyleMulti reads one comparator after
// another, each up to the comma that must follow it, and gives the
// intersection of their specs; no comparator's text holds a comma. So a
// constraint whose comma-separated pieces each parse alone to one
// comparator parses to those comparators in order, and the table keeps,
// for each piece text, the library's sets for that comparator and their
// columns over the table's versions:
//
//   - MeetingConstraintsExact of an intersection is the intersection of
//     its comparators' sets, so exact membership is every piece's column
//     (Set.Has answers for the Unspecified version 0.0.0 only whether the
//     set is All, which an intersection of two or more never is).
//   - MeetingConstraints adds to the exact set's releases the prereleases
//     the exact set requests (AllRequested): those an "=" comparator names,
//     when they are in the exact set. So a prerelease is in the set when
//     every piece's column has it and some piece's AllRequested has it;
//     0.0.0 never is.
//   - go-versions-cargo's set is the range (every comparator's range)
//     with, for a prerelease, a window or a request of the range; 0.0.0
//     is in none of its sets.
//
// A constraint whose pieces do not each parse alone to one comparator
// (the empty constraint, blank text, a syntax error), or whose columns
// met a library panic, is compiled from its whole text as Compile does
// and judged with Set.Has on the versions the table read.

var (
	_ engine.VersionReader = ApparentlyMart{}
	_ engine.VersionReader = GoVersionsCargo{}
)

// goVersionsTable is a list of versions as go-versions' ParseVersion
// reads them, with the columns of the constraint pieces met so far.
type goVersionsTable struct {
	versions    []versions.Version
	errs        []error
	unspecified []int // the versions that are Unspecified (0.0.0)
	prereleases []int // the readable versions with a prerelease
	pieces      *listcache.Memo[rubyPiece]
	read        func(string) *rubyPiece
}

// rubyPiece is one piece of constraint text that ParseRubyStyleMulti
// reads as one comparator, with its columns; ok is false when it does
// not, or when its sets cannot be built without a panic or judged
// without one.
type rubyPiece struct {
	ok bool
	// in is the column of the comparator's set: MeetingConstraintsExact
	// for apparentlymart, the range for go-versions-cargo.
	in column
	// requested is the column of that set's AllRequested, over the
	// prereleases.
	requested column
	// window is go-versions-cargo's window column, over the prereleases.
	window column
}

// newGoVersionsTable reads texts with ParseVersion.
func newGoVersionsTable(texts []string) *goVersionsTable {
	t := &goVersionsTable{
		versions: make([]versions.Version, len(texts)),
		errs:     make([]error, len(texts)),
		pieces:   newMemo[rubyPiece](len(texts)),
	}
	for i, text := range texts {
		v, err := parseVersionsVersion(text)
		t.versions[i], t.errs[i] = v, err
		switch {
		case err != nil:
		case v == versions.Unspecified:
			t.unspecified = append(t.unspecified, i)
		case v.Prerelease != "":
			t.prereleases = append(t.prereleases, i)
		}
	}
	return t
}

// Len is the number of versions.
func (t *goVersionsTable) Len() int { return len(t.versions) }

// setColumn is the column of set.Has over every readable version, and
// whether none panicked.
func (t *goVersionsTable) setColumn(set versions.Set) (column, bool) {
	c := newColumn(len(t.versions), func(i int) engine.Verdict {
		if t.errs[i] != nil {
			return engine.Invalid
		}
		return hasVerdict(set, t.versions[i])
	})
	return c, !c.panicked
}

// preColumn is the column of set.Has over the prereleases (Reject
// elsewhere), and whether none panicked.
func (t *goVersionsTable) preColumn(set versions.Set) (column, bool) {
	c := column{v: make([]engine.Verdict, len(t.versions))}
	for _, i := range t.prereleases {
		if c.v[i] = hasVerdict(set, t.versions[i]); c.v[i] == verdictPanicked {
			return c, false
		}
	}
	return c, true
}

// hasVerdict is Set.Has as a verdict, verdictPanicked when it panics.
func hasVerdict(set versions.Set, v versions.Version) engine.Verdict {
	switch has, err := setHas(set, v); {
	case err != nil:
		return verdictPanicked
	case has:
		return engine.Allow
	}
	return engine.Reject
}

// rubyPieces is a constraint as a table compiled it: its pieces and
// their in columns, in order, with room for a few pieces in the matcher
// itself.
type rubyPieces struct {
	pieces   []*rubyPiece
	in       []*column
	pieceBuf [4]*rubyPiece
	inBuf    [4]*column
}

// compile reads constraint into c piece by piece, and returns false when
// one of them is not a comparator of its own or could not be judged.
func (t *goVersionsTable) compile(constraint string, c *rubyPieces) bool {
	c.pieces, c.in = c.pieceBuf[:0], c.inBuf[:0]
	for text := range strings.SplitSeq(constraint, ",") {
		p := t.pieces.Get(text, t.read)
		if !p.ok {
			return false
		}
		c.pieces = append(c.pieces, p)
		c.in = append(c.in, &p.in)
	}
	return true
}

// ReadVersions reads versions with go-versions' ParseVersion, once.
func (a ApparentlyMart) ReadVersions(texts []string) engine.VersionTable {
	t := &apparentlymartTable{goVersionsTable: newGoVersionsTable(texts), a: a}
	t.read = t.readPiece
	return t
}

type apparentlymartTable struct {
	*goVersionsTable
	a ApparentlyMart
}

// readPiece parses one piece with ParseRubyStyleMulti and builds the
// comparator's MeetingConstraintsExact set and its AllRequested.
func (t *apparentlymartTable) readPiece(text string) *rubyPiece {
	p := &rubyPiece{}
	spec, err := parseRubyStyle(text)
	if err != nil || len(spec) != 1 {
		return p
	}
	set, err := meetingConstraints(spec, true)
	if err != nil {
		return p
	}
	var ok bool
	if p.in, ok = t.setColumn(set); !ok {
		return p
	}
	if !t.a.Exact {
		requested, err := allRequested(set)
		if err != nil {
			return p
		}
		if p.requested, ok = t.preColumn(requested); !ok {
			return p
		}
	}
	p.ok = true
	return p
}

// allRequested is Set.AllRequested, turning a panic into an error.
func allRequested(set versions.Set) (r versions.Set, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = versions.None, panicError("go-versions Set.AllRequested", p)
		}
	}()
	return set.AllRequested(), nil
}

// Compile parses constraint as Compile does: piece by piece when each
// piece is one comparator, otherwise whole.
func (t *apparentlymartTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &apparentlymartTableMatcher{t: t, constraint: constraint}
	if !t.compile(constraint, &m.c) {
		m, err := t.a.compile(constraint)
		if err != nil {
			return nil, err
		}
		return &setTableMatcher{t: t.goVersionsTable, set: m.set, judge: m.judgeParsed}, nil
	}
	return m, nil
}

type apparentlymartTableMatcher struct {
	t          *apparentlymartTable
	constraint string
	c          rubyPieces
	text       lazyResult[apparentlymartMatcher]
}

// Judge is Match on version i.
func (m *apparentlymartTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	tm, err := m.text.get(func() (apparentlymartMatcher, error) { return m.t.a.compile(m.constraint) })
	if err != nil {
		return engine.InvalidResult(err)
	}
	return tm.judgeParsed(m.t.versions[i])
}

// Verdicts: in every piece's set; a prerelease also requested by a
// piece (MeetingConstraints); 0.0.0 only under apparentlymart-exact and
// a constraint of one piece whose set is All.
func (m *apparentlymartTableMatcher) Verdicts(out []engine.Verdict) {
	and(out, m.c.in)
	if m.t.a.Exact {
		if len(m.c.pieces) > 1 {
			for _, i := range m.t.unspecified {
				out[i] = engine.Reject
			}
		}
		return
	}
	for _, i := range m.t.unspecified {
		out[i] = engine.Reject
	}
	for _, i := range m.t.prereleases {
		if out[i] == engine.Allow && !m.requested(i) {
			out[i] = engine.Reject
		}
	}
}

// requested says whether some piece requests version i.
func (m *apparentlymartTableMatcher) requested(i int) bool {
	for _, p := range m.c.pieces {
		if p.requested.v[i] == engine.Allow {
			return true
		}
	}
	return false
}

// setTableMatcher judges the table's versions with a set built from the
// whole constraint text.
type setTableMatcher struct {
	t     *goVersionsTable
	set   versions.Set
	judge func(versions.Version) engine.Result
}

// Judge is Match on version i.
func (m *setTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	return m.judge(m.t.versions[i])
}

// Verdicts is Set.Has on every version.
func (m *setTableMatcher) Verdicts(out []engine.Verdict) {
	for i := range out {
		if m.t.errs[i] != nil {
			out[i] = engine.Invalid
			continue
		}
		switch has, err := setHas(m.set, m.t.versions[i]); {
		case err != nil:
			out[i] = engine.Invalid
		case has:
			out[i] = engine.Allow
		default:
			out[i] = engine.Reject
		}
	}
}

// ReadVersions reads versions with go-versions' ParseVersion, once.
func (g GoVersionsCargo) ReadVersions(texts []string) engine.VersionTable {
	t := &goVersionsCargoTable{goVersionsTable: newGoVersionsTable(texts), g: g}
	t.read = t.readPiece
	return t
}

type goVersionsCargoTable struct {
	*goVersionsTable
	g GoVersionsCargo
}

// readPiece parses one piece with ParseRubyStyleMulti and builds the
// comparator's range, window and the range's AllRequested.
func (t *goVersionsCargoTable) readPiece(text string) *rubyPiece {
	p := &rubyPiece{}
	spec, err := parseRubyStyle(text)
	if err != nil || len(spec) != 1 {
		return p
	}
	m, err := cargoSet(spec)
	if err != nil || len(m.comparators) != 1 {
		return p
	}
	c := m.comparators[0]
	var ok bool
	if p.in, ok = t.setColumn(c.rng); !ok {
		return p
	}
	if p.window, ok = t.preColumn(c.window); !ok {
		return p
	}
	requested, err := allRequested(c.rng)
	if err != nil {
		return p
	}
	if p.requested, ok = t.preColumn(requested); !ok {
		return p
	}
	p.ok = true
	return p
}

// Compile parses constraint as Compile does: piece by piece when each
// piece is one comparator, otherwise whole.
func (t *goVersionsCargoTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &goVersionsCargoTableMatcher{t: t, constraint: constraint}
	if !t.compile(constraint, &m.c) {
		m, err := t.g.compile(constraint)
		if err != nil {
			return nil, err
		}
		return &setTableMatcher{t: t.goVersionsTable, set: m.set, judge: m.judgeParsed}, nil
	}
	return m, nil
}

type goVersionsCargoTableMatcher struct {
	t          *goVersionsCargoTable
	constraint string
	c          rubyPieces
	text       lazyResult[goVersionsCargoMatcher]
}

// Judge is Match on version i.
func (m *goVersionsCargoTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	tm, err := m.text.get(func() (goVersionsCargoMatcher, error) { return m.t.g.compile(m.constraint) })
	if err != nil {
		return engine.InvalidResult(err)
	}
	return tm.judgeParsed(m.t.versions[i])
}

// Verdicts: a release in the range; a prerelease in the range and in a
// window or requested by the range; 0.0.0 never.
func (m *goVersionsCargoTableMatcher) Verdicts(out []engine.Verdict) {
	and(out, m.c.in)
	for _, i := range m.t.unspecified {
		out[i] = engine.Reject
	}
	for _, i := range m.t.prereleases {
		if out[i] == engine.Allow && !m.windowOrRequest(i) {
			out[i] = engine.Reject
		}
	}
}

// windowOrRequest says whether a piece's window holds version i or a
// piece's range requests it.
func (m *goVersionsCargoTableMatcher) windowOrRequest(i int) bool {
	for _, p := range m.c.pieces {
		if p.window.v[i] == engine.Allow || p.requested.v[i] == engine.Allow {
			return true
		}
	}
	return false
}
