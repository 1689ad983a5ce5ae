package policies

import "github.com/prerel/prerel/engine"

func init() {
	for _, p := range All() {
		engine.MustRegister(p)
	}
}

// All returns the native policies of this package in registration order:
// strict, lexical, cargo, linear, linear-tight, ga-bound, any-pre,
// fallback, core-only. Each call returns a new slice.
func All() []engine.Policy {
	return []engine.Policy{
		Strict{}, Lexical{}, Cargo{},
		Linear{}, LinearTight{}, GABound{}, AnyPre{}, Fallback{}, CoreOnly{},
	}
}
