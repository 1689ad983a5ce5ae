package pin

// SameProviderVersion is sameProviderVersion, for the tests.
var SameProviderVersion = sameProviderVersion
