package policies

import "github.com/prerel/prerel/engine"

// The fast path of the native policies: their engine.VersionReader. A
// version is read once into a fastVersion and a constraint compiled once
// into a compiled form; each policy's fast rule then judges the pair with
// integer comparisons of precedence keys (see key) and gives the Result
// its Judge gives, reason included. A version or constraint with no key
// (a number or prerelease too long for one) is judged by the policy's
// Judge on the parsed values. The tests check the fast path against
// Compile and Match on the exhaustive domain and on random cases.

// fastVersion is a version read once.
type fastVersion struct {
	k     key  // the precedence key, when exact
	exact bool // k is the version's key
	pre   bool // a prerelease
	// invalid is set when the engine's parser refuses the version; bad
	// is then the result of every check.
	invalid bool
	bad     engine.Result
	v       engine.Version // the parsed version, for Judge
}

// withKey returns the parsed version with its key in the space keys.
func withKey(v engine.Version, keys *ranked) fastVersion {
	k, ok := keys.key(&v)
	return fastVersion{k: k, exact: ok, pre: v.IsPrerelease(), v: v}
}

// ga returns the key of GA(v), the release v leads up to.
func (v *fastVersion) ga() key { return key{v.k.hi, releaseLo} }

// base returns the packed MAJOR.MINOR.PATCH of v.
func (v *fastVersion) base() uint64 { return v.k.hi }

// fastCmp is one comparator compiled: it holds for a version whose key
// lies in [lo, hi], or, for "!=", whose key is not lo.
type fastCmp struct {
	lo, hi   key
	ne       bool
	op       engine.Op
	namesPre bool
	base     uint64 // the packed core of the comparator's version
}

// compiled is a constraint compiled for the fast rules: its comparators,
// the interval every comparator but "!=" admits together, the "!="
// versions, and what each policy decides once per constraint.
type compiled struct {
	c     engine.Constraint
	exact bool // every comparator has keys; otherwise Judge decides
	cmps  []fastCmp
	lo    key   // the intersection of the comparators other than "!="
	hi    key   //
	ne    []key // the versions of the "!=" comparators
	// ne0 is the version of the only "!=" comparator when there is
	// exactly one; otherwise it is maxKey, which no version has.
	ne0 key
	// releaseAllow is the result for a release that every comparator
	// passes.
	releaseAllow engine.Result
	// hasEqual reports an "=" comparator (strict).
	hasEqual bool
	// namesPre reports a comparator that names a prerelease.
	namesPre bool
	// optIn reports a comparator other than "!=" that names a prerelease
	// (any-pre); optInBases are their cores and neBases those of the "!="
	// comparators that name a prerelease (cargo).
	optIn      bool
	optInBases []uint64
	neBases    []uint64
	// tightBases are the cores of the "~>" upper bounds (linear-tight).
	tightBases []uint64
	// ranges reports a comparator other than "=" and "!=" (lexical).
	ranges bool
	// gaAllow is ga-bound's result for a prerelease every comparator
	// passes. A prerelease passes them all when its key lies in
	// [gaSelfLo, gaSelfHi] (the comparators that judge the version) and
	// is none of ne, and its GA release's key lies in [gaLo, gaHi] (those
	// that judge the GA release): see fastGABound.
	gaAllow            engine.Result
	gaSelfLo, gaSelfHi key
	gaLo, gaHi         key
}

