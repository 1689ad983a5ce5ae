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
// versions, and B's result for a release. It holds what every rule reads;
// what one rule decides once per constraint is that rule's facts (see
// nativeRule), in the rule's own file.
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
}

// compile compiles a parsed constraint in the key space of the table
// whose versions it will judge.
func compile(c engine.Constraint, keys *ranked) *compiled {
	m := &compiled{c: c, exact: true, lo: minKey, hi: maxKey}
	cs := c.Comparators()
	m.cmps = make([]fastCmp, len(cs))
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
			// No key's lo is 0, so fc.hi.hi is the upper bound's core.
			fc.hi = uk.prev()
		default:
			m.exact = false
		}
		if fc.ne {
			m.ne = append(m.ne, k)
		} else {
			m.lo, m.hi = maxOf(m.lo, fc.lo), minOf(m.hi, fc.hi)
		}
	}
	m.ne0 = maxKey
	if len(m.ne) == 1 {
		m.ne0 = m.ne[0]
	}
	m.releaseAllow = engine.Allowed(reasonReleaseHolds)
	if len(cs) == 0 {
		m.releaseAllow = engine.Allowed(reasonEmptyRelease)
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
// its reading of a constraint, and its fast rule with the facts (F) the
// rule decides once per constraint, such as strict's "=" comparator or
// cargo's opt-in bases. Each rule's file declares its facts, how it
// reads them from the compiled constraint and its fast rule; a rule that
// needs nothing beyond compiled has noFacts.
type nativeRule[F any] struct {
	judge engine.Judge
	// parse parses a constraint as the policy's Compile does.
	parse func(constraint string) (engine.Constraint, error)
	// facts reads the rule's facts from a constraint compiled with keys;
	// nil for noFacts.
	facts func(m *compiled) F
	// fast judges a version with a key against a constraint with keys.
	fast func(m *compiled, f *F, v *fastVersion) engine.Result
}

// noFacts are the facts of a rule that reads compiled alone.
type noFacts struct{}

// judgeParsed is the readable path: the policy's Judge on the parsed pair.
func (r *nativeRule[F]) judgeParsed(m *compiled, v *fastVersion) engine.Result {
	return r.judge.Judge(&m.c, &v.v)
}

// result judges v against m: Invalid for a version the parser refuses,
// the fast rule when both have keys, Judge otherwise.
func (r *nativeRule[F]) result(m *compiled, f *F, v *fastVersion) engine.Result {
	switch {
	case v.invalid:
		return v.bad
	case m.exact && v.exact:
		return r.fast(m, f, v)
	}
	return r.judgeParsed(m, v)
}

// readVersions is the engine.VersionReader of a native policy: each
// version is parsed once and keyed in the ranked space of the table. The
// parsed versions do not depend on the rule: the native policies that
// read the same versions in turn share them (sharedVersions).
func (r *nativeRule[F]) readVersions(versions []string) engine.VersionTable {
	read := sharedVersions(versions)
	return &nativeTable[F]{rule: r, keys: read.keys, versions: read.versions}
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
type nativeTable[F any] struct {
	rule     *nativeRule[F]
	keys     *ranked
	versions []fastVersion
}

// Len returns the number of versions read.
func (t *nativeTable[F]) Len() int { return len(t.versions) }

// Compile compiles constraint as the policy's Compile does, and reads the
// rule's facts when the constraint has keys.
func (t *nativeTable[F]) Compile(constraint string) (engine.TableMatcher, error) {
	c, err := t.rule.parse(constraint)
	if err != nil {
		return nil, err
	}
	tm := &nativeTableMatcher[F]{t: t, m: compileRanked(c, t.keys)}
	if tm.m.exact && t.rule.facts != nil {
		tm.f = t.rule.facts(tm.m)
	}
	return tm, nil
}

// nativeTableMatcher judges a nativeTable's versions against one compiled
// constraint and the rule's facts.
type nativeTableMatcher[F any] struct {
	t *nativeTable[F]
	m *compiled
	f F
}

// Judge returns the result for version i, reason included.
func (tm *nativeTableMatcher[F]) Judge(i int) engine.Result {
	return tm.t.rule.result(tm.m, &tm.f, &tm.t.versions[i])
}

// Verdicts writes every version's verdict into out, which has the
// table's length (past it, out is left alone). It does not allocate.
func (tm *nativeTableMatcher[F]) Verdicts(out []engine.Verdict) {
	r, m, f := tm.t.rule, tm.m, &tm.f
	vs := tm.t.versions[:min(len(out), len(tm.t.versions))]
	if !m.exact {
		for i := range vs {
			out[i] = r.result(m, f, &vs[i]).Verdict
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
			out[i] = fast(m, f, v).Verdict
		default:
			out[i] = r.judgeParsed(m, v).Verdict
		}
	}
}
