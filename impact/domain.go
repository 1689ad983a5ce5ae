package impact

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prerel/prerel/engine"
)

// Kind is what a call asks to install.
type Kind string

// The kinds of calls.
const (
	KindModule   Kind = "module"
	KindProvider Kind = "provider"
)

// Call is one real module call or provider requirement.
type Call struct {
	// Repo is the repository (corpus) or the root module directory
	// (directory domain) the call is in.
	Repo string `json:"repo"`
	// Path is the file the call is written in, relative to Repo; for a
	// directory domain it is the place FILE:LINE:COLUMN, and "" for a
	// provider only implied.
	Path string `json:"path"`
	// Line is the call's line in Path, 0 when Path has it already.
	Line int  `json:"line,omitempty"`
	Kind Kind `json:"kind"`
	// Name is the module call's name or the provider's local name.
	Name string `json:"name"`
	// Source is the source address as written.
	Source string `json:"source"`
	// SourceKey is the canonical source address: calls with one key
	// share one history.
	SourceKey string `json:"source_key"`
	// Constraint is the version constraint as written; "" is any version.
	Constraint string `json:"constraint"`
	// History is the key of the call's history in Domain.Histories; ""
	// when it has none.
	History string `json:"history,omitempty"`
}

// Place is where the call is written: "path:line", the directory
// domain's position, or "implied".
func (c *Call) Place() string {
	switch {
	case c.Path == "":
		return "implied"
	case c.Line > 0:
		return c.Path + ":" + strconv.Itoa(c.Line)
	}
	return c.Path
}

// History is the version history of one module or provider.
type History struct {
	// Name is how reports name it: a file name, or an address.
	Name string
	// From says where it comes from: the repository whose tags it lists,
	// an index entry, a URL.
	From string
	// Lines are the versions as recorded, in the recorded order.
	Lines []string
	// StripV strips one leading "v" from each line before it is offered,
	// as the registry offers git tags.
	StripV bool
	// Published are the versions' publication dates by version as
	// offered, where the source gives them (an index file's
	// published_at); nil for none.
	Published map[string]time.Time
}

// dates returns the dates of the offered versions (engine.Dates).
func (h *History) dates(offered []string) engine.Dates {
	if h.Published == nil {
		return nil
	}
	out := make(engine.Dates, len(offered))
	for i, v := range offered {
		out[i] = h.Published[v]
	}
	return out
}

// Offered returns the versions h offers the policies, as Run offers them
// (one leading "v" stripped when h asks for it, lines that are not
// versions and repeats left out, prereleases inserted with simulate), in
// the recorded order.
func (h *History) Offered(simulate bool) []string { return newOffer(h, simulate).versions }

// Domain is the calls a report is made of, with their histories.
type Domain struct {
	// Name is "corpus" or "dirs".
	Name string
	// Sample is set when the calls are a sample of public repositories,
	// not a census.
	Sample bool
	// Dirs are the root module directories of a directory domain.
	Dirs []string
	// VersionsFrom says where a directory domain's versions come from.
	VersionsFrom string
	// Repositories is how many repositories (or directories) were read,
	// including any without calls.
	Repositories int
	Calls        []Call
	Histories    map[string]*History
	// Skipped lists the module calls and providers of a directory
	// domain that have no version to select (Git and local sources,
	// expressions, built-in providers); they are not calls.
	Skipped []string
	// Unread lists the modules of a directory domain that were not read,
	// so that their own calls are unknown.
	Unread []Unread
	// Problems lists the calls whose versions could not be listed.
	Problems []string
	// failed are the calls of Problems of a directory domain, in order,
	// for Report.ProblemLines.
	failed []failedCall
}

// Unread is a module that was not read.
type Unread struct {
	Dir    string `json:"dir"`
	Module string `json:"module"`
	Source string `json:"source"`
	Pos    string `json:"pos,omitempty"`
	Reason string `json:"reason"`
}