// compile compiles a parsed constraint in the key space of the table
// whose versions it will judge.
func compile(c engine.Constraint, keys *ranked) *compiled {
	m := &compiled{c: c, exact: true, lo: minKey, hi: maxKey,
		gaSelfLo: minKey, gaSelfHi: maxKey, gaLo: minKey, gaHi: maxKey}
	cs := c.Comparators()
	m.cmps = make([]fastCmp, len(cs))
	anyGA, anyUpper := false, false
	for i := range cs {
		cmp := &cs[i]
		fc := &m.cmps[i]
		fc.op = cmp.Op
		fc.namesPre = cmp.NamesPrerelease()
		k, ok := keys.key(&cmp.Version)
		if !ok {
			m.exact = false
		}
		fc.base = k.hi
		fc.lo, fc.hi = minKey, maxKey
		switch cmp.Op {
		case engine.OpEqual:
			fc.lo, fc.hi = k, k
		case engine.OpNotEqual:
			fc.ne, fc.lo, fc.hi = true, k, k
		case engine.OpGreater:
			fc.lo = k.next()
		case engine.OpGreaterEqual:
			fc.lo = k
		case engine.OpLess:
			fc.hi = k.prev()
		case engine.OpLessEqual:
			fc.hi = k
		case engine.OpPessimistic:
			fc.lo = k
			upper, hasUpper := cmp.Upper()
			if !hasUpper {
				m.exact = false
				break
			}
			uk, ok := keys.key(&upper)
			if !ok {
				m.exact = false
				break
			}
			fc.hi = uk.prev()
			m.tightBases = append(m.tightBases, uk.hi)
		default:
			m.exact = false
		}
		if fc.ne {
			m.ne = append(m.ne, k)
		} else {
			m.lo, m.hi = maxOf(m.lo, fc.lo), minOf(m.hi, fc.hi)
		}
		switch {
		case cmp.Op == engine.OpEqual:
			m.hasEqual = true
		case cmp.Op != engine.OpNotEqual:
			m.ranges = true
		}
		if fc.namesPre {
			m.namesPre = true
			if cmp.Op == engine.OpNotEqual {
				m.neBases = append(m.neBases, k.hi)
			} else {
				m.optIn = true
				m.optInBases = append(m.optInBases, k.hi)
			}
		}
		switch {
		case fc.ne:
		case pessimisticSplit(cmp):
			anyUpper = true
			m.gaSelfLo = maxOf(m.gaSelfLo, fc.lo)
			m.gaHi = minOf(m.gaHi, fc.hi)
		case judgesGA(cmp):
			anyGA = true
			m.gaLo, m.gaHi = maxOf(m.gaLo, fc.lo), minOf(m.gaHi, fc.hi)
		default:
			m.gaSelfLo, m.gaSelfHi = maxOf(m.gaSelfLo, fc.lo), minOf(m.gaSelfHi, fc.hi)
		}
	}
	m.ne0 = maxKey
	if len(m.ne) == 1 {
		m.ne0 = m.ne[0]
	}
	m.releaseAllow = engine.Allowed(reasonReleaseHolds)
	switch {
	case len(cs) == 0:
		m.releaseAllow = engine.Allowed(reasonEmptyRelease)
		m.gaAllow = engine.Allowed(reasonGABoundEmpty)
	case anyGA:
		m.gaAllow = engine.Allowed(reasonGABoundGA)
	case anyUpper:
		m.gaAllow = engine.Allowed(reasonGABoundUpper)
	default:
		m.gaAllow = engine.Allowed(reasonGABoundExact)
	}
	return m
}

// holds reports whether k satisfies c by precedence.
func (c *fastCmp) holds(k key) bool {
	if c.ne {
		return k != c.lo
	}
	return le(c.lo, k) && le(k, c.hi)
}

// admits reports that k satisfies every comparator by precedence, for a
// constraint with at most one "!=" comparator; false means that failure
// must decide. It is the inlined first step of every fast rule.
func (m *compiled) admits(k key) bool {
	return le(m.lo, k) && le(k, m.hi) && k != m.ne0 && len(m.ne) <= 1
}

// failure returns the first comparator, in written order, that k fails
// by precedence, or -1 when B holds: the whole interval and the "!="
// versions first, and only when they refuse k each comparator in turn.
func (m *compiled) failure(k key) int {
	if le(m.lo, k) && le(k, m.hi) {
		ok := true
		for _, x := range m.ne {
			if k == x {
				ok = false
			}
		}
		if ok {
			return -1
		}
	}
	for i := range m.cmps {
		if !m.cmps[i].holds(k) {
			return i
		}
	}
	return -1
}

// precedenceReject is the result for a version with key k that fails
// comparator i by precedence, as precedenceReason words it.
func (m *compiled) precedenceReject(i int, k key) engine.Result {
	c := &m.cmps[i]
	if c.op == engine.OpPessimistic && !le(c.lo, k) {
		return engine.Rejected(reasonBelowPessimistic)
	}
	return engine.Rejected(byOp(&precedenceFailure, c.op))
}

// fastRelease is judgeRelease on the compiled form. Callers try admits
// first, inlined, and call it for what admits leaves undecided.
func (m *compiled) fastRelease(v *fastVersion) engine.Result {
	if i := m.failure(v.k); i >= 0 {
		return m.precedenceReject(i, v.k)
	}
	return m.releaseAllow
}

