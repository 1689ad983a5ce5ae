package adapters

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	semver "github.com/Masterminds/semver/v3"
	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/internal/longtest"
)

// The parse caches give what the parsers give (versions of go-version
// and Masterminds, constraints of both), for a text met the first
// time and again, from several goroutines, also once they have been
// emptied, and for a text too long to keep.
func TestParseCacheEqualsParser(t *testing.T) {
	texts := []string{"1.0.0", "v1.0.0", "1.0", "1", "1.0.0-beta.1+b", "01.0.0", "1.0.0-", "", " ", "x", "1.0.0.0",
		"99999999999999999999.0.0", strings.Repeat("1.", 100) + "1"}
	for i := range maxParseCache + 10 {
		texts = append(texts, fmt.Sprintf("%d.%d.%d-rc.%d", i%3, i%7, i%5, i))
	}
	same := func(a, b any, aerr, berr error) bool {
		if (aerr == nil) != (berr == nil) || aerr != nil && aerr.Error() != berr.Error() {
			return false
		}
		return reflect.DeepEqual(a, b)
	}
	var wg sync.WaitGroup
	// Two goroutines every day (each fills the caches past their bound and
	// empties them), four in the long run.
	// Under -short, the race detector's run, one round: each goroutine
	// meets again texts the other put in the caches.
	rounds := 2
	if testing.Short() {
		rounds = 1
	}
	for g := range longtest.Pick(2, 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				for i := range texts {
					text := texts[(i+g*101)%len(texts)]
					gv, gerr := parseGoVersion(text)
					wv, werr := readGoVersion(text)
					if !same(gv, wv, gerr, werr) {
						t.Errorf("round %d: go-version %q: cached %v, %v; parser %v, %v", round, text, gv, gerr, wv, werr)
						return
					}
					for _, c := range constraintsOf(i, text, ">= ", "~> ", ", != ") {
						gc, gerr := parseGoVersionConstraints(c)
						wc, werr := readGoVersionConstraints(c)
						if !same(gc.String(), wc.String(), gerr, werr) || len(gc) != len(wc) || len(gc) != cap(gc) || gerr == nil && !sameChecks(gc, wc) {
							t.Errorf("round %d: go-version constraint %q: cached %v, %v; parser %v, %v", round, c, gc, gerr, wc, werr)
							return
						}
					}
					for _, c := range constraintsOf(i, text, ">= ", "~", " || < ") {
						got, gerr := cachedMastermindsConstraint(c)
						want, werr := semver.NewConstraint(c)
						if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() ||
							gerr == nil && (got.String() != want.String() || got.IncludePrerelease || !sameMastermindsChecks(got, want)) {
							t.Errorf("round %d: Masterminds constraint %q: cached %v, %v; NewConstraint %v, %v", round, c, got, gerr, want, werr)
							return
						}
						if got != nil {
							got.IncludePrerelease = true // the caller's copy
						}
					}
					mv, merr := parseMastermindsVersion(text)
					xv, xerr := readMastermindsVersion(text)
					if !same(mv, xv, merr, xerr) {
						t.Errorf("round %d: Masterminds %q: cached %v, %v; parser %v, %v", round, text, mv, merr, xv, xerr)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// sameChecks reports whether a and b judge a few versions alike.
func sameChecks(a, b goversion.Constraints) bool {
	for _, text := range []string{"0.0.1", "1.0.0", "1.0.0-rc.1", "2.3.0", "2.3.0-rc.290", "9.9.9"} {
		v, err := goversion.NewVersion(text)
		if err != nil || a.Check(v) != b.Check(v) {
			return false
		}
	}
	return true
}

// sameMastermindsChecks reports whether a and b judge a few versions
// alike.
func sameMastermindsChecks(a, b *semver.Constraints) bool {
	for _, text := range []string{"0.0.1", "1.0.0", "1.0.0-rc.1", "2.3.0", "2.3.0-rc.290", "9.9.9"} {
		v, err := semver.NewVersion(text)
		if err != nil || a.Check(v) != b.Check(v) {
			return false
		}
	}
	return true
}

// constraintsOf returns constraints made of the text, with the three
// operators and the joint, for the first texts only: the everyday test
// stays fast.
func constraintsOf(i int, text, op1, op2, joint string) []string {
	if i >= 300 {
		return nil
	}
	return []string{text, op1 + text, op2 + text + joint + text}
}
