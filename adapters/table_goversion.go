package adapters

import (
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The tables of hashicorp and the module installers. go-version's
// NewConstraint splits the constraint at every comma and parses each
// piece alone; Constraints.Check asks the pieces in order and stops at
// the first that refuses the version. So the table keeps, for each piece
// text, the one-piece Constraints NewConstraint gives for it (or its
// error) and the column of Constraint.Check over the table's versions;
// the constraint is its pieces' Constraints in order (NewConstraint's own
// result, parsed piece by piece) and its verdict the first column that
// does not allow, as Check has it.

var (
	_ engine.VersionReader = HashiCorp{}
	_ engine.VersionReader = ModuleInstaller{}
)

// goVersionTable is a list of versions as go-version's NewVersion reads
// them, with the columns of the constraint pieces met so far. The tables
// of hashicorp and the module installers that read the same versions in
// turn share the versions and go-version's columns (goVersionList); each
// keeps its own pieces, which the module installers' tables add to.
type goVersionTable struct {
	versions []*goversion.Version            // nil where NewVersion refused the text
	errs     []error                         // NewVersion's errors
	valid    column                          // Allow, or Invalid where NewVersion refused
	checked  *listcache.Memo[goVersionCheck] // shared with the other tables of the list
	pieces   *listcache.Memo[goVersionPiece]
	read     func(string) *goVersionPiece
}

// goVersionList is a list of versions as the go-version tables read it,
// shared between them (listcache): the versions and, for each piece,
// what NewConstraint made of it and its column.
type goVersionList struct {
	versions []*goversion.Version
	errs     []error
	valid    column
	checked  *listcache.Memo[goVersionCheck]
}

// goVersionCheck is one piece of constraint text as NewConstraint reads
// it, a one-piece Constraints and the column of its Check, or
// NewConstraint's error.
type goVersionCheck struct {
	cs  goversion.Constraints
	err error
	col column
}

// goVersionLists are the lists the go-version tables read last; the
// variant is the bound of their memo, which the tests change.
var goVersionLists listcache.Cache[goVersionList]

// goVersionPiece is one piece of constraint text as NewConstraint reads
// it: a one-piece Constraints and its column, or NewConstraint's error.
type goVersionPiece struct {
	cs  goversion.Constraints
	err error
	col column
	// rule is the module installers' prerelease rule for a constraint
	// that is this piece alone, and has the npm-style set's column
	// (Allow where the candidate is in the set); set by readModule.
	rule     prereleaseRule
	has      column
	source   string // the piece, for OpenTofu
	stripped string // the piece with its v prefixes stripped, for OpenTofu
	// comma and strippedComma are what the npm-style parser makes of the
	// piece, and of the piece stripped, followed by a comma: the first
	// piece of a constraint of several decides the rule (see
	// moduleTable.Compile).
	comma, strippedComma commaRule
}

// commaRule is what the npm-style parser makes of a piece followed by a
// comma: a refusal, a panic, or (when the piece's last character is not
// a letter or a digit, or the parser accepted the text) unknown, and the
// rule is then computed on the whole text.
type commaRule uint8

const (
	commaUnknown commaRule = iota
	commaRefused
	commaBroken
)

// commaRuleOf parses text, a piece, followed by a comma.
func commaRuleOf(text string) commaRule {
	trimmed := strings.TrimRight(text, " \t\n\f\r")
	if trimmed == "" || !isAlnum(trimmed[len(trimmed)-1]) {
		return commaUnknown
	}
	switch _, err := meetingConstraintsString(text + ","); {
	case err == nil:
		return commaUnknown
	case isPanic(err):
		return commaBroken
	}
	return commaRefused
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// newGoVersionTable reads texts with NewVersion, or takes them from the
// table of another policy that read the same texts.
func newGoVersionTable(texts []string) *goVersionTable {
	l := goVersionLists.Get(texts, memoLimit(len(texts)), readGoVersionList)
	t := &goVersionTable{versions: l.versions, errs: l.errs, valid: l.valid, checked: l.checked,
		pieces: newMemo[goVersionPiece](len(texts))}
	t.read = t.readPiece
	return t
}

// readGoVersionList reads texts with NewVersion.
func readGoVersionList(texts []string) *goVersionList {
	l := &goVersionList{
		versions: make([]*goversion.Version, len(texts)),
		errs:     make([]error, len(texts)),
		checked:  newMemo[goVersionCheck](len(texts)),
	}
	for i, text := range texts {
		l.versions[i], l.errs[i] = parseGoVersion(text)
	}
	l.valid = newColumn(len(texts), func(i int) engine.Verdict {
		if l.errs[i] != nil {
			return engine.Invalid
		}
		return engine.Allow
	})
	return l
}

// Len is the number of versions.
func (t *goVersionTable) Len() int { return len(t.versions) }

// readPiece is one piece as the table keeps it: NewConstraint's reading
// and its column, shared with the list's other tables.
func (t *goVersionTable) readPiece(text string) *goVersionPiece {
	c := t.checked.Get(text, t.check)
	return &goVersionPiece{cs: c.cs, err: c.err, col: c.col}
}

// check parses one piece with NewConstraint and checks every version.
func (t *goVersionTable) check(text string) *goVersionCheck {
	cs, err := parseGoVersionConstraints(text)
	if err != nil {
		return &goVersionCheck{err: err}
	}
	return &goVersionCheck{cs: cs, col: newColumn(len(t.versions), func(i int) engine.Verdict {
		if t.errs[i] != nil {
			return engine.Invalid
		}
		return checkOne(cs, t.versions[i])
	})}
}

// checkOne is Constraints.Check as a verdict, verdictPanicked when it
// panics.
func checkOne(cs goversion.Constraints, v *goversion.Version) (verdict engine.Verdict) {
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

// goVersionPieces is a constraint as a table compiled it: its pieces,
// their one-piece Constraints joined (NewConstraint's result for the
// whole text) and their columns, in order, with room for a few pieces in
// the matcher itself.
type goVersionPieces struct {
	pieces   []*goVersionPiece
	cs       goversion.Constraints
	cols     []*column
	panicked bool // some column has panicked

	pieceBuf [4]*goVersionPiece
	csBuf    [4]*goversion.Constraint
	colBuf   [4]*column
}

// compile reads constraint into c as NewConstraint does, piece by piece
// through the table's memo; the error is the first piece's.
func (t *goVersionTable) compile(constraint string, c *goVersionPieces) error {
	c.pieces, c.cs, c.cols = c.pieceBuf[:0], c.csBuf[:0], c.colBuf[:0]
	for text := range strings.SplitSeq(constraint, ",") {
		p := t.pieces.Get(text, t.read)
		if p.err != nil {
			return p.err
		}
		c.pieces = append(c.pieces, p)
		c.cs = append(c.cs, p.cs...)
		c.cols = append(c.cols, &p.col)
		c.panicked = c.panicked || p.col.panicked
	}
	return nil
}

// ReadVersions reads versions with go-version's NewVersion, once.
func (HashiCorp) ReadVersions(versions []string) engine.VersionTable {
	return hashicorpTable{newGoVersionTable(versions)}
}

type hashicorpTable struct{ *goVersionTable }

// Compile parses constraint as Compile does, piece by piece.
func (t hashicorpTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &hashicorpTableMatcher{t: t.goVersionTable}
	if err := t.compile(constraint, &m.c); err != nil {
		return nil, err
	}
	m.m = hashicorpMatcher{m.c.cs}
	return m, nil
}

type hashicorpTableMatcher struct {
	t *goVersionTable
	m hashicorpMatcher
	c goVersionPieces
}

// Judge is Match on version i.
func (m *hashicorpTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	return m.m.judgeParsed(m.t.versions[i])
}

// Verdicts is Check on every version: the first piece that does not
// allow it decides.
func (m *hashicorpTableMatcher) Verdicts(out []engine.Verdict) {
	and(out, m.c.cols)
	if m.c.panicked {
		resolvePanics(out, m.Judge)
	}
}

// The module installers' table adds, for each prerelease candidate, its
// go-version String() as go-versions' ParseVersion reads it. A piece
// keeps, besides its go-version column, the prerelease rule of a
// constraint that is the piece alone, with its set's column, and for
// OpenTofu the piece with its v prefixes stripped: go-version's String()
// joins the pieces with commas, and the stripping regular expression
// matches no comma, so the whole text stripped is its pieces stripped and
// joined.
//
// The npm-style parser reads a text of several pieces up to the first
// comma and refuses the text there, unless it panicked before, or unless
// the comma is read as part of an operator, which takes characters that
// are neither letters, digits, spaces, '.' nor '*' right before it. So
// when the first piece ends with a letter or a digit, the rule of the
// whole text is the parser's answer for that piece followed by a comma:
// a refusal or a panic, kept with the piece (for OpenTofu's retry, the
// same of the piece stripped). Otherwise the rule is computed on the
// whole text for each Compile. The reason of a refusal is written only
// for Judge, from the whole text.

// ReadVersions reads versions with go-version's NewVersion, once, and
// each prerelease's String() with go-versions' ParseVersion.
func (mi ModuleInstaller) ReadVersions(texts []string) engine.VersionTable {
	t := &moduleTable{goVersionTable: newGoVersionTable(texts), mi: mi}
	for i, v := range t.versions {
		if v == nil || v.Prerelease() == "" {
			continue
		}
		av, err := parseVersionsVersion(v.String())
		k := candidate{i: i, v: av}
		switch {
		case isPanic(err):
			k.verdict = engine.Invalid
		case err != nil:
			k.verdict = engine.Reject
		default:
			k.verdict = engine.Allow
		}
		t.prereleases = append(t.prereleases, k)
	}
	t.read = t.readModule
	return t
}

// candidate is a prerelease of the table as go-versions reads its
// go-version String(): Invalid when ParseVersion panicked, Reject when it
// refused the text (the installer excludes it), Allow when it read v.
type candidate struct {
	i       int
	v       versions.Version
	verdict engine.Verdict
}

type moduleTable struct {
	*goVersionTable
	mi          ModuleInstaller
	prereleases []candidate
}

// readModule is readPiece with the prerelease rule of the piece read as
// a whole constraint, and the piece stripped for OpenTofu.
func (t *moduleTable) readModule(text string) *goVersionPiece {
	p := t.readPiece(text)
	if p.err != nil {
		return p
	}
	p.rule = t.mi.prereleaseRule(p.cs.String())
	p.has = t.hasColumn(p.rule)
	p.comma = commaRuleOf(text)
	if t.mi.OpenTofu {
		p.source, p.stripped = strings.Clone(text), stripVPrefixes(text)
		if p.stripped != text {
			p.strippedComma = commaRuleOf(p.stripped)
		}
	}
	return p
}

// hasColumn is the column of rule's set over the table's readable
// prerelease candidates (Reject elsewhere); an empty column when the
// rule has no set.
func (t *moduleTable) hasColumn(rule prereleaseRule) column {
	if rule.broken != nil || rule.refused {
		return column{}
	}
	c := column{v: make([]engine.Verdict, len(t.versions))}
	for _, k := range t.prereleases {
		if k.verdict != engine.Allow {
			continue
		}
		switch has, err := setHas(rule.acceptable, k.v); {
		case err != nil:
			c.v[k.i], c.panicked = verdictPanicked, true
		case has:
			c.v[k.i] = engine.Allow
		}
	}
	return c
}

// Compile parses constraint as Compile does: go-version piece by piece,
// and the prerelease rule for its String().
func (t *moduleTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &moduleTableMatcher{t: t}
	switch {
	case constraint == "":
		// A module call without a version argument.
		m.c.cols = append(m.c.colBuf[:0], &t.valid)
		rule := t.mi.prereleaseRule("")
		m.setRule(&rule, t.hasColumn(rule))
	default:
		if err := t.compile(constraint, &m.c); err != nil {
			return nil, err
		}
		pieces := m.c.pieces
		if len(pieces) == 1 {
			m.setRule(&pieces[0].rule, pieces[0].has)
			break
		}
		switch t.commaRule(pieces) {
		case commaRefused:
			m.refused = true
		case commaBroken:
			m.broken = true
		default:
			rule := t.mi.prereleaseRuleStripping(m.c.cs.String(), func(string) string { return strippedPieces(pieces) })
			m.setRule(&rule, t.hasColumn(rule))
		}
	}
	m.panicked = m.c.panicked || m.has.panicked
	return m, nil
}

// commaRule is the prerelease rule of a constraint of several pieces as
// its first piece decides it, or commaUnknown.
func (t *moduleTable) commaRule(pieces []*goVersionPiece) commaRule {
	first := pieces[0]
	if first.comma != commaRefused || !t.mi.OpenTofu {
		return first.comma
	}
	for _, p := range pieces {
		if p.stripped != p.source {
			// OpenTofu's retry on the text stripped.
			return first.strippedComma
		}
	}
	return commaRefused
}

// strippedPieces joins the pieces stripped of their v prefixes with
// commas.
func strippedPieces(pieces []*goVersionPiece) string {
	var b strings.Builder
	for i, p := range pieces {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.stripped)
	}
	return b.String()
}

// moduleTableMatcher is a compiled module constraint: the pieces'
// columns, and the prerelease rule, as refused or broken alone when the
// first piece decided it (the rule itself is then computed for Judge).
type moduleTableMatcher struct {
	t               *moduleTable
	c               goVersionPieces
	refused, broken bool
	rule            *prereleaseRule // nil when the first piece decided
	has             column
	panicked        bool
	filter          lazyResult[*moduleFilter]
}

// setRule sets the matcher's prerelease rule and its set's column.
func (m *moduleTableMatcher) setRule(rule *prereleaseRule, has column) {
	m.rule, m.has = rule, has
	m.refused, m.broken = rule.refused, rule.broken != nil
}

// Judge is Match on version i, with the installer's filter assembled
// from the pieces on the first call for a prerelease: a release meets
// the constraint alone, and needs no prerelease rule.
func (m *moduleTableMatcher) Judge(i int) engine.Result {
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(err)
	}
	if v := m.t.versions[i]; v != nil && v.Prerelease() == "" {
		return (&moduleFilter{required: m.c.cs}).judgeParsed(v)
	}
	f, _ := m.filter.get(func() (*moduleFilter, error) {
		f := &moduleFilter{required: m.c.cs}
		if m.rule != nil {
			f.prereleases(*m.rule)
		} else {
			f.prereleases(m.t.mi.prereleaseRule(m.c.cs.String()))
		}
		return f, nil
	})
	return f.judgeParsed(m.t.versions[i])
}

// Verdicts is Check's verdict for releases; a prerelease must first pass
// the prerelease rule, in the installer's order.
func (m *moduleTableMatcher) Verdicts(out []engine.Verdict) {
	and(out, m.c.cols)
	switch {
	case m.broken:
		for _, k := range m.t.prereleases {
			out[k.i] = engine.Invalid
		}
	case m.refused:
		for _, k := range m.t.prereleases {
			out[k.i] = engine.Reject
		}
	default:
		for _, k := range m.t.prereleases {
			switch {
			case k.verdict != engine.Allow:
				out[k.i] = k.verdict
			case m.has.v[k.i] != engine.Allow:
				out[k.i] = m.has.v[k.i]
			}
		}
	}
	if m.panicked {
		resolvePanics(out, m.Judge)
	}
}
