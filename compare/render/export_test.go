package render

// HTMLClassesPerPair is htmlClassesPerPair, for the tests of the package's
// API.
const HTMLClassesPerPair = htmlClassesPerPair
