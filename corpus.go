// Package prerel holds the data that ships with prerel: the corpus of real
// Terraform version constraints and real version histories that the
// corpus domain of the compare package runs on, and the real module calls
// that prerel impact runs on.
package prerel

import (
	"embed"
	"io/fs"
)

// CorpusFiles is testdata/corpus embedded: README.md and PROVENANCE.md
// (where every file comes from), constraints/ (real constraint strings
// with their sources), versions/ (real version histories),
// histories.tsv (the kind of each history, for pairing) and calls/ (real
// module calls and provider requirements with the histories they name,
// which package impact reads; calls/README.md gives their provenance).
//
//go:embed testdata/corpus
var CorpusFiles embed.FS

// Corpus returns the corpus rooted at testdata/corpus, as
// compare.Corpus reads it.
func Corpus() fs.FS {
	sub, err := fs.Sub(CorpusFiles, "testdata/corpus")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}
