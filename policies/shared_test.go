package policies

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/prerel/prerel/engine"
)

// parseNative gives what the engine's parser gives, parse or error, for
// every constraint, also when goroutines parse many constraints at once
// and more than parseCacheSlots of them take turns in the cache.
func TestParseNativeIsTheEnginesParse(t *testing.T) {
	var constraints []string
	for i := range 3 * parseCacheSlots {
		constraints = append(constraints,
			fmt.Sprintf(">= %d.0.0-beta.%d, < %d.0.0", i, i, i+1),
			fmt.Sprintf("~> %d.%d", i, i),
			fmt.Sprintf(">= %d.x", i), // refused
		)
	}
	constraints = append(constraints, "", " ", "= 1.0.0,", "!!")
	type parse struct {
		c   engine.Constraint
		err string
	}
	want := make([]parse, len(constraints))
	for i, s := range constraints {
		c, err := engine.ParseConstraint(s)
		want[i].c = c
		if err != nil {
			want[i].err = err.Error()
		}
	}
	inParallel(t, 20, len(constraints), func(g, round, j int) string {
		i := (j + g*7 + round) % len(constraints)
		c, err := parseNative(constraints[i])
		got := parse{c: c}
		if err != nil {
			got.err = err.Error()
		}
		if !reflect.DeepEqual(got, want[i]) {
			return fmt.Sprintf("parseNative(%q) = %+v, want %+v", constraints[i], got, want[i])
		}
		return ""
	})
}

// compileRanked gives what compile gives for the same constraint and
// ranked space, also when goroutines compile many constraints against
// several spaces at once; rank gives one space to lists with the same
// prereleases, and another to lists with others.
func TestCompileRankedIsCompile(t *testing.T) {
	read := func(versions ...string) *ranked {
		var parsed []engine.Version
		for _, v := range versions {
			parsed = append(parsed, engine.MustParseVersion(v))
		}
		return rank(parsed)
	}
	a := read("1.0.0", "2.0.0-beta.1", "2.0.0-alpha", "2.0.0")
	if b := read("2.0.0-alpha", "3.0.0", "1.0.0-beta.1"); b != a {
		t.Fatalf("rank of the same prereleases = %p %v, want %p %v", b, b.prereleases, a, a.prereleases)
	}
	c := read("1.0.0", "2.0.0-rc.1")
	if c == a {
		t.Fatal("rank of other prereleases is the same space")
	}
	spaces := []*ranked{a, c}
	var constraints []engine.Constraint
	for i := range 3 * parseCacheSlots {
		constraints = append(constraints,
			engine.MustParseConstraint(fmt.Sprintf(">= %d.0.0-beta.1, < %d.0.0", i, i+1)),
			engine.MustParseConstraint(fmt.Sprintf("~> %d.%d, != 2.0.0-alpha", i, i)),
		)
	}
	inParallel(t, 10, len(constraints), func(g, round, j int) string {
		i := (j + g*5 + round) % len(constraints)
		keys := spaces[(i+g)%len(spaces)]
		if got, want := compileRanked(constraints[i], keys), compile(constraints[i], keys); !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("compileRanked(%q) = %+v, want %+v", constraints[i].Text(), got, want)
		}
		return ""
	})
}

// inParallel runs check(g, round, j) on 8 goroutines g, for every round
// and every j in [0, n), and reports the first failure of each goroutine
// (a non-empty message), which ends that goroutine.
func inParallel(t *testing.T, rounds, n int, check func(g, round, j int) string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range rounds {
				for j := range n {
					if msg := check(g, round, j); msg != "" {
						errs <- msg
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
