package impact

import "github.com/prerel/prerel/engine"

// SchemaVersion is the version of the JSON form of a Report: it changes
// when a field changes meaning or disappears; a new field does not
// change it.
const SchemaVersion = 1

// Report is the result of Run. Its JSON form (snake_case keys) holds
// everything the text report of Render shows.
type Report struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Policy is P, the policy whose adoption is asked about.
	Policy string `json:"policy"`
	// Against is B for each kind of call.
	Against Against `json:"against"`
	// Cooldown says, under Options.Cooldown, the minimum age P's
	// selections are made under and when: "7d at 2026-03-01T12:00:00Z".
	Cooldown string     `json:"cooldown,omitempty"`
	Domain   DomainInfo `json:"domain"`
	Data     Data       `json:"data"`
	// Simulated is set when prereleases were simulated.
	Simulated *Simulation `json:"simulated"`
	// Changed counts every call that installs differently.
	Changed Tally `json:"changed"`
	// Classes holds every class in the order of Classes, changes first.
	Classes []ClassReport `json:"classes"`
	// RefusedByBoth counts the calls, among the unchanged, whose
	// constraint both policies refuse.
	RefusedByBoth RefusedByBoth `json:"refused_by_both"`
	// WithoutHistory counts the calls without a history per source, the
	// most calls first.
	WithoutHistory []SourceCount `json:"without_history"`
	// NotVersions and Repeated are the history lines left out of the
	// offer (see the package documentation), over the histories the
	// calls name.
	NotVersions LeftOut `json:"not_versions"`
	Repeated    LeftOut `json:"repeated"`
	// Skipped, Unread and Problems are the domain's (see Domain).
	Skipped  []string `json:"skipped"`
	Unread   []Unread `json:"unread"`
	Problems []string `json:"problems"`

	// run is what the HTML report draws from; nil in a report Run did not
	// make.
	run *runInputs
}

// runInputs are the inputs of Run that the HTML report draws: the
// domain's histories and the policies.
type runInputs struct {
	domain   *Domain
	policy   engine.Policy
	against  map[Kind]engine.Policy
	simulate bool
}

// Against names the baseline B of each kind of call.
type Against struct {
	Module   string `json:"module"`
	Provider string `json:"provider"`
	// Today is set when B is today's installers, not a policy given by
	// Options.Against.
	Today bool `json:"today"`
	// Installers name the releases whose init is today's, when Today:
	// ["terraform@1.15.9", "tofu@1.12.6"] (Options.Terraform and
	// Options.OpenTofu).
	Installers []string `json:"installers,omitempty"`
}

// DomainInfo says what the calls are.
type DomainInfo struct {
	// Name is "corpus" or "dirs".
	Name         string   `json:"name"`
	Dirs         []string `json:"dirs,omitempty"`
	VersionsFrom string   `json:"versions_from,omitempty"`
	// Sample is set when the calls are a sample of public repositories,
	// not a census.
	Sample bool `json:"sample"`
}

// Data counts the calls.
type Data struct {
	Calls         int `json:"calls"`
	ModuleCalls   int `json:"module_calls"`
	ProviderCalls int `json:"provider_calls"`
	// Repositories is how many repositories (or directories) have calls;
	// RepositoriesRead how many were read.
	Repositories     int `json:"repositories"`
	RepositoriesRead int `json:"repositories_read"`
	WithHistory      int `json:"with_history"`
	WithoutHistory   int `json:"without_history"`
	// Distinct counts distinct (repository, source, constraint) triples,
	// DistinctWithHistory those of calls with a history.
	Distinct            int `json:"distinct"`
	DistinctWithHistory int `json:"distinct_with_history"`
	// Histories is how many distinct histories the calls name.
	Histories int `json:"histories"`
}

// Simulation says what --simulate-prereleases changed.
type Simulation struct {
	// Histories is how many histories had prereleases inserted: those,
	// of HistoriesUsed, that offer none.
	Histories     int `json:"histories"`
	HistoriesUsed int `json:"histories_used"`
	// Calls is how many calls have a simulated history.
	Calls int `json:"calls"`
}

