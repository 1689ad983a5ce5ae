package main

import (
	"time"

	"github.com/prerel/prerel/compare/age"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve/policyconfig"
)

// cooldownFlags are --min-age, --now and --allow-undated: a minimum
// release age stacked on every selection (engine.Cooldown).
type cooldownFlags struct {
	minAge       minAge
	now          time.Time
	allowUndated bool
}

// addCooldownFlags defines the cooldown flags on fs.
func addCooldownFlags(fs *flagSet) *cooldownFlags {
	f := &cooldownFlags{}
	fs.Var(&valueFlag[minAge]{&f.minAge, "AGE", parseMinAge, minAge.String}, "min-age", "hold back versions younger than `AGE` (7d, 72h), after the policy has\ndecided on the whole list; an exact pin is exempt (overrides min_age)")
	fs.Var(&valueFlag[time.Time]{&f.now, "TIME", parseNow, formatNow}, "now", "count ages at `TIME` (RFC 3339, such as 2026-03-01T12:00:00Z) rather\nthan now, so that a run can be repeated")
	fs.BoolVar(&f.allowUndated, "allow-undated", false, "let a version without a publication date through the minimum age,\nwhich holds it back otherwise (overrides allow_undated)")
	return f
}

// overrides puts the flags in o, over the file's top-level settings.
func (f *cooldownFlags) overrides(o *policyconfig.Overrides) {
	if f.minAge.set {
		o.MinAge, o.MinAgeFlag = &f.minAge.d, "--min-age "+f.minAge.text
	}
	if f.allowUndated {
		o.AllowUndatedFlag = "--allow-undated"
	}
}

// cooldown returns the cooldown the flags give alone, counted at --now
// or the time of the call.
func (f *cooldownFlags) cooldown() engine.Cooldown {
	now := f.now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	return engine.Cooldown{MinAge: f.minAge.d, Now: now, AllowUndated: f.allowUndated}
}

// minAge is a minimum age, as --min-age gives it (engine.ParseMinAge):
// the duration, the flag's text, and whether it was set.
type minAge struct {
	d    time.Duration
	text string
	set  bool
}

func parseMinAge(s string) (minAge, error) {
	d, err := engine.ParseMinAge(s)
	return minAge{d, s, true}, err
}

// String is the text of the flag, "" when it was not set.
func (a minAge) String() string { return a.text }

// parseNow reads --now (engine.ParseNow), in UTC.
func parseNow(s string) (time.Time, error) {
	t, err := engine.ParseNow(s)
	return t.UTC(), err
}

// formatNow shows --now, "" when it was not given.
func formatNow(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// addCompareMinAge defines compare's --min-age, of --domain ages.
func addCompareMinAge(fs *flagSet) *minAge {
	f := &minAge{d: 7 * 24 * time.Hour, text: "7d", set: true}
	fs.Var(&valueFlag[minAge]{f, "AGE", parseMinAge, minAge.String}, "min-age", "ages domain: the minimum release `AGE` (7d, 72h) both orders hold\nyoung versions back by (default 7d)")
	return f
}

// compareAges runs the age dimension: every policy under the minimum age
// in both orders on the dated domain, the classes where the order
// changes the selection with their smallest witness.
func compareAges(e *env, fs *flagSet, ps []engine.Policy, minAge *minAge, format report.Format, all bool) (output, error) {
	if set := given(fs, "shard", "baseline", "write-baseline", "reference", "rank"); len(set) > 0 {
		return output{}, usagef("%s does not apply to --domain ages", set[0])
	}
	if minAge.d <= 0 {
		return output{}, usagef("--min-age must be positive for --domain ages")
	}
	if !age.Formats.Has(format) {
		return output{}, usagef("--domain ages writes %s, not %s", age.Formats, format)
	}
	r, err := age.Run(age.Exhaustive(), ps, minAge.d)
	if err != nil {
		return output{}, failure(err)
	}
	return rendered(age.Render, format, r, renderOptions(all), nil), nil
}

// selectCooled is prerel select under a minimum age: the versions, as
// arguments or in the versions file, may carry their date after "@".
func selectCooled(e *env, cool *cooldownFlags, names policyList, constraint string, args []string, file string, format report.Format, showAll bool) (output, error) {
	if format == report.HTML {
		return output{}, usagef("--min-age writes text or json, not html")
	}
	versions, dates, err := report.SplitDated(args)
	if err != nil {
		return output{}, usage(err)
	}
	if file != "" {
		lines, err := readVersionsFile(file)
		if err != nil {
			return output{}, err
		}
		more, moreDates, err := report.SplitDated(lines)
		if err != nil {
			return output{}, usage(err)
		}
		versions, dates = append(versions, more...), append(dates, moreDates...)
	}
	if err := usage(engine.CheckParses(constraint, versions[:len(args)])); err != nil {
		return output{}, err
	}
	if len(versions) == 0 {
		return output{}, usagef("select needs versions: as arguments or with --versions-file")
	}
	ps, err := e.resolve(names)
	if err != nil {
		return output{}, err
	}
	rep := report.NewCooledSelectReport(ps, constraint, versions, dates, cool.cooldown())
	return rendered(report.Select, format, report.Selection{Report: rep}, renderOptions(showAll), nil), nil
}

// impactCooldown is impact's --min-age: P's selections under it, where
// the domain's histories have dates (a directory domain whose versions
// come from an index file with published_at); the corpus has none.
func impactCooldown(cool *cooldownFlags, d *impact.Domain, simulate bool) (engine.Cooldown, error) {
	if !cool.minAge.set || cool.minAge.d <= 0 {
		return engine.Cooldown{}, nil
	}
	if simulate {
		return engine.Cooldown{}, usagef("--min-age cannot be used with --simulate-prereleases: a simulated version has no date")
	}
	if d.Dated() {
		return cool.cooldown(), nil
	}
	return engine.Cooldown{}, usagef("--min-age: no history of the %s domain has dates (the corpus records none; an --index file with published_at does)", d.Name)
}
