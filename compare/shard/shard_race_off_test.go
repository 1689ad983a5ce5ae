//go:build !race

package shard

// shardRaceEnabled is set when the tests run under the race detector.
const shardRaceEnabled = false
