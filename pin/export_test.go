package pin

// SameProviderVersion is sameProviderVersion, for the tests.
var SameProviderVersion = sameProviderVersion

// The steps of a change, for the tests that make one fail.
var (
	PrepareFile = &prepareFile
	CommitFile  = &commitFile
)
