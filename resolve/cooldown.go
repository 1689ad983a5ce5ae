package resolve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/terraform/registry"
)

// Cooldown is what a minimum release age does to one item: the chosen
// policy decides on the whole list, then the versions younger than MinAge
// are held back (engine.SelectCooled).
type Cooldown struct {
	// MinAge is the minimum age as prerel.hcl writes it ("7d"), From
	// where it was set.
	MinAge string `json:"min_age"`
	From   string `json:"min_age_from"`
	// AllowUndated is set when a version without a date gets through.
	AllowUndated bool `json:"allow_undated,omitempty"`
	// Exempt says why the cooldown does not apply: the constraint is an
	// exact pin, or a version is wanted.
	Exempt string `json:"exempt,omitempty"`
	// Without is what the chosen policy selects without the cooldown.
	Without *string `json:"without"`
	// Changed is set when the cooldown changes the selection.
	Changed bool `json:"changed"`
	// EligibleSince is when the selected version became eligible; nil
	// when it has no date or the cooldown does not apply.
	EligibleSince *time.Time `json:"eligible_since,omitempty"`
	// DatesFrom says where the dates came from; DatesNote why there are
	// none, and DatesDetail what each source answered.
	DatesFrom   string `json:"dates_from,omitempty"`
	DatesNote   string `json:"dates_note,omitempty"`
	DatesDetail string `json:"dates_detail,omitempty"`
}

// CooldownHeader is the report's account of the cooldown: when the ages
// were counted, and the hosts that gave no dates, each said once.
type CooldownHeader struct {
	Now time.Time `json:"now"`
	// Changed names the items whose selection the cooldown changes, in
	// the report's order; the text report leads with them.
	Changed []string `json:"changed"`
	// NoDates are the notes of the hosts that gave no dates, once each,
	// with how many items they leave undated.
	NoDates []string `json:"no_dates,omitempty"`
}

// datesOf is the dates found for one address.
type datesOf struct {
	dates        engine.Dates
	from         string
	note, detail string
}

// cooled reports whether some job has a minimum age.
func cooled(jobs []*job) bool {
	return slices.ContainsFunc(jobs, func(j *job) bool { return j.cool.Active() })
}

