//go:build race

package browsertest

// raceEnabled is set when the tests run under the race detector, which
// makes building the large reports far slower.
const raceEnabled = true
