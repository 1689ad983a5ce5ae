//go:build race

package compare

// shardRaceEnabled is set when the tests run under the race detector.
const shardRaceEnabled = true