// Tally is a count of calls and of distinct (repository, source,
// constraint) triples.
type Tally struct {
	Calls    int `json:"calls"`
	Distinct int `json:"distinct"`
}

// ByCause splits a class's tally by cause.
type ByCause struct {
	PrereleaseRule Tally `json:"prerelease_rule"`
	Reading        Tally `json:"reading"`
	// Cooldown counts the changes a minimum release age makes
	// (Options.Cooldown): P would select what B does without it.
	Cooldown *Tally `json:"cooldown,omitempty"`
}

// ClassReport is one class: its counts, its smallest example and its
// cases.
type ClassReport struct {
	Class   Class `json:"class"`
	Changed bool  `json:"changed"`
	Tally
	// Percent is Calls as a share of the calls with a history, in
	// percent, rounded to one decimal.
	Percent float64 `json:"percent"`
	// ByCause is set for a change.
	ByCause *ByCause `json:"by_cause,omitempty"`
	// Simulated is how many of the calls have a simulated history.
	Simulated int `json:"simulated"`
	// Example is the smallest call of a change; nil for unchanged or an
	// empty class.
	Example *Example `json:"example,omitempty"`
	// Cases groups the calls of a change by kind, source, constraint and
	// history, the most calls first; empty for unchanged.
	Cases []Case `json:"cases"`
}

// Example is one call of a class, in full.
type Example struct {
	Call
	Against Outcome     `json:"against"`
	Policy  Outcome     `json:"policy"`
	Cause   Cause       `json:"cause"`
	History HistoryInfo `json:"history"`
}

// HistoryInfo is the history an example's versions were chosen from.
type HistoryInfo struct {
	Name string `json:"name"`
	From string `json:"from,omitempty"`
	// Versions is how many versions were offered, Published how many of
	// them the history publishes (the others are simulated).
	Versions  int  `json:"versions"`
	Published int  `json:"published"`
	Simulated bool `json:"simulated"`
	// Nearby are the versions around the selected ones, in precedence
	// order; After is how many come after the last of them.
	Nearby []Nearby `json:"nearby"`
	After  int      `json:"after"`
}

// Nearby is one version of an example's history.
type Nearby struct {
	Version string `json:"version"`
	// Skipped is how many versions were left out before this one.
	Skipped int `json:"skipped,omitempty"`
	// Against and Policy are set when B or P selects it.
	Against bool `json:"against,omitempty"`
	Policy  bool `json:"policy,omitempty"`
}

// Case is the calls of one class that share kind, source, constraint and
// history: one answer.
type Case struct {
	Kind       Kind   `json:"kind"`
	SourceKey  string `json:"source_key"`
	Source     string `json:"source"`
	Constraint string `json:"constraint"`
	History    string `json:"history"`
	// Calls and Repos are how many calls, in how many repositories.
	Calls     int     `json:"calls"`
	Repos     int     `json:"repos"`
	Against   Outcome `json:"against"`
	Policy    Outcome `json:"policy"`
	Cause     Cause   `json:"cause"`
	Simulated bool    `json:"simulated"`
}

// RefusedByBoth counts calls whose constraint both P and B refuse, with
// the distinct constraints.
type RefusedByBoth struct {
	Calls       int      `json:"calls"`
	Constraints []string `json:"constraints"`
}

// SourceCount is how many calls name one source.
type SourceCount struct {
	Kind      Kind   `json:"kind"`
	SourceKey string `json:"source_key"`
	Calls     int    `json:"calls"`
}

// LeftOut counts history lines left out of the offer, with a few
// examples.
type LeftOut struct {
	Lines     int           `json:"lines"`
	Histories int           `json:"histories"`
	Examples  []LineExample `json:"examples"`
}

// LineExample is one history line left out.
type LineExample struct {
	History string `json:"history"`
	Line    string `json:"line"`
}

// Class returns the report of class c.
func (r *Report) Class(c Class) *ClassReport {
	for i := range r.Classes {
		if r.Classes[i].Class == c {
			return &r.Classes[i]
		}
	}
	return nil
}

// Count returns how many calls fall in class c.
func (r *Report) Count(c Class) int {
	if cr := r.Class(c); cr != nil {
		return cr.Calls
	}
	return 0
}