// offer is a history as the policies are offered it.
type offer struct {
	versions []string
	// sorted are the indices of versions in precedence order (ties keep
	// the offered order).
	sorted      []int
	notVersions []string // lines the engine cannot read
	repeated    []string // lines that repeat an offered version
	// published is how many versions the history publishes: the
	// offered ones before any simulation.
	published int
	simulated bool
}

// newOffer builds the offer of h: one leading "v" stripped when h asks
// for it, lines that are not versions and repeats left out; with
// simulate, a history that offers no prerelease gets X.Y.Z-beta.1 and
// X.Y.Z-rc.1 before each release X.Y.Z.
func newOffer(h *History, simulate bool) *offer {
	o := &offer{}
	seen := map[string]bool{}
	var parsed []engine.Version
	add := func(s string, v engine.Version) {
		seen[s] = true
		o.versions = append(o.versions, s)
		parsed = append(parsed, v)
	}
	hasPre := false
	for _, line := range h.Lines {
		s := line
		if h.StripV {
			s = strings.TrimPrefix(s, "v")
		}
		v, err := engine.ParseVersion(s)
		switch {
		case err != nil:
			o.notVersions = append(o.notVersions, line)
			continue
		case seen[s]:
			o.repeated = append(o.repeated, line)
			continue
		}
		hasPre = hasPre || v.IsPrerelease()
		add(s, v)
	}
	o.published = len(o.versions)
	if simulate && !hasPre && len(o.versions) > 0 {
		o.simulated = true
		versions, vs := o.versions, parsed
		o.versions, parsed = nil, nil
		clear(seen)
		for i, s := range versions {
			core := vs[i].Core().String()
			for _, pre := range []string{"-beta.1", "-rc.1"} {
				if p := core + pre; !seen[p] {
					add(p, engine.MustParseVersion(p))
				}
			}
			add(s, vs[i])
		}
	}
	o.sorted = make([]int, len(o.versions))
	for i := range o.sorted {
		o.sorted[i] = i
	}
	slices.SortStableFunc(o.sorted, func(a, b int) int { return parsed[a].Compare(parsed[b]) })
	return o
}

// nearby returns the versions around the selected ones (a window of
// nearbyWidth each side of each), in precedence order, each marked with
// the policies that select it and with how many versions were left out
// before it, and how many are left out after the last. With no version
// selected, it is the newest ones.
func (o *offer) nearby(against, policy string) ([]Nearby, int) {
	n := len(o.sorted)
	if n == 0 {
		return []Nearby{}, 0
	}
	show := make([]bool, n)
	var targets []int
	for rank, i := range o.sorted {
		if v := o.versions[i]; v == against || v == policy {
			targets = append(targets, rank)
		}
	}
	if len(targets) == 0 {
		targets = []int{n - 1}
	}
	for _, t := range targets {
		for r := max(0, t-nearbyWidth); r <= min(n-1, t+nearbyWidth); r++ {
			show[r] = true
		}
	}
	var out []Nearby
	gap := 0
	for rank, i := range o.sorted {
		if !show[rank] {
			gap++
			continue
		}
		v := o.versions[i]
		out = append(out, Nearby{Version: v, Skipped: gap, Against: v == against, Policy: v == policy})
		gap = 0
	}
	return out, gap
}

// nearbyWidth is how many versions an example shows on each side of a
// selected one.
const nearbyWidth = 2

// HistoryOf returns the history a case of a report names, or nil. A case
// names its history by History.Name; the corpus keys its histories by
// that name, a directory domain by the kind and the address.
func (d *Domain) HistoryOf(c *Case) *History {
	if d == nil || c == nil || c.History == "" {
		return nil
	}
	for _, key := range []string{c.History, string(c.Kind) + " " + c.History} {
		if h := d.Histories[key]; h != nil && h.Name == c.History {
			return h
		}
	}
	return nil
}