// lookupDates finds the dates of every address whose jobs have a minimum
// age: an index file's from its listing, a registry's from its dates
// APIs (registry.Dated), at most n lookups at once.
func lookupDates(ctx context.Context, src registry.Source, jobs []*job, listings map[lookupKey]listing, n int) map[lookupKey]datesOf {
	if n <= 0 {
		n = DefaultConcurrency
	}
	out := map[lookupKey]datesOf{}
	var keys []lookupKey
	for _, j := range jobs {
		l := listings[j.key]
		if !j.cool.Active() || l.listing == nil || l.err != nil {
			continue
		}
		if _, seen := out[j.key]; seen {
			continue
		}
		out[j.key] = datesOf{}
		if engine.Dates(l.listing.Published).Any() {
			out[j.key] = datesOf{dates: l.listing.Published, from: l.listing.From}
			continue
		}
		keys = append(keys, j.key)
	}
	dated, ok := src.(registry.Dated)
	if !ok {
		for _, k := range keys {
			out[k] = datesOf{note: fmt.Sprintf("%s gives no publication dates", src.String())}
		}
		return out
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			versions := listings[k].listing.Versions
			var d *registry.DateListing
			var err error
			if k.kind == KindModule {
				d, err = dated.ModuleDates(ctx, k.module, versions)
			} else {
				d, err = dated.ProviderDates(ctx, k.provider, versions)
			}
			got := datesOf{}
			switch {
			case err != nil:
				got.note = "no publication dates: " + err.Error()
			case d.Note != "":
				got.note, got.detail = d.Note, d.Detail
			default:
				got.from = d.From
				got.dates = make(engine.Dates, len(versions))
				for i, v := range versions {
					got.dates[i] = d.Published[v]
				}
			}
			mu.Lock()
			out[k] = got
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// applyCooldown selects with the chosen policy under the job's cooldown
// and records what it holds back. A wanted version is exempt, as an
// exact pin is.
func (j *job) applyCooldown(it *Item, versions []string, d datesOf) {
	if !j.cool.Active() || it.Status == StatusError {
		return
	}
	c := &Cooldown{MinAge: engine.FormatMinAge(j.cool.MinAge), From: j.coolFrom, AllowUndated: j.cool.AllowUndated,
		Without: it.Selected, DatesFrom: d.from, DatesNote: d.note, DatesDetail: d.detail}
	it.Cooldown = c
	it.dates, it.minAge, it.host = d.dates, j.cool.MinAge, j.host()
	if j.want.Version != "" {
		c.Exempt = "a wanted version: the cooldown does not apply"
		return
	}
	sel, err := engine.SelectCooled(j.chosen, it.Constraint, versions, d.dates, j.cool)
	if err != nil {
		return // the refusal is the item's already
	}
	c.Exempt, c.Changed, c.EligibleSince = sel.Exempt, sel.Changed(), sel.EligibleSince
	it.HeldBack = sel.HeldBack
	it.Selected = nil
	if sel.Found {
		v := sel.Version
		it.Selected = &v
	}
}

// cooldownHeader sums the cooldown up for the report; nil without one.
func cooldownHeader(now time.Time, items []Item) *CooldownHeader {
	h := &CooldownHeader{Now: now.UTC(), Changed: []string{}}
	any := false
	var notes []string
	count := map[string]int{}
	for i := range items {
		c := items[i].Cooldown
		if c == nil {
			continue
		}
		any = true
		if c.Changed {
			h.Changed = append(h.Changed, string(items[i].Kind)+" "+items[i].Name)
		}
		if c.DatesNote != "" {
			if count[c.DatesNote] == 0 {
				notes = append(notes, c.DatesNote)
			}
			count[c.DatesNote]++
		}
	}
	for _, n := range notes {
		h.NoDates = append(h.NoDates, fmt.Sprintf("%s: %s undated", n, plural.Of(count[n], "item's versions count as", "items' versions count as")))
	}
	if !any {
		return nil
	}
	return h
}

// cooldownLines are the lines the text and Markdown reports lead with:
// each item whose selection the cooldown changes or that it holds some
// version back from, then each exempt one, then the hosts without dates.
func (r *Report) cooldownLines(code, text func(string) string) []string {
	var changed, exempt []string
	day := func(t *time.Time) string { return t.UTC().Format(time.RFC3339) }
	for i := range r.Items {
		it := &r.Items[i]
		c := it.Cooldown
		if c == nil {
			continue
		}
		if c.Exempt != "" {
			exempt = append(exempt, fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(fmt.Sprintf("%q", it.Constraint)), text(c.Exempt)))
			continue
		}
		if len(it.HeldBack) == 0 {
			continue
		}
		var held []string
		for _, h := range it.HeldBack {
			if h.Undated() {
				held = append(held, text(h.Version)+" (undated)")
			} else {
				held = append(held, fmt.Sprintf("%s (published %s, eligible %s)", text(h.Version), day(h.PublishedAt), day(h.EligibleAt)))
			}
		}
		sel := "none"
		if it.Selected != nil {
			sel = *it.Selected
			if c.EligibleSince != nil {
				sel += ", eligible since " + day(c.EligibleSince)
			}
		}
		changed = append(changed, fmt.Sprintf("%s %s: selects %s; held back: %s", it.Kind, code(it.Name), text(sel), strings.Join(held, ", ")))
	}
	lines := append(changed, exempt...)
	if r.Cooldown != nil {
		for _, n := range r.Cooldown.NoDates {
			lines = append(lines, text(n))
		}
	}
	return lines
}

// cooldownTitle is the title of the report's first section.
func (r *Report) cooldownTitle() string {
	n := 0
	if r.Cooldown != nil {
		n = len(r.Cooldown.Changed)
	}
	return fmt.Sprintf("Cooldown at %s: %s changed", r.Cooldown.Now.Format(time.RFC3339), plural.Of(n, "selection", "selections"))
}

// heldList names held-back versions: "1.1.0 (eligible 2026-03-06T...)".
func heldList(hs []engine.HeldBack) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		if h.Undated() {
			parts[i] = h.Version + " (undated)"
		} else {
			parts[i] = h.Version + " (eligible " + h.EligibleAt.Format(time.RFC3339) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// host is the registry host of the job's address.
func (j *job) host() string {
	if j.key.kind == KindModule {
		return j.key.module.Host.String()
	}
	return j.key.provider.Hostname.String()
}

// ReaderCooldown is how a reader applies a minimum release age, as the
// tool's own code or design says; each reading under a cooldown uses the
// item's minimum age and the report's time.
type ReaderCooldown struct {
	// Cooldown is the tool's cooldown for a minimum age at a time: its
	// order, its buffer, what it does with an undated version and an
	// exact pin (updaters.RenovateCooldown, updaters.DependabotCooldown).
	Cooldown func(minAge time.Duration, now time.Time) engine.Cooldown
	// ModulesOnly applies the cooldown to module calls alone.
	ModulesOnly bool
	// DatedHosts are the hosts the tool gets dates for; nil means the
	// dates prerel found. PublicDates takes the dates of
	// registry.terraform.io whatever the host.
	DatedHosts  []string
	PublicDates bool
	// ProvidersWithoutAge: the providers' versions are locked without
	// the age (Renovate's lock file maintenance runs init -upgrade).
	ProvidersWithoutAge bool
	// Pending is what the tool does when every candidate is held back:
	// the reading's note.
	Pending string
}

// cooledReading is what a reader with a cooldown assumes for an item
// under a minimum age; ok is false when the cooldown does not apply.
func (it *Item) cooledReading(rd Reader, now time.Time) (Reading, bool) {
	c := rd.Cooldown
	if c == nil || c.Cooldown == nil || it.minAge <= 0 {
		return Reading{}, false
	}
	if it.Kind == KindProvider && (c.ModulesOnly || c.ProvidersWithoutAge) {
		r := it.reading(rd.Policy)
		if c.ProvidersWithoutAge {
			r.Note = "lock maintenance, without the minimum age"
		}
		return r, true
	}
	dates := it.dates
	switch {
	case c.PublicDates && it.host != registry.PublicTerraformHost:
		// The tool asks registry.terraform.io for a module of the same
		// name, which prerel does not: undated here.
		dates = nil
	case c.DatedHosts != nil && !slices.Contains(c.DatedHosts, it.host):
		dates = nil
	}
	sel, err := engine.SelectCooled(rd.Policy, it.Constraint, it.listed, dates, c.Cooldown(it.minAge, now))
	if err != nil {
		return Reading{Note: "skipped: " + engine.ClipReason(err.Error())}, true
	}
	var r Reading
	if sel.Found {
		v := sel.Version
		r.Selects = &v
	} else if sel.Without.Found && c.Pending != "" {
		r.Note = c.Pending
	}
	return r, true
}
