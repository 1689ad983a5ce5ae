package updaters

import (
	"fmt"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The fast path (engine.VersionReader), the one the adapters' tables
// take: each policy reads a list of versions once with the parser its
// Match uses, keeping each parse error. Each reads a constraint as a list
// of pieces (terms) it reads one by one and combines, so the table keeps,
// for each piece it has met, what Compile made of it and its columns over
// the versions (listcache.Memo); a constraint whose pieces the table has
// met is compiled without parsing them again, and each version is judged
// by look-ups in its pieces' columns, with the same decision as Match and
// without writing a reason. Judge is Match on the text.

var (
	_ engine.VersionReader = Dependabot{}
	_ engine.VersionReader = TerraformModuleVersions{}
	_ engine.VersionReader = Renovate{}
)

// parsedVersions is a list of versions as one policy reads them: the
// texts, each one's reading, and whether it read it.
type parsedVersions[V any] struct {
	texts  []string
	values []V
	ok     []bool
}

// readAll reads every text with parse.
func readAll[V any](texts []string, parse func(string) (V, error)) parsedVersions[V] {
	p := parsedVersions[V]{texts: texts, values: make([]V, len(texts)), ok: make([]bool, len(texts))}
	for i, t := range texts {
		v, err := parse(t)
		p.values[i], p.ok[i] = v, err == nil
	}
	return p
}

// Len is the number of versions.
func (p *parsedVersions[V]) Len() int { return len(p.texts) }

// judge is match on version i: judge on the reading of a version the
// policy read, and match on the text of one it refused, whose error match
// words.
func (p *parsedVersions[V]) judge(i int, judge func(V) engine.Result, match func(string) engine.Result) engine.Result {
	if p.ok[i] {
		return judge(p.values[i])
	}
	return match(p.texts[i])
}

// verdicts writes into out Invalid for each version the policy could not
// read and decide's verdict for the others.
func (p *parsedVersions[V]) verdicts(out []engine.Verdict, decide func(i int, v V) engine.Verdict) {
	for i := range out {
		if !p.ok[i] {
			out[i] = engine.Invalid
			continue
		}
		out[i] = decide(i, p.values[i])
	}
}

// ReadVersions reads versions with ParseGemVersion, once. Dependabot
// splits a constraint at its commas and reads each term alone, and a
// version satisfies the constraint when it satisfies every term; so the
// table keeps, for each term it has met, what Compile made of it and the
// column of its holds over the versions (listcache.Memo), as the
// adapters' tables do.
func (Dependabot) ReadVersions(versions []string) engine.VersionTable {
	t := &dependabotTable{parsedVersions: readAll(versions, ParseGemVersion),
		pre:   make([]bool, len(versions)),
		terms: listcache.NewMemo[gemTermColumn](listcache.MemoLimit(len(versions)))}
	for i, v := range t.values {
		t.pre[i] = t.ok[i] && v.Prerelease()
	}
	return t
}

type dependabotTable struct {
	parsedVersions[GemVersion]
	pre   []bool // the readable prereleases
	terms *listcache.Memo[gemTermColumn]
}

// gemTermColumn is one term as Compile reads it, with whether it opts the
// constraint in to prereleases and its column (Allow where the version
// holds, Reject where it does not, Invalid where ParseGemVersion refused
// it), or Compile's error.
type gemTermColumn struct {
	op      gemOp
	err     error
	wantPre bool
	col     []engine.Verdict
}

// readTerm reads one term of a constraint, as the text between two
// commas.
func (t *dependabotTable) readTerm(text string) *gemTermColumn {
	op, v, err := parseGemTerm(strings.Trim(text, " \t\n\v\f\r\x00"))
	if err != nil {
		return &gemTermColumn{err: err}
	}
	c := &gemTermColumn{op: gemOp{op: op, v: v}, wantPre: dependabotWantsPrerelease.MatchString(text)}
	if op == "~>" {
		c.op.bump = v.bump()
	}
	c.col = make([]engine.Verdict, len(t.values))
	t.verdicts(c.col, func(_ int, v GemVersion) engine.Verdict {
		if c.op.holds(v) {
			return engine.Allow
		}
		return engine.Reject
	})
	return c
}

// Compile compiles constraint as Dependabot's Compile does, term by term;
// the error is the first term's. No match of /\d-[A-Za-z0-9]/ holds a
// comma, so the constraint opts in when a term does.
func (t *dependabotTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &dependabotTableMatcher{t: t, m: &dependabotMatcher{}}
	for _, text := range rubySplitComma(constraint) {
		c := t.terms.Get(text, t.readTerm)
		if c.err != nil {
			return nil, c.err
		}
		m.m.terms = append(m.m.terms, c.op)
		m.m.wantPre = m.m.wantPre || c.wantPre
		m.cols = append(m.cols, c.col)
	}
	return m, nil
}

type dependabotTableMatcher struct {
	t    *dependabotTable
	m    *dependabotMatcher
	cols [][]engine.Verdict
}

// Judge is Match on version i.
func (m *dependabotTableMatcher) Judge(i int) engine.Result {
	return m.t.judge(i, m.m.judge, m.m.Match)
}

// Verdicts is Match's verdict on every version: the first term that the
// version fails rejects it, and a prerelease that holds needs the
// constraint to opt in.
func (m *dependabotTableMatcher) Verdicts(out []engine.Verdict) {
	out = out[:min(len(out), len(m.t.texts))]
	for i := range out {
		out[i] = engine.Allow
		if !m.t.ok[i] {
			out[i] = engine.Invalid
		}
	}
	for _, col := range m.cols {
		for i, v := range col[:len(out)] {
			if out[i] == engine.Allow {
				out[i] = v
			}
		}
	}
	if !m.m.wantPre {
		for i, pre := range m.t.pre[:len(out)] {
			if pre {
				out[i] = engine.Reject
			}
		}
	}
}

// ReadVersions reads versions with Masterminds' NewVersion of v3.3.1,
// once. A constraint is alternatives ("||") of terms, and a release
// satisfies it when it satisfies every term of one alternative. No term,
// and no match of the regular expressions that check an alternative and
// find its terms, holds a comma; so an alternative is valid when each of
// its comma-separated pieces is, and its terms are its pieces' terms in
// order. The table keeps, for each piece it has met, whether it is valid
// and its terms with the column of each term's check over the releases
// (listcache.Memo), as the adapters' tables keep their pieces.
func (TerraformModuleVersions) ReadVersions(versions []string) engine.VersionTable {
	return &tfmvTable{parsedVersions: readAll(versions, parseMMVersion),
		pieces: listcache.NewMemo[mmPiece](listcache.MemoLimit(len(versions)))}
}

type tfmvTable struct {
	parsedVersions[mmVer]
	pieces *listcache.Memo[mmPiece]
}

// mmPiece is one comma-separated piece of an alternative: whether mmValid
// holds for it alone, and its terms.
type mmPiece struct {
	valid bool
	terms []mmTermColumn
}

// mmTermColumn is one term as NewConstraint reads it and its column over
// the table's releases (Allow where the term admits one; Reject on a
// prerelease or where the term refuses the release; Invalid where
// NewVersion refused the text), or parseMMTerm's error.
type mmTermColumn struct {
	term mmTerm
	err  error
	col  []engine.Verdict
}

// readPiece checks one piece and reads its terms.
func (t *tfmvTable) readPiece(text string) *mmPiece {
	p := &mmPiece{valid: mmValid.MatchString(text)}
	if !p.valid {
		return p
	}
	for _, s := range mmFind.FindAllString(text, -1) {
		term, err := parseMMTerm(s)
		c := mmTermColumn{term: term, err: err}
		if err == nil {
			c.col = make([]engine.Verdict, len(t.values))
			t.verdicts(c.col, func(_ int, v mmVer) engine.Verdict {
				if v.pre == "" && term.check(v) {
					return engine.Allow
				}
				return engine.Reject
			})
		}
		p.terms = append(p.terms, c)
	}
	return p
}

// Compile compiles constraint as TerraformModuleVersions' Compile does,
// each alternative piece by piece through the table's memo: the first
// invalid alternative is refused, then the first term parseMMTerm
// refuses.
func (t *tfmvTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &tfmvTableMatcher{t: t, m: &tfmvMatcher{}}
	for _, alt := range strings.Split(rewriteRanges(constraint), "||") {
		var pieces []*mmPiece
		for text := range strings.SplitSeq(alt, ",") {
			p := t.pieces.Get(text, t.readPiece)
			if !p.valid {
				return nil, fmt.Errorf("terraform-module-versions: improper constraint: %s", alt)
			}
			pieces = append(pieces, p)
		}
		var terms []mmTerm
		var cols [][]engine.Verdict
		for _, p := range pieces {
			for _, c := range p.terms {
				if c.err != nil {
					return nil, c.err
				}
				terms = append(terms, c.term)
				cols = append(cols, c.col)
			}
		}
		m.m.or = append(m.m.or, terms)
		m.or = append(m.or, cols)
	}
	return m, nil
}

type tfmvTableMatcher struct {
	t  *tfmvTable
	m  *tfmvMatcher
	or [][][]engine.Verdict // each alternative's terms' columns
}

// Judge is Match on version i.
func (m *tfmvTableMatcher) Judge(i int) engine.Result { return m.t.judge(i, m.m.judge, m.m.Match) }

// Verdicts is Match's verdict on every version: Invalid where NewVersion
// refused it, Allow where every term of some alternative admits it, and
// Reject elsewhere (every prerelease among them).
func (m *tfmvTableMatcher) Verdicts(out []engine.Verdict) {
	out = out[:min(len(out), len(m.t.texts))]
	for i := range out {
		out[i] = engine.Reject
		if !m.t.ok[i] {
			out[i] = engine.Invalid
			continue
		}
	alternatives:
		for _, terms := range m.or {
			for _, col := range terms {
				if col[i] != engine.Allow {
					continue alternatives
				}
			}
			out[i] = engine.Allow
			break
		}
	}
}

// ReadVersions reads versions as node-semver does, once. Renovate reads
// a constraint term by term, and a version satisfies the npm range when
// it holds every comparator of every term; so the table keeps, for each
// term it has met, what Compile made of it and its columns
// (listcache.Memo), as the adapters' tables do.
func (Renovate) ReadVersions(versions []string) engine.VersionTable {
	return &renovateTable{parsedVersions: readAll(versions, readNPMVersion),
		terms: listcache.NewMemo[renovateTermColumns](listcache.MemoLimit(len(versions)))}
}

type renovateTable struct {
	parsedVersions[engine.Version]
	terms *listcache.Memo[renovateTermColumns]
}

// renovateTermColumns is one term as Compile reads it and, when it
// expands to comparators, their columns: holds is Allow where the
// version holds every comparator of the term (Reject where not, Invalid
// where node-semver could not read it), and names where a comparator of
// the term names a prerelease of the version's MAJOR.MINOR.PATCH.
type renovateTermColumns struct {
	*renovateTermRead
	holds []engine.Verdict
	names []bool
}

// readTerm reads one term and judges every version against it.
func (t *renovateTable) readTerm(text string) *renovateTermColumns {
	c := &renovateTermColumns{renovateTermRead: readRenovateTerm(text)}
	if c.read != nil || c.expand != nil {
		return c
	}
	c.holds = make([]engine.Verdict, len(t.values))
	c.names = make([]bool, len(t.values))
	t.verdicts(c.holds, func(i int, v engine.Version) engine.Verdict {
		for _, cmp := range c.m.set {
			c.names[i] = c.names[i] || v.IsPrerelease() && cmp.v.IsPrerelease() && cmp.v.SameCore(v)
		}
		if _, failed := (&renovateMatcher{set: c.m.set}).decide(v); failed >= 0 {
			return engine.Reject
		}
		return engine.Allow
	})
	return c
}

// Compile compiles constraint as Renovate's Compile does, its terms
// through the table's memo.
func (t *renovateTable) Compile(constraint string) (engine.TableMatcher, error) {
	m := &renovateTableMatcher{t: t}
	var err error
	m.m, err = compileRenovate(constraint, func(text string) *renovateTermRead {
		c := t.terms.Get(text, t.readTerm)
		m.terms = append(m.terms, c)
		return c.renovateTermRead
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

type renovateTableMatcher struct {
	t     *renovateTable
	m     *renovateMatcher
	terms []*renovateTermColumns
}

// Judge is Match on version i.
func (m *renovateTableMatcher) Judge(i int) engine.Result { return m.t.judge(i, m.m.judge, m.m.Match) }

// Verdicts is Match's verdict on every version: Invalid where node-semver
// could not read it, Reject everywhere for the null range, else Allow
// where every term holds, for a prerelease only when some term names a
// prerelease of its MAJOR.MINOR.PATCH.
func (m *renovateTableMatcher) Verdicts(out []engine.Verdict) {
	out = out[:min(len(out), len(m.t.texts))]
	for i := range out {
		switch {
		case !m.t.ok[i]:
			out[i] = engine.Invalid
			continue
		case m.m.null:
			out[i] = engine.Reject
			continue
		}
		out[i] = engine.Allow
		names := !m.t.values[i].IsPrerelease()
		for _, c := range m.terms {
			if c.holds[i] != engine.Allow {
				out[i] = engine.Reject
				break
			}
			names = names || c.names[i]
		}
		if !names {
			out[i] = engine.Reject
		}
	}
}
