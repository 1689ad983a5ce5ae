package readers

import (
	"fmt"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/listcache"
)

// The fast path (engine.VersionReader), the one the adapters' go-version
// tables take. The three policies read a list of versions alike, with
// go-version's NewVersion, so the tables that read the same list in turn
// share one reading of it (goLists): each version as go-version reads
// it and, for OpenTofu's engine, each release as go-versions reads its
// go-version String(). go-version's NewConstraint splits a constraint at
// every comma and parses each piece alone, and Constraints.Check asks
// the pieces in order, stopping at the first that refuses the version;
// so the list keeps, for each piece met, the one-piece Constraints
// NewConstraint gives (or its error) and the column of its Check over
// the list. Compiling a constraint whose pieces the list has met makes
// no go-version call, and terraform-ls judges a version by a look-up in
// each piece's column; OpenTofu's engine keeps its own pieces, the
// go-versions set of each (see OpenTofuEngine.ReadVersions). Judge gives
// the whole result, reason included, from the Constraints the pieces
// make, as Match does on the text.

// goList is a list of versions as the readers read it, shared by their
// tables; it is never changed once made, except for its memos of pieces.
type goList struct {
	texts  []string
	values []*goversion.Version // nil where NewVersion refused the text
	errs   []error
	// release is, for each release go-version read, go-versions'
	// ParseVersion of its String(), and releaseErr that call's error.
	release    []versions.Version
	releaseErr []error
	pieces     *listcache.Memo[goPiece]
	// rubyPieces are OpenTofu's engine's: each piece's go-versions set.
	rubyPieces *listcache.Memo[rubyPiece]
}

// goLists are the lists the readers' tables read last.
var goLists listcache.Cache[goList]

// readGoList reads texts with go-version's NewVersion, and each release
// again as OpenTofu's engine does.
func readGoList(texts []string) *goList {
	l := &goList{
		texts:      texts,
		values:     make([]*goversion.Version, len(texts)),
		errs:       make([]error, len(texts)),
		release:    make([]versions.Version, len(texts)),
		releaseErr: make([]error, len(texts)),
		pieces:     listcache.NewMemo[goPiece](listcache.MemoLimit(len(texts))),
		rubyPieces: listcache.NewMemo[rubyPiece](listcache.MemoLimit(len(texts))),
	}
	for i, text := range texts {
		v, err := parseGoVersion(text)
		l.values[i], l.errs[i] = v, err
		if err == nil && v.Prerelease() == "" {
			l.release[i], l.releaseErr[i] = parseRelease(v)
		}
	}
	return l
}

// parseRelease is go-versions' ParseVersion of v's String(), turning a
// panic into an error.
func parseRelease(v *goversion.Version) (r versions.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("go-versions ParseVersion panicked on this input: %v", p)
		}
	}()
	return versions.ParseVersion(v.String())
}

// goPiece is one comma-separated piece of constraint text as
// NewConstraint reads it: a one-piece Constraints and the column of its
// Check (Allow or Reject; Invalid where the version is unreadable or
// Check panicked), or NewConstraint's error.
type goPiece struct {
	cs  goversion.Constraints
	err error
	col []engine.Verdict
}

// piece returns what the list makes of text, reading it on the first
// request.
func (l *goList) piece(text string) *goPiece { return l.pieces.Get(text, l.readPiece) }

// readPiece parses one piece with NewConstraint and checks every version
// against it.
func (l *goList) readPiece(text string) *goPiece {
	cs, err := parseGoConstraint(text)
	if err != nil {
		return &goPiece{err: err}
	}
	col := make([]engine.Verdict, len(l.values))
	for i, v := range l.values {
		col[i] = engine.Invalid
		if v != nil {
			col[i] = checkVerdict(cs, v)
		}
	}
	return &goPiece{cs: cs, col: col}
}

// checkVerdict is Constraints.Check as a verdict, Invalid when it panics.
func checkVerdict(cs goversion.Constraints, v *goversion.Version) (verdict engine.Verdict) {
	defer func() {
		if recover() != nil {
			verdict = engine.Invalid
		}
	}()
	if cs.Check(v) {
		return engine.Allow
	}
	return engine.Reject
}

// goConstraint is a constraint read through the list's pieces: the
// Constraints NewConstraint gives for the whole text, and the pieces'
// columns in order.
type goConstraint struct {
	cs   goversion.Constraints
	cols [][]engine.Verdict
}

// constraint reads text as NewConstraint does, piece by piece; the error
// is the first piece's, as NewConstraint's is.
func (l *goList) constraint(text string) (goConstraint, error) {
	var c goConstraint
	for s := range strings.SplitSeq(text, ",") {
		p := l.piece(s)
		if p.err != nil {
			return goConstraint{}, p.err
		}
		c.cs = append(c.cs, p.cs...)
		c.cols = append(c.cols, p.col)
	}
	return c, nil
}

// check writes into out Check's verdict on every version: the first
// piece's column that does not allow the version decides.
func (c *goConstraint) check(out []engine.Verdict) {
	copy(out, c.cols[0][:len(out)])
	for _, col := range c.cols[1:] {
		for i, v := range col[:len(out)] {
			if out[i] == engine.Allow {
				out[i] = v
			}
		}
	}
}

// goTable is one policy's table over a shared list.
type goTable struct {
	*goList
	dropped string
	compile func(l *goList, constraint string) (goJudge, error)
}

// goJudge is a constraint a goTable compiled: its versionJudge for Judge,
// and its verdicts on the whole list.
type goJudge interface {
	versionJudge
	verdicts(l *goList, out []engine.Verdict)
}

func newGoTable(texts []string, dropped string, compile func(*goList, string) (goJudge, error)) *goTable {
	return &goTable{goList: goLists.Get(texts, 0, readGoList), dropped: dropped, compile: compile}
}

// Len is the number of versions.
func (t *goTable) Len() int { return len(t.texts) }

// Compile compiles constraint as the policy's Compile does.
func (t *goTable) Compile(constraint string) (engine.TableMatcher, error) {
	j, err := t.compile(t.goList, constraint)
	if err != nil {
		return nil, err
	}
	return &goTableMatcher{t, j}, nil
}

type goTableMatcher struct {
	t *goTable
	j goJudge
}

// Judge is Match on version i.
func (m *goTableMatcher) Judge(i int) (r engine.Result) {
	defer func() {
		if p := recover(); p != nil {
			r = engine.InvalidResult(fmt.Errorf("panicked on this input: %v", p))
		}
	}()
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(fmt.Errorf("%v; %s", err, m.t.dropped))
	}
	return m.j.judge(m.t.values[i], true)
}

// Verdicts is Match's verdict on every version.
func (m *goTableMatcher) Verdicts(out []engine.Verdict) {
	out = out[:min(len(out), len(m.t.texts))]
	m.j.verdicts(m.t.goList, out)
}

// releases writes into out Invalid for what go-version could not read,
// Reject for a prerelease and release(i) for a release.
func (l *goList) releases(out []engine.Verdict, release func(i int) engine.Verdict) {
	for i := range out {
		switch v := l.values[i]; {
		case v == nil:
			out[i] = engine.Invalid
		case v.Prerelease() != "":
			out[i] = engine.Reject
		default:
			out[i] = release(i)
		}
	}
}
