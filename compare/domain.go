package compare

// Domain is a set of cases: constraint strings, each with the versions to
// judge against it. A domain streams its cases in groups so that the runner
// compiles each constraint once per policy; it never has to hold the whole
// domain in memory.
//
// Exhaustive, Random, Corpus and File build the domains prerel ships; any
// other type that implements Domain works with Run as well.
type Domain interface {
	// Info describes the domain and counts its cases. Cases must equal the
	// sum of len(Versions) over the groups that Groups yields.
	Info() DomainInfo
	// Groups yields the groups in a fixed order and stops early when yield
	// returns false. An error means the domain could not be read to the
	// end (for a file, a bad line); a run that gets one fails with it.
	Groups(yield func(Group) bool) error
}

// Group is one constraint and the versions judged against it.
type Group struct {
	// Constraint is the constraint text, exactly as every policy receives
	// it.
	Constraint string
	// Versions are the version texts. The runner only reads the slice, so
	// a domain may hand the same slice to several groups.
	Versions []string
	// History names the version history Versions come from, in domains
	// made of real histories. When it is set, Versions is the whole list a
	// user would install from, and the run also compares selection: the
	// version each policy would install.
	History string
}

// DomainInfo describes a domain in the report.
type DomainInfo struct {
	// Name is the kind of domain: "exhaustive", "random", "corpus", "file",
	// or a name of the caller's choosing.
	Name string `json:"name"`
	// Description says what the domain holds, in a line a person can read;
	// it carries every parameter that changes the cases (scope, seed,
	// count, pairing, file name).
	Description string `json:"description"`
	// Cases is the number of (constraint, version) pairs.
	Cases int64 `json:"cases"`
	// Digest identifies the cases of a domain read from a file, whatever
	// the file is called: "sha256:" and the hexadecimal SHA-256 of the
	// cases in order, each written as CONSTRAINT<TAB>VERSION and a line
	// feed. It is "" for the other domains, whose Description names
	// every parameter that changes the cases.
	Digest string `json:"digest,omitempty"`
}
