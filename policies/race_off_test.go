//go:build !race

package policies

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