// byPrecedence is the first step of every native rule that judges a
// prerelease by the precedence of its whole key: a version a comparator
// fails by precedence is rejected, and a release that none fails is
// admitted. It reports false for a prerelease that every comparator
// admits, which the rule's own step then decides.
func (m *compiled) byPrecedence(v *fastVersion) (engine.Result, bool) {
	if !m.admits(v.k) {
		if i := m.failure(v.k); i >= 0 {
			return m.precedenceReject(i, v.k), true
		}
	}
	if !v.pre {
		return m.releaseAllow, true
	}
	return engine.Result{}, false
}

// contains reports whether bases holds b.
func contains(bases []uint64, b uint64) bool {
	for _, x := range bases {
		if x == b {
			return true
		}
	}
	return false
}

// nativeRule is what the fast path needs of a native policy: its Judge,
// its fast rule, and its reading of a constraint.
type nativeRule struct {
	judge engine.Judge
	// fast judges a version with a key against a constraint with keys.
	fast func(m *compiled, v *fastVersion) engine.Result
	// parse parses a constraint as the policy's Compile does.
	parse func(constraint string) (engine.Constraint, error)
}

// judgeParsed is the readable path: the policy's Judge on the parsed pair.
func (r *nativeRule) judgeParsed(m *compiled, v *fastVersion) engine.Result {
	return r.judge.Judge(&m.c, &v.v)
}

// result judges v against m: Invalid for a version the parser refuses,
// the fast rule when both have keys, Judge otherwise.
func (r *nativeRule) result(m *compiled, v *fastVersion) engine.Result {
	switch {
	case v.invalid:
		return v.bad
	case m.exact && v.exact:
		return r.fast(m, v)
	}
	return r.judgeParsed(m, v)
}

// readVersions is the engine.VersionReader of a native policy: each
// version is parsed once and keyed in the ranked space of the table. The
// parsed versions do not depend on the rule: the native policies that
// read the same versions in turn share them (sharedVersions).
func (r *nativeRule) readVersions(versions []string) engine.VersionTable {
	read := sharedVersions(versions)
	return &nativeTable{rule: r, keys: read.keys, versions: read.versions}
}

// parseVersions parses versions and keys each in the ranked space of
// them all.
func parseVersions(versions []string) *readVersions {
	read := &readVersions{versions: make([]fastVersion, len(versions))}
	parsed := make([]engine.Version, 0, len(versions))
	for i, text := range versions {
		v, err := engine.ParseVersion(text)
		if err != nil {
			read.versions[i] = fastVersion{invalid: true, bad: engine.InvalidResult(err)}
			continue
		}
		read.versions[i].v = v
		parsed = append(parsed, v)
	}
	read.keys = rank(parsed)
	for i := range read.versions {
		if !read.versions[i].invalid {
			read.versions[i] = withKey(read.versions[i].v, read.keys)
		}
	}
	return read
}

// nativeTable is a native policy's engine.VersionTable.
type nativeTable struct {
	rule     *nativeRule
	keys     *ranked
	versions []fastVersion
}

// Len returns the number of versions read.
func (t *nativeTable) Len() int { return len(t.versions) }

// Compile compiles constraint as the policy's Compile does.
func (t *nativeTable) Compile(constraint string) (engine.TableMatcher, error) {
	c, err := t.rule.parse(constraint)
	if err != nil {
		return nil, err
	}
	return &nativeTableMatcher{t: t, m: compileRanked(c, t.keys)}, nil
}

// nativeTableMatcher judges a nativeTable's versions against one compiled
// constraint.
type nativeTableMatcher struct {
	t *nativeTable
	m *compiled
}

// Judge returns the result for version i, reason included.
func (tm *nativeTableMatcher) Judge(i int) engine.Result {
	return tm.t.rule.result(tm.m, &tm.t.versions[i])
}

// Verdicts writes every version's verdict into out, which has the
// table's length (past it, out is left alone). It does not allocate.
func (tm *nativeTableMatcher) Verdicts(out []engine.Verdict) {
	r, m := tm.t.rule, tm.m
	vs := tm.t.versions[:min(len(out), len(tm.t.versions))]
	if !m.exact {
		for i := range vs {
			out[i] = r.result(m, &vs[i]).Verdict
		}
		return
	}
	fast := r.fast
	for i := range vs {
		v := &vs[i]
		switch {
		case v.invalid:
			out[i] = engine.Invalid
		case v.exact:
			out[i] = fast(m, v).Verdict
		default:
			out[i] = r.judgeParsed(m, v).Verdict
		}
	}
}
