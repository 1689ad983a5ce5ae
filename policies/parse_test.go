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
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 20 {
				for j := range constraints {
					i := (j + g*7 + round) % len(constraints)
					c, err := parseNative(constraints[i])
					got := parse{c: c}
					if err != nil {
						got.err = err.Error()
					}
					if !reflect.DeepEqual(got, want[i]) {
						select {
						case errs <- fmt.Sprintf("parseNative(%q) = %+v, want %+v", constraints[i], got, want[i]):
						default:
						}
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
