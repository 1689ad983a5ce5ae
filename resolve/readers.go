package resolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/terraform/installer"
)

// Reader is a program that reads a module call's or provider's
// constraint and acts on it: an installer's init, a bot that proposes
// updates, the editor. Its policy is its reading.
type Reader struct {
	// Name is how the report names it: "renovate", "terraform-ls".
	Name   string
	Policy engine.Policy
	// ModulesOnly is set for a reader of module calls alone
	// (terraform-module-versions).
	ModulesOnly bool
	// Cooldown is how the reader applies a minimum release age, nil when
	// it has none: under a report's cooldown, the item's minimum age is
	// set in the tool too (Renovate's minimumReleaseAge, Dependabot's
	// cooldown), and the reading is what the tool does with it.
	Cooldown *ReaderCooldown
}

// Reading is what one reader assumes for one item.
type Reading struct {
	// Selects is the version it selects (installs, locks, shows), nil
	// for none.
	Selects *string `json:"selects"`
	// Proposes is the version an updater proposes beyond it, nil for
	// none.
	Proposes *string `json:"proposes,omitempty"`
	// Note says why it selects nothing when that is not that no version
	// matches: "skipped: != is unsupported", "error: ...".
	Note string `json:"note,omitempty"`
}

// notProviders is the note of a reader of module calls alone on a
// provider.
const notProviders = "does not read providers"

// AddReaders fills each item's Readers with what today's installers
// (the releases of the report, as Items' TerraformPolicy and
// OpenTofuPolicy select, with their errors) and every reader of readers
// assume, and the report's Readers with their names in order. Items
// whose versions could not be listed are left out.
func (r *Report) AddReaders(readers []Reader) error {
	if r == nil {
		return fmt.Errorf("resolve: AddReaders needs a report")
	}
	for _, rd := range readers {
		if rd.Policy == nil || rd.Name == "" {
			return fmt.Errorf("resolve: a reader needs a name and a policy")
		}
	}
	r.Readers = nil
	for _, s := range r.Installers {
		r.Readers = append(r.Readers, s)
	}
	for _, rd := range readers {
		r.Readers = append(r.Readers, rd.Name)
	}
	for i := range r.Items {
		it := &r.Items[i]
		if it.Status == StatusError || it.listed == nil {
			continue
		}
		it.Readers = map[string]Reading{}
		for _, s := range r.Installers {
			it.Readers[s] = it.installerReading(s)
		}
		for _, rd := range readers {
			if rd.ModulesOnly && it.Kind != KindModule {
				it.Readers[rd.Name] = Reading{Note: notProviders}
				continue
			}
			if r.Cooldown != nil {
				if cooled, ok := it.cooledReading(rd, r.Cooldown.Now); ok {
					it.Readers[rd.Name] = cooled
					continue
				}
			}
			it.Readers[rd.Name] = it.reading(rd.Policy)
		}
	}
	return nil
}

// installerReading is what the release s ("terraform@1.15.9") installs
// for the item.
func (it *Item) installerReading(s string) Reading {
	rel, err := installer.Parse(s)
	policy := it.TerraformPolicy
	if err == nil && rel.Product == installer.OpenTofu {
		policy = it.OpenTofuPolicy
	}
	for _, e := range it.TodayErrors {
		if e.Installer == s {
			return Reading{Note: "error: " + e.Error}
		}
	}
	if reason := it.Refused[policy]; reason != "" {
		return Reading{Note: "refuses the constraint: " + reason}
	}
	return Reading{Selects: it.ByPolicy[policy]}
}

// reading is what a reader with policy p assumes for the item: what it
// selects over the listed versions and, for an updater, what it
// proposes; a constraint it refuses is a skip, with its reason.
func (it *Item) reading(p engine.Policy) Reading {
	sel, err := engine.Select(p, it.Constraint, it.listed)
	if err != nil {
		return Reading{Note: "skipped: " + engine.ClipReason(err.Error())}
	}
	var rd Reading
	if sel.Found {
		v := sel.Version
		rd.Selects = &v
	}
	rd.Proposes = proposal(p, it.Constraint, "", rd.Selects, it.listed)
	return rd
}

// readersAgree reports whether every reader of the item assumes the
// same, and what.
func (it *Item) readersAgree(names []string) (string, bool) {
	var first string
	i := 0
	for _, n := range names {
		rd := it.Readers[n]
		if rd.Note == notProviders {
			continue
		}
		s := rd.text()
		if i == 0 {
			first = s
		} else if s != first {
			return "", false
		}
		i++
	}
	return first, true
}

// text is what a reading selects, in a few words: "1.5.0", "none",
// "skipped: ...".
func (rd Reading) text() string {
	switch {
	case rd.Selects != nil:
		return *rd.Selects
	case rd.Note != "":
		return rd.Note
	}
	return "none"
}

// proposals says which updaters propose what beyond their selection:
// "renovate, dependabot propose 3.0.0"; "" for none.
func (it *Item) proposals(names []string) string {
	var versions []string
	by := map[string][]string{}
	for _, n := range names {
		p := it.Readers[n].Proposes
		if p == nil {
			continue
		}
		if by[*p] == nil {
			versions = append(versions, *p)
		}
		by[*p] = append(by[*p], n)
	}
	parts := make([]string, len(versions))
	for i, v := range versions {
		verb := " proposes "
		if len(by[v]) > 1 {
			verb = " propose "
		}
		parts[i] = strings.Join(by[v], ", ") + verb + v
	}
	return strings.Join(parts, "; ")
}

// readersSection lists, per item, what the readers select: first the
// items where they differ, each answer with the readers that give it,
// then one line for each item where they all agree; what updaters
// propose beyond that follows in parentheses.
func (r *Report) readersSection(code, text func(string) string) section {
	var differ, agree []string
	for i := range r.Items {
		it := &r.Items[i]
		if it.Readers == nil {
			continue
		}
		head := fmt.Sprintf("%s %s (%s): ", it.Kind, code(it.Name), text(it.BriefConstraint()))
		tail := ""
		if p := it.proposals(r.Readers); p != "" {
			tail = " (" + text(p) + ")"
		}
		if s, ok := it.readersAgree(r.Readers); ok {
			agree = append(agree, head+"all readers: "+text(s)+tail)
			continue
		}
		// The readers grouped by what they select, in report order.
		var answers []string
		by := map[string][]string{}
		for _, n := range r.Readers {
			if it.Readers[n].Note == notProviders {
				continue
			}
			s := it.Readers[n].text()
			if by[s] == nil {
				answers = append(answers, s)
			}
			by[s] = append(by[s], n)
		}
		parts := make([]string, len(answers))
		for j, a := range answers {
			parts[j] = text(a) + ": " + strings.Join(by[a], ", ")
		}
		differ = append(differ, head+strings.Join(parts, "; ")+tail)
	}
	title := fmt.Sprintf("What each reader selects (%d of %d items differ)", len(differ), len(differ)+len(agree))
	// Every difference is named; the items where the readers agree are
	// cut as any list is.
	return section{title: title, lines: slices.Concat(differ, agree), keep: len(differ), one: "item where the readers agree", many: "items where the readers agree"}
}
