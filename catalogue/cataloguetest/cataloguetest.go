// Package cataloguetest gives tests a registry of some of the catalogue's
// policies, named explicitly, so that what a test shows depends on the
// policies it names and not on every policy the catalogue registers: a
// rule added to the catalogue changes no golden file of such a test.
//
// A test whose point is the whole catalogue (every policy listed, every
// line of a table of all of them within 80 columns) takes catalogue.New
// and asserts without naming the policies.
package cataloguetest

import (
	"fmt"
	"slices"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// Registry returns a new registry of the named policies of the
// catalogue, in the catalogue's order whatever the order of names. It
// panics on a name the catalogue does not hold or names twice: the
// names are a test's fixed list.
func Registry(names ...string) *engine.Registry {
	all := catalogue.New()
	for i, n := range names {
		if _, ok := all.Lookup(n); !ok {
			panic(fmt.Sprintf("cataloguetest: the catalogue has no policy %q", n))
		}
		if slices.Contains(names[:i], n) {
			panic(fmt.Sprintf("cataloguetest: %q named twice", n))
		}
	}
	r := engine.NewRegistry()
	for _, p := range all.All() {
		if slices.Contains(names, p.Name()) {
			if err := r.Register(p); err != nil {
				panic("cataloguetest: " + err.Error())
			}
		}
	}
	return r
}

// Policies returns the named policies of the catalogue, in the
// catalogue's order, as Registry does.
func Policies(names ...string) []engine.Policy {
	return Registry(names...).All()
}
