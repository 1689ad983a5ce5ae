package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Cooldown is a minimum release age stacked on a policy's selection: a
// version younger than MinAge at Now is held back.
//
// The order is written once, here: the policy decides what it admits on
// the whole list, then the versions younger than MinAge are held back,
// and the newest admitted version left is selected. So no policy falls
// back to a prerelease because a release was held back (the fallback
// trap of the age-first order, pnpm's #9979). AgeFirst selects in the
// other order, the one OpenTofu's RFC #4444 describes, for comparisons.
//
// A constraint that is an exact pin, one "=" comparator with or without
// its operator, is exempt, as in Terraform's PR #38372. A version without
// a date is held back (fail closed) unless AllowUndated.
type Cooldown struct {
	// MinAge is the minimum release age; 0 or less means no cooldown.
	MinAge time.Duration
	// Now is the time the ages are counted at; the zero time means the
	// time of the call.
	Now time.Time
	// AllowUndated lets a version without a date through.
	AllowUndated bool
	// AgeFirst holds the young versions back before the policy sees the
	// list (OpenTofu's RFC #4444), rather than after.
	AgeFirst bool
	// PinsNotExempt holds an exact pin's version back too, as tools
	// without the exemption do (Renovate, Dependabot).
	PinsNotExempt bool
}

// Active reports whether the cooldown holds anything back.
func (c Cooldown) Active() bool { return c.MinAge > 0 }

// Dates are the publication dates of a list of versions, in the list's
// order; the zero time is a version without a date. A nil or short Dates
// leaves the versions past its end undated, so an undated history costs
// nothing.
type Dates []time.Time

// At returns the date of the i-th version and whether it has one.
func (d Dates) At(i int) (time.Time, bool) {
	if i < 0 || i >= len(d) || d[i].IsZero() {
		return time.Time{}, false
	}
	return d[i], true
}

// Any reports whether some version has a date.
func (d Dates) Any() bool {
	for _, t := range d {
		if !t.IsZero() {
			return true
		}
	}
	return false
}

// HeldBack is a version the policy admits that the cooldown holds back.
type HeldBack struct {
	Version string `json:"version"`
	// PublishedAt is the version's date; nil when it has none.
	PublishedAt *time.Time `json:"published_at"`
	// EligibleAt is when it becomes eligible, PublishedAt plus the
	// minimum age; nil for an undated version, which never does.
	EligibleAt *time.Time `json:"eligible_at"`
}

// Undated reports whether the version is held back for having no date.
func (h HeldBack) Undated() bool { return h.PublishedAt == nil }

// CooledSelection is a selection under a cooldown.
type CooledSelection struct {
	// Selection is what the policy selects with the cooldown.
	Selection
	// Without is what it selects from the whole list without one.
	Without Selection
	// HeldBack are the versions the policy admits, newer than Selection,
	// that the cooldown holds back, newest first.
	HeldBack []HeldBack
	// Exempt says why the cooldown does not apply ("" when it does):
	// the constraint is an exact pin.
	Exempt string
	// EligibleSince is when the selected version became eligible; nil
	// when it has no date, nothing is selected or the cooldown does not
	// apply.
	EligibleSince *time.Time
}

// Changed reports whether the cooldown changes the selection.
func (s CooledSelection) Changed() bool {
	return s.Found != s.Without.Found || s.Version != s.Without.Version
}

// ExemptExactPin is CooledSelection.Exempt for an exact pin.
const ExemptExactPin = "an exact pin: the cooldown does not apply (as in Terraform PR #38372)"

// Admitter is implemented by a Selector whose rule depends on the whole
// list: Admitted reports which versions of available it admits given all
// of them, in the list's order. SelectCooled asks it, so that holding a
// version back never changes what the rule admits.
type Admitter interface {
	Admitted(constraint string, available []string) ([]bool, error)
}

// PairwiseSelector is implemented by a Selector whose rule is pairwise:
// it selects, by its own precedence, the newest version its Matcher
// admits (an adapter that orders versions as its library does). Under a
// cooldown it selects from the eligible versions alone, as a Policy that
// is no Selector does, and the order makes no difference.
type PairwiseSelector interface {
	Selector
	SelectsPairwise()
}

// IsExactPin reports whether constraint is an exact pin: one comparator,
// "=" or no operator.
func IsExactPin(constraint string) bool {
	c, err := ParseMultipartConstraint(constraint)
	return err == nil && c.Len() == 1 && c.comparators[0].Op == OpEqual
}

