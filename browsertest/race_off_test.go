//go:build !race

package browsertest

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
