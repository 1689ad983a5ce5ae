// Package caps holds the caps in force on what a comparison keeps, so
// that the tests of compare and of the packages under it can lower them.
package caps

// The caps a run's aggregate keeps within: compare.MaxClasses and
// compare.MaxSplits, lowered by tests.
var (
	Classes = 700_000
	Splits  = 50_000
)