// SelectCooled is Select under a cooldown, in the order c says (policy
// first unless c.AgeFirst). dates are the versions' dates (see Dates).
// With an inactive cooldown it is Select, with Without the same.
func SelectCooled(p Policy, constraint string, available []string, dates Dates, c Cooldown) (CooledSelection, error) {
	without, err := Select(p, constraint, available)
	if err != nil {
		return CooledSelection{}, err
	}
	out := CooledSelection{Selection: without, Without: without}
	if !c.Active() {
		return out, nil
	}
	if !c.PinsNotExempt && IsExactPin(constraint) {
		out.Exempt = ExemptExactPin
		return out, nil
	}
	now := c.Now
	if now.IsZero() {
		now = time.Now()
	}
	cutoff := now.Add(-c.MinAge)
	eligible := func(i int) bool {
		t, ok := dates.At(i)
		if !ok {
			return c.AllowUndated
		}
		return !t.After(cutoff)
	}
	if !c.AgeFirst && without.Found {
		// The newest version admitted is eligible: nothing newer is
		// held back.
		if i := slices.Index(available, without.Version); i >= 0 && eligible(i) {
			out.EligibleSince = eligibleAt(dates, i, c.MinAge)
			return out, nil
		}
	}
	admitted, err := admittedOnList(p, constraint, available, without)
	if err != nil {
		return CooledSelection{}, err
	}
	if c.AgeFirst {
		var kept []string
		var keptAt []int
		for i, v := range available {
			if eligible(i) {
				kept = append(kept, v)
				keptAt = append(keptAt, i)
			}
		}
		sel, err := Select(p, constraint, kept)
		if err != nil {
			return CooledSelection{}, err
		}
		sel.Unreadable = without.Unreadable
		out.Selection = sel
		if sel.Found {
			for j, v := range kept {
				if v == sel.Version {
					out.EligibleSince = eligibleAt(dates, keptAt[j], c.MinAge)
					break
				}
			}
		}
	} else if pairwise(p) {
		var kept []string
		var keptAt []int
		for i, v := range available {
			if admitted[i] && eligible(i) {
				kept = append(kept, v)
				keptAt = append(keptAt, i)
			}
		}
		sel, err := Select(p, constraint, kept)
		if err != nil {
			return CooledSelection{}, err
		}
		out.Selection = Selection{Found: sel.Found, Version: sel.Version, Unreadable: without.Unreadable}
		if sel.Found {
			out.EligibleSince = eligibleAt(dates, keptAt[slices.Index(kept, sel.Version)], c.MinAge)
		}
	} else {
		best, bestAt := Version{}, -1
		for i, v := range available {
			if !admitted[i] || !eligible(i) {
				continue
			}
			pv, ok := orderable(v)
			if ok && (bestAt < 0 || best.Compare(pv) < 0) {
				best, bestAt = pv, i
			}
		}
		out.Selection = Selection{Unreadable: without.Unreadable}
		if bestAt >= 0 {
			out.Found, out.Version = true, available[bestAt]
			out.EligibleSince = eligibleAt(dates, bestAt, c.MinAge)
		}
	}
	out.HeldBack = heldBack(available, dates, admitted, eligible, out.Selection, c.MinAge)
	return out, nil
}

// pairwise reports whether p's rule is pairwise: no Selector, or a
// PairwiseSelector.
func pairwise(p Policy) bool {
	if _, ok := p.(PairwiseSelector); ok {
		return true
	}
	_, ok := p.(Selector)
	return !ok
}

// eligibleAt is the date the i-th version became eligible, nil when it
// has none.
func eligibleAt(dates Dates, i int, minAge time.Duration) *time.Time {
	t, ok := dates.At(i)
	if !ok {
		return nil
	}
	e := t.Add(minAge).UTC()
	return &e
}

// heldBack lists the admitted versions newer than sel that are not
// eligible, newest first.
func heldBack(available []string, dates Dates, admitted []bool, eligible func(int) bool, sel Selection, minAge time.Duration) []HeldBack {
	var floor Version
	hasFloor := false
	if sel.Found {
		floor, hasFloor = orderable(sel.Version)
	}
	type held struct {
		v  Version
		hb HeldBack
	}
	var hs []held
	for i, text := range available {
		if !admitted[i] || eligible(i) {
			continue
		}
		v, ok := orderable(text)
		if !ok || hasFloor && v.Compare(floor) <= 0 {
			continue
		}
		hb := HeldBack{Version: text}
		if t, ok := dates.At(i); ok {
			p := t.UTC()
			hb.PublishedAt = &p
			hb.EligibleAt = eligibleAt(dates, i, minAge)
		}
		hs = append(hs, held{v, hb})
	}
	slices.SortStableFunc(hs, func(a, b held) int { return b.v.Compare(a.v) })
	out := make([]HeldBack, len(hs))
	for i, h := range hs {
		out[i] = h.hb
	}
	return out
}

