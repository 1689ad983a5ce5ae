// Package compare is prerel's differential harness: it runs every case of
// a domain through every chosen policy and reports where the policies
// agree, where they diverge, in which classes of cases, why, and with the
// smallest case of each class as a witness.
//
// # Domains
//
// A Domain streams (constraint, versions) groups:
//
//   - Exhaustive: every constraint of one or two comparators over a small
//     alphabet of numbers and prerelease tags, and every version over it;
//     the scope parameter grows the alphabet (DefaultScope runs in
//     seconds).
//   - Random: cases from the generators of compare/generate, the same
//     stream for the same seed.
//   - Corpus: real constraint strings x real version histories (see
//     Corpus for the pairing); it also compares selection, the version
//     each policy would install.
//   - File, FileFS, Lines: a user's own CONSTRAINT<TAB>VERSION lines.
//
// # Running
//
// Run compiles each group's constraint once per policy, judges every
// version, and aggregates as it goes on runtime.GOMAXPROCS(0) workers:
// memory holds counts and one witness per class, never the cases. The
// Report it returns does not depend on the number of workers or the order
// in which groups finish.
//
// # Report
//
// For each pair of policies the report counts the cases where they agree
// and diverge (the agreement matrix), and splits the divergences into
// classes by signature: the shape of the case with the numbers dropped
// (operators, which comparators have a prerelease, how the version's base
// relates to each comparator's base, whether the version is a prerelease
// or has build metadata, and the verdict of each side; a side that answered
// Invalid is classed by what it refused instead). Each class has a
// count, a cause decided by CauseOf, and its smallest witness: fewest
// comparators, then the smallest sum of the numbers written, then the
// shortest text, then byte order. On domains of real histories the
// report also compares selection per pair, with the smallest diverging
// (constraint, history) as witness.
//
// RenderText, RenderMarkdown and RenderJSON write a report; the library
// never prints by itself.
//
// # Baselines
//
// WriteBaseline saves the stable part of a report (Report.Baseline: all
// of it but the policies' reasons) atomically; ReadBaseline reads it back
// and Diff lists what appeared, disappeared or changed, in sentences, so
// that CI can fail when a policy change moves a verdict.
package compare
