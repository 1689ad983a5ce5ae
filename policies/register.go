package policies

import "github.com/prerel/prerel/engine"

// All returns the native policies of this package in their catalogue
// order: strict, lexical, cargo, linear, linear-tight, ga-bound, any-pre,
// fallback, core-only. Nothing registers them by itself: package catalogue
// registers them, then the adapters, into a registry it is handed. Each
// call returns a new slice.
func All() []engine.Policy {
	return []engine.Policy{
		Strict{}, Lexical{}, Cargo{},
		Linear{}, LinearTight{}, GABound{}, AnyPre{}, Fallback{}, CoreOnly{},
	}
}