// orderable reads a version for ordering, as selectNewest does.
func orderable(text string) (Version, bool) {
	if v, err := ParseVersion(text); err == nil {
		return v, true
	}
	if v, err := ParseMultipartVersion(text); err == nil {
		return v, true
	}
	return Version{}, false
}

// admittedOnList returns which versions of available p admits given the
// whole list. A policy that judges pair by pair admits what its Matcher
// allows. An Admitter says itself. Any other Selector admits what it
// selects and, below it, what its Matcher allows, but no prerelease when
// it selects a release: a rule that prefers a release on the whole list
// is not made to fall back to a prerelease by the cooldown.
func admittedOnList(p Policy, constraint string, available []string, without Selection) ([]bool, error) {
	out := make([]bool, len(available))
	if a, ok := p.(Admitter); ok {
		got, err := a.Admitted(constraint, available)
		if err != nil {
			return nil, err
		}
		if len(got) != len(available) {
			return nil, fmt.Errorf("policy %q: Admitted answered for %d versions of %d", p.Name(), len(got), len(available))
		}
		return got, nil
	}
	m, err := compile(p, constraint)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(available))
	if bm, ok := m.(BatchMatcher); ok {
		bm.MatchAll(available, results)
	} else {
		for i, v := range available {
			results[i] = m.Match(v)
		}
	}
	for i := range available {
		out[i] = results[i].Verdict == Allow
	}
	if pairwise(p) {
		return out, nil
	}
	if !without.Found {
		clear(out)
		return out, nil
	}
	top, ok := orderable(without.Version)
	for i, text := range available {
		if text == without.Version {
			out[i] = true
			continue
		}
		v, vok := orderable(text)
		if !ok || !vok || v.Compare(top) > 0 || !top.IsPrerelease() && v.IsPrerelease() {
			out[i] = false
		}
	}
	return out, nil
}

// MaxMinAge bounds a minimum age: ten years.
const MaxMinAge = 3650 * 24 * time.Hour

// ParseMinAge reads a minimum age: a whole number of days ("7d") or
// weeks ("2w"), or a Go duration ("72h", "90m", "1h30m"). It must be
// positive ("0" turns the cooldown off) and at most MaxMinAge.
func ParseMinAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if t == "0" || t == "0d" {
		return 0, nil
	}
	var d time.Duration
	if n, unit := t[:max(len(t)-1, 0)], t[max(len(t)-1, 0):]; (unit == "d" || unit == "w") && n != "" && strings.Trim(n, "0123456789") == "" {
		k, err := strconv.ParseUint(n, 10, 32)
		if err != nil || k > uint64(MaxMinAge/(24*time.Hour)) {
			return 0, fmt.Errorf("minimum age %q: at most %d days", s, MaxMinAge/(24*time.Hour))
		}
		d = time.Duration(k) * 24 * time.Hour
		if unit == "w" {
			d *= 7
		}
	} else {
		var err error
		d, err = time.ParseDuration(t)
		if err != nil {
			return 0, fmt.Errorf("minimum age %q: expected days (\"7d\"), weeks (\"2w\") or a duration (\"72h\")", s)
		}
	}
	switch {
	case d < 0:
		return 0, fmt.Errorf("minimum age %q is negative", s)
	case d > MaxMinAge:
		return 0, fmt.Errorf("minimum age %q: at most %d days", s, MaxMinAge/(24*time.Hour))
	}
	return d, nil
}

// FormatMinAge writes a minimum age as ParseMinAge reads it: whole days
// as "7d", anything else as a Go duration.
func FormatMinAge(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

// ErrBadNow is wrapped by ParseNow's errors.
var ErrBadNow = errors.New("expected an RFC 3339 time such as 2026-03-01T12:00:00Z")

// ParseNow reads the time a cooldown counts ages at: RFC 3339, or a
// date alone (midnight UTC).
func ParseNow(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, strings.TrimSpace(s)); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, strings.TrimSpace(s)); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("time %q: %w", s, ErrBadNow)
}
