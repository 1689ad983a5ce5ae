package adapters

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	semver "github.com/Masterminds/semver/v3"
	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// panicError is the error for a library call that panicked on its input.
func panicError(call string, p any) error {
	return panicked{fmt.Errorf("%s panicked on this input: %v", call, p)}
}

// panicked marks an error that stands for a library panic.
type panicked struct{ error }

// isPanic reports whether err stands for a library panic.
func isPanic(err error) bool {
	_, ok := err.(panicked)
	return ok
}

// guard turns a panic in the calling function into an Invalid result. It
// must be deferred directly: defer guard("...", &r).
func guard(call string, r *engine.Result) {
	if p := recover(); p != nil {
		*r = engine.InvalidResult(panicError(call, p))
	}
}

// parseGoVersionConstraints reads a constraint with hashicorp/go-version's
// version.NewConstraint, as it is; NewConstraint refuses "" and blank text.
//
// What it read lately is kept (goConstraints): constraints and their
// pieces repeat across tables. The slice it returns is shared, with no
// room to append to.
func parseGoVersionConstraints(text string) (goversion.Constraints, error) {
	cs, err := goConstraints.get(text, readGoVersionConstraints)
	return cs[:len(cs):len(cs)], err // an append copies
}

// readGoVersionConstraints is parseGoVersionConstraints without the
// cache.
func readGoVersionConstraints(text string) (cs goversion.Constraints, err error) {
	defer func() {
		if p := recover(); p != nil {
			cs, err = nil, panicError("go-version NewConstraint", p)
		}
	}()
	cs, err = goversion.NewConstraint(text)
	if err != nil {
		return nil, fmt.Errorf("go-version NewConstraint: %w", err)
	}
	return cs, nil
}

// parseGoVersion reads a version with hashicorp/go-version NewVersion.
func parseGoVersion(text string) (*goversion.Version, error) {
	return goVersions.get(text, readGoVersion)
}

// readGoVersion is parseGoVersion without the cache.
func readGoVersion(text string) (v *goversion.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, panicError("go-version NewVersion", p)
		}
	}()
	v, err = goversion.NewVersion(text)
	if err != nil {
		return nil, fmt.Errorf("go-version NewVersion: %w", err)
	}
	return v, nil
}

// checkGoVersion runs go-version's Constraints.Check and explains the
// answer: on false it names the first piece of the constraint that refuses
// the version (Check stops at the same piece).
func checkGoVersion(cs goversion.Constraints, v *goversion.Version) engine.Result {
	if cs.Check(v) {
		if len(cs) == 0 {
			return engine.Allowed("go-version Check: true (no constraint)")
		}
		return engine.Allowed("go-version Check: true")
	}
	for _, c := range cs {
		if !c.Check(v) {
			return engine.Rejected(fmt.Sprintf("go-version Check: false (%q refuses it)", strings.TrimSpace(c.String())))
		}
	}
	return engine.Rejected("go-version Check: false")
}

// parseVersionsVersion reads a version with apparentlymart/go-versions
// ParseVersion, which panics on numbers that do not fit in uint64.
func parseVersionsVersion(text string) (v versions.Version, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = versions.Unspecified, panicError("go-versions ParseVersion", p)
		}
	}()
	v, err = versions.ParseVersion(text)
	if err != nil {
		return versions.Unspecified, fmt.Errorf("go-versions ParseVersion: %w", err)
	}
	return v, nil
}

// parseRubyStyle reads a constraint with go-versions ParseRubyStyleMulti,
// which panics on numbers that do not fit in uint64.
func parseRubyStyle(text string) (spec constraints.IntersectionSpec, err error) {
	defer func() {
		if p := recover(); p != nil {
			spec, err = nil, panicError("go-versions ParseRubyStyleMulti", p)
		}
	}()
	spec, err = constraints.ParseRubyStyleMulti(text)
	if err != nil {
		return nil, fmt.Errorf("go-versions ParseRubyStyleMulti: %w", err)
	}
	return spec, nil
}

