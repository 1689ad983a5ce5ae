// Package catalogue is the set of policies prerel ships, in one fixed
// order: the native policies of package policies, then the library
// adapters of package adapters, then the updaters' readings of package
// updaters, then the other programs' readings of package readers.
//
// The order is a contract: it is the order of "prerel policies --format
// json" (the text form groups the policies by Group and keeps this order
// within a group) and the default column order of "prerel eval", which
// scripts rely on. Nothing is
// registered by importing a package; a program builds its registry
// explicitly:
//
//	reg := catalogue.New()
//	reg.Register(myPolicy{}) // a policy of one's own comes after prerel's
//
// or registers the catalogue into a registry of its own with Register.
package catalogue

import (
	"github.com/prerel/prerel/adapters"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/readers"
	"github.com/prerel/prerel/updaters"
)

// Register adds every policy of the catalogue to r, in order: policies.All,
// then adapters.All, then updaters.All, then readers.All. It stops at the
// first policy r refuses, such as a name r already holds.
func Register(r *engine.Registry) error {
	all := append(policies.All(), adapters.All()...)
	all = append(all, updaters.All()...)
	for _, p := range append(all, readers.All()...) {
		if err := r.Register(p); err != nil {
			return err
		}
	}
	return nil
}

// New returns a fresh registry holding the catalogue. Each call returns a
// registry of its own: registering into one does not change another.
func New() *engine.Registry {
	r := engine.NewRegistry()
	if err := Register(r); err != nil {
		// The catalogue's names are fixed and distinct; its tests pin them.
		panic("catalogue: " + err.Error())
	}
	return r
}
