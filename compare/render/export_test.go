package render

// HTMLClassesPerPair is htmlClassesPerPair, for the tests of the package's
// API.
const HTMLClassesPerPair = htmlClassesPerPair

// TextWidth is textWidth, the columns of the text report.
const TextWidth = textWidth