// meetingConstraints builds the go-versions set for a parsed spec, with or
// without the exact-request rule for prereleases.
func meetingConstraints(spec constraints.Spec, exact bool) (set versions.Set, err error) {
	call := "go-versions MeetingConstraints"
	if exact {
		call = "go-versions MeetingConstraintsExact"
	}
	defer func() {
		if p := recover(); p != nil {
			set, err = versions.None, panicError(call, p)
		}
	}()
	if exact {
		return versions.MeetingConstraintsExact(spec), nil
	}
	return versions.MeetingConstraints(spec), nil
}

// setHas asks a go-versions set about a version, turning a panic into an
// error.
func setHas(set versions.Set, v versions.Version) (has bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			has, err = false, panicError("go-versions Set.Has", p)
		}
	}()
	return set.Has(v), nil
}

// newest is the selection loop every adapter shares, written as
// Terraform's module installer writes it: the versions are judged in list
// order; Invalid ones go to Unreadable; an admitted version replaces the
// one kept so far only when the library's greater-than says it is greater,
// so the first of equal versions stays.
func newest[V any](available []string, judge func(string) (engine.Result, V), greater func(a, b V) bool) engine.Selection {
	var sel engine.Selection
	var best V
	for _, text := range available {
		r, v := judge(text)
		switch r.Verdict {
		case engine.Invalid:
			sel.Unreadable = append(sel.Unreadable, engine.Unreadable{Version: text, Reason: r.Reason})
			continue
		case engine.Reject:
			continue
		}
		if !sel.Found || greater(v, best) {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	return sel
}

// The versions parseGoVersion and parseMastermindsVersion have read
// lately, and the constraints parseGoVersionConstraints has, shared by
// every table and matcher: lists of versions repeat
// the same texts (the random and corpus domains draw them from a small
// space), and the libraries' parsers are regular expressions. A value
// the libraries return is never changed once made, so one can serve
// every caller.
var (
	goVersions          parseCache[*goversion.Version]
	mastermindsVersions parseCache[*semver.Version]
	goConstraints       parseCache[goversion.Constraints]
	// the Constraints semver.NewConstraint read, which
	// cachedMastermindsConstraint copies for its callers
	mastermindsConstraints parseCache[*semver.Constraints]
)

// cachedMastermindsConstraint is semver.NewConstraint(text): a copy of
// the Constraints it read, which the caller may change (IncludePrerelease),
// read once for the texts met lately. It panics where NewConstraint does.
func cachedMastermindsConstraint(text string) (*semver.Constraints, error) {
	cs, err := mastermindsConstraints.get(text, semver.NewConstraint)
	if cs == nil {
		return nil, err
	}
	c := *cs
	return &c, err
}

// Bounds of a parseCache: the texts it keeps, and the longest it keeps.
const (
	maxParseCache     = 1 << 14
	maxParseCacheText = 128
)

// parseCache keeps what a parser returned for recent texts, at most
// maxParseCache of them, in parseCacheShards shards by the text's hash,
// each with a lock of its own so that goroutines that parse different
// texts seldom wait for each other; a shard is emptied when full. It is
// safe for concurrent use.
type parseCache[V any] struct {
	shards [parseCacheShards]parseShard[V]
}

// parseCacheShards is the number of shards of a parseCache.
const parseCacheShards = 16

// parseShard is one shard of a parseCache.
type parseShard[V any] struct {
	mu sync.RWMutex
	m  map[string]parsed[V]
}

// parseCacheSeed hashes the texts of parseCaches to their shards.
var parseCacheSeed = maphash.MakeSeed()

// parsed is a parser's answer for one text.
type parsed[V any] struct {
	v   V
	err error
}

// get returns parse(text), calling parse the first time a text is met.
func (c *parseCache[V]) get(text string, parse func(string) (V, error)) (V, error) {
	if len(text) > maxParseCacheText {
		return parse(text)
	}
	sh := &c.shards[maphash.String(parseCacheSeed, text)%parseCacheShards]
	sh.mu.RLock()
	p, ok := sh.m[text]
	sh.mu.RUnlock()
	if ok {
		return p.v, p.err
	}
	v, err := parse(text)
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= maxParseCache/parseCacheShards {
		sh.m = make(map[string]parsed[V])
	}
	sh.m[strings.Clone(text)] = parsed[V]{v, err}
	sh.mu.Unlock()
	return v, err
}
