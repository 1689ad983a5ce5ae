//go:build race

package hclpolicy_test

// raceEnabled is set when the tests run under the race detector: the
// proofs then run on the default scope, the race detector being far
// slower.
const raceEnabled = true
