package resolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/notes"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry"
)

// renderJSON writes r as indented JSON: an object with "schema"
// (SchemaVersion), "dir",
// "versions_from", "config_file", "manifest_file", "default_policy",
// "default_policy_from", "installers" (the releases emulated, such as
// "terraform@1.15.9"), "extra_policies", "modules_read", "items",
// "unread", "skipped", "lock_file", "locks" and "warnings". Each item
// holds "kind" ("module" or "provider"), "name" (a module call's call
// path, a provider's local name), "source", "address", "constraint" (for
// a provider, every requirement joined with ", "), "requirements" (each
// with "module", "constraint" and "pos"), "pos", "policy" (the chosen
// one), "policy_from", "selected" (a version string or null),
// "terraform_policy" and "opentofu_policy" (the by_policy keys of today's
// installers), "by_policy" (policy name → version string or null, for the
// chosen policy, today's Terraform and OpenTofu, and each extra policy),
// "changes_terraform", "changes_opentofu", "status" ("ok", "unsatisfied"
// or "error"), "problem", "available", "newest", "refused", "unreadable",
// "today_errors" (each with "installer" and "error"), "from", "none_today" (when today's Terraform selects no version: "why",
// "selects" and "pin", as the text report's list says), "no_match" (when
// the chosen policy selects no version: "why", "rule", "wanted",
// "policies" (policy name → the wanted version it selects), "constraints"
// and "did_you_mean" (each with "constraint", "module" for a provider's
// requirement, "selects" and "note"); see NoMatch) and
// "new_major_prerelease" (the policies that select a prerelease of a new
// major); under a minimum release age, "cooldown" ("min_age",
// "min_age_from", "allow_undated", "exempt", "without", "changed",
// "eligible_since", "dates_from", "dates_note") and "held_back" (each
// with "version", "published_at" and "eligible_at"), and the report's
// "cooldown" ("now", "changed", "no_dates"). The characters < > & are written as they are; control
// characters are escaped as JSON escapes them; URL credentials are
// replaced as Run replaces them. A nil report is an error.
func renderJSON(w io.Writer, r *Report) error {
	if r == nil {
		return errNilReport
	}
	r = r.redacted()
	for i := range r.Items {
		it := &r.Items[i]
		if it.WhyNoneToday == nil {
			it.WhyNoneToday = it.NoneToday()
		}
		if it.NewMajor == nil {
			it.NewMajor = it.newMajorPolicies(r.Extra)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// errNilReport is what the renderers return for a nil report.
var errNilReport = errors.New("resolve: no report to render (nil)")

// cell is what a table shows for one policy of an item.
func (it *Item) cell(policy string) string {
	switch {
	case it.Status == StatusError:
		return "error"
	case it.Refused[policy] != "":
		return "invalid"
	case it.ByPolicy[policy] == nil:
		return "none"
	default:
		return *it.ByPolicy[policy]
	}
}

// where is an item's or entry's place for a message: "(FILE:LINE:COL)",
// or "(implied)".
func where(pos string) string {
	if pos == "" {
		return "(implied)"
	}
	return "(" + pos + ")"
}

// Formats are the formats of the report, the default first: those
// Render writes.
var Formats = report.Formats{report.Text, report.Markdown, report.JSON, report.SARIF}

// Render writes r in format f: report.Text for a terminal,
// report.Markdown for a pull request or a CI step summary, report.JSON
// for programs, report.SARIF for code scanning (the findings alone, see
// Report.SARIF). Unless opts.ShowAll, the text and Markdown reports cut
// long lists: each list after the table shows 10 lines, a grouped problem
// names 6 items, an item's unreadable versions 2 examples, the edits that
// make the chosen policy select a version 2 and the policies that select
// it 6 (each with a count of the rest), and the report ends with a count
// of what it left out and opts.Hints.ShowAll. A nil report is an error.
func Render(w io.Writer, f report.Format, r *Report, opts report.Options) error {
	switch f {
	case report.Text:
		return renderText(w, r, opts)
	case report.Markdown:
		return renderMarkdown(w, r, opts)
	case report.JSON:
		return renderJSON(w, r)
	case report.SARIF:
		if r == nil {
			return errNilReport
		}
		return sarif.Write(w, sarif.Log{Rules: SARIFRules, Results: r.redacted().SARIF()})
	}
	return &report.UnsupportedError{Report: "resolve", Format: f}
}

// section is one titled list that follows the table.
type section struct {
	title string
	lines []string
	// subs, when not nil, holds the lines under each of lines.
	subs [][]string
	// one and many name what a line stands for when lines are cut:
	// "line", "lines" unless set.
	one, many string
	// glue keeps short quoted texts on one line where the lines are
	// wrapped; in Markdown the lines are wrapped too (see wrapMarkdown).
	glue bool
	// keep is how many of the first lines are never cut: the ones the
	// section is for.
	keep int
}

// ProblemGroup is the items that share one problem.
type ProblemGroup struct {
	// Problem is the problem as the group's lines show it: the item's
	// Problem for a group of one; for a larger group, the problem the
	// items share, without the "module ADDRESS: " that a lookup error
	// starts with.
	Problem string
	Items   []*Item
}

// sharedProblem is an item's problem without the "KIND ADDRESS: " a
// lookup error starts with, so that the same registry error for two
// modules reads the same.
func (it *Item) sharedProblem() string {
	rest, ok := strings.CutPrefix(it.Problem, string(it.Kind)+" ")
	if !ok {
		return it.Problem
	}
	addr, problem, ok := strings.Cut(rest, ": ")
	if !ok || addr == "" || strings.ContainsAny(addr, " \t") {
		return it.Problem
	}
	return problem
}

// ProblemGroups groups the items that have a problem and the given
// status (any status when status is ""), as GroupProblems does, the
// items whose problems are the same but for the address a lookup error
// names in one group. A nil report has none.
func (r *Report) ProblemGroups(status Status) []ProblemGroup {
	if r == nil {
		return nil
	}
	var items []*Item
	for i := range r.Items {
		it := &r.Items[i]
		if it.Problem != "" && (status == "" || it.Status == status) {
			items = append(items, it)
		}
	}
	return GroupProblems(items, (*Item).sharedProblem)
}

// GroupProblems groups items, in the order of their first item; the
// items keep their order. The items whose lookups one host failed with
// server errors or 429 (registry.HostError), which read differently
// when some were retried and others not, are one group per host whose
// Problem sums them up (registry.HostFailures), when there are several.
// The other items are grouped by key, each in a group of its own when
// key is nil.
func GroupProblems(items []*Item, key func(*Item) string) []ProblemGroup {
	return groupProblems(items, key, false)
}

// GroupHostProblems groups items as GroupProblems does, and also the
// items whose lookups got no answer because their host could not be
// reached (registry.UnreachableError: a name that does not resolve, a
// connection refused or broken, a timeout), decided by the error's
// type: one group per unreachable host, when it failed several items,
// whose Problem sums them up (UnreachableFailures). Other problems, such
// as a module missing from an index, are grouped by key as before.
func GroupHostProblems(items []*Item, key func(*Item) string) []ProblemGroup {
	return groupProblems(items, key, true)
}

// hostFailure is the failure of an item's lookup that a group of its
// host sums up: a server error, or when unreachable counts, a host that
// could not be reached.
type hostFailure struct {
	key    string // the group's key: no problem text starts so
	status *registry.StatusError
	down   *registry.UnreachableError
}

func hostFailureOf(it *Item, unreachable bool) (hostFailure, bool) {
	if se, ok := registry.HostError(it.err); ok {
		return hostFailure{key: "\x00host " + se.Host, status: se}, true
	}
	var ue *registry.UnreachableError
	if unreachable && errors.As(it.err, &ue) {
		return hostFailure{key: "\x00unreachable " + ue.Host, down: ue}, true
	}
	return hostFailure{}, false
}

func groupProblems(items []*Item, key func(*Item) string, unreachable bool) []ProblemGroup {
	// How many items each host failed.
	failed := map[string]int{}
	for _, it := range items {
		if hf, ok := hostFailureOf(it, unreachable); ok {
			failed[hf.key]++
		}
	}
	var groups []ProblemGroup
	var hostErrs [][]hostFailure // of each group summed up by host
	index := map[string]int{}
	for i, it := range items {
		hf, byHost := hostFailureOf(it, unreachable)
		byHost = byHost && failed[hf.key] > 1
		var k string
		switch {
		case byHost:
			k = hf.key
		case key != nil:
			k = key(it)
		default:
			k = "\x00item " + strconv.Itoa(i)
		}
		g, ok := index[k]
		if !ok {
			g = len(groups)
			index[k] = g
			groups = append(groups, ProblemGroup{Problem: k})
			hostErrs = append(hostErrs, nil)
		}
		groups[g].Items = append(groups[g].Items, it)
		if byHost {
			hostErrs[g] = append(hostErrs[g], hf)
		}
	}
	for g := range groups {
		switch errs := hostErrs[g]; {
		case errs != nil && errs[0].status != nil:
			statuses := make([]*registry.StatusError, len(errs))
			for i, hf := range errs {
				statuses[i] = hf.status
			}
			groups[g].Problem = registry.HostFailures(statuses)
		case errs != nil:
			downs := make([]*registry.UnreachableError, len(errs))
			for i, hf := range errs {
				downs[i] = hf.down
			}
			groups[g].Problem = UnreachableFailures(downs)
		case len(groups[g].Items) == 1:
			groups[g].Problem = groups[g].Items[0].Problem
		}
	}
	return groups
}

// UnreachableFailures sums up in one line the lookups that could not
// reach one host, given their errors (all of one host, in the order of
// the lookups; an error shared by several lookups, such as the host's
// service discovery, may be given once or more): the host, why it could
// not be reached (registry.UnreachableError.Cause, each cause once) and
// the lookups, one of them as an example:
//
//	registry.example.com could not be reached (connection refused) by
//	12 lookups, such as GET /v1/modules/ns/a/aws/versions
//
// (one line), or with one lookup "...: GET /.well-known/terraform.json".
// Every text from the errors is escaped by printable.String.
func UnreachableFailures(errs []*registry.UnreachableError) string {
	if len(errs) == 0 {
		return ""
	}
	var causes, urls []string
	for _, e := range errs {
		if c := e.Cause(); !slices.Contains(causes, c) {
			causes = append(causes, c)
		}
		if !slices.Contains(urls, e.URL) {
			urls = append(urls, e.URL)
		}
	}
	s := fmt.Sprintf("%s could not be reached (%s)", printable.String(errs[0].Host), strings.Join(causes, " or "))
	if len(urls) == 1 {
		return s + ": GET " + lookupPath(urls[0])
	}
	return fmt.Sprintf("%s by %d lookups, such as GET %s", s, len(urls), lookupPath(urls[0]))
}

// lookupPath is the path of a lookup's URL, escaped for a message; the
// URL itself when it has none.
func lookupPath(s string) string {
	if u, err := url.Parse(s); err == nil && u.Path != "" {
		return printable.String(u.EscapedPath())
	}
	return printable.String(s)
}

// Names names the group's items, consecutive items of a kind after one
// kind word: "modules consul, eks; provider helm". At most max items are
// named (all when max <= 0), the rest counted: "... and 5 more"; the
// second result is how many were left out. code formats a name.
func (g ProblemGroup) Names(max int, code func(string) string) (string, int) {
	shown := g.Items
	if max > 0 && len(shown) > max {
		shown = shown[:max]
	}
	var parts []string
	for i := 0; i < len(shown); {
		j := i
		var names []string
		for ; j < len(shown) && shown[j].Kind == shown[i].Kind; j++ {
			names = append(names, code(shown[j].Name))
		}
		kind := string(shown[i].Kind)
		if len(names) > 1 {
			kind += "s"
		}
		parts = append(parts, kind+" "+strings.Join(names, ", "))
		i = j
	}
	out := strings.Join(parts, "; ")
	left := len(g.Items) - len(shown)
	if left > 0 {
		out += fmt.Sprintf(" and %d more", left)
	}
	return out, left
}

// unreadableLines are an item's versions some policies cannot read, one
// line per set of policies: `provider google: 3.23 by strict`, or with
// more versions than notes.MaxExamples, `v2.0.1, v2.0.0 and 130 more by
// apparentlymart, apparentlymart-exact`, the versions some policy
// selects first, then the newest.
func (it *Item) unreadableLines(code, text func(string) string, opt report.Options, omitted *notes.Omitted) []string {
	var ns []notes.Note
	for _, u := range it.Unreadable {
		for _, p := range u.Policies {
			ns = append(ns, notes.Note{Policy: p, Subject: u.Version})
		}
	}
	var selected []string
	for _, p := range it.columns {
		if v := it.ByPolicy[p]; v != nil {
			selected = append(selected, *v)
		}
	}
	var lines []string
	// Ordered by the first version of each group, as listed.
	for _, g := range sortByFirst(notes.GroupNotes(ns), it.Unreadable) {
		versions := g.Subjects
		left := 0
		if !opt.ShowAll && len(versions) > notes.MaxExamples {
			left = len(versions) - notes.MaxExamples
			versions = notes.Relevant(versions, selected...)[:notes.MaxExamples]
		}
		quoted := make([]string, len(versions))
		for i, v := range versions {
			quoted[i] = code(visibleVersion(v))
		}
		list := strings.Join(quoted, ", ")
		if left > 0 {
			list += fmt.Sprintf(" and %d more", left)
			omitted.Add(left, "version", "versions")
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s by %s", it.Kind, code(it.Name), list, text(strings.Join(g.Policies, ", "))))
	}
	return lines
}

// visibleVersion quotes a listed version that would not be seen as it
// is in a list: empty, or starting or ending with a space.
func visibleVersion(v string) string {
	if v == "" || strings.TrimSpace(v) != v {
		return strconv.Quote(v)
	}
	return v
}

// sortByFirst orders groups by where their first version is listed.
func sortByFirst(gs []notes.Group, listed []Unreadable) []notes.Group {
	at := map[string]int{}
	for i, u := range listed {
		at[u.Version] = i
	}
	slices.SortStableFunc(gs, func(a, b notes.Group) int { return at[a.Subjects[0]] - at[b.Subjects[0]] })
	return gs
}

// sections returns the lists that follow the table, in order, each
// line built by the given functions for the output format. Without
// opt.ShowAll long lists are cut, and omitted counts what was left out.
func (r *Report) sections(code, quote, text func(string) string, opt report.Options, omitted *notes.Omitted) []section {
	var out []section
	if r.Readers != nil {
		// Asked for: first.
		out = append(out, r.readersSection(code, text))
	}
	if s := r.noMatchSection(code, quote, text, opt, omitted); len(s.lines) > 0 {
		out = append(out, s)
	}
	if pinned := r.pinnedSection(code, text); len(pinned.lines) > 0 {
		out = append(out, pinned)
	}
	none := section{title: "Why Terraform selects no version today"}
	for i := range r.Items {
		it := &r.Items[i]
		n := it.NoneToday()
		if n == nil {
			continue
		}
		line := fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(where(it.Pos)), text(n.Why))
		if len(n.Selects) > 0 {
			line += "; " + text(strings.Join(n.Selects, ", "))
		}
		if n.Pin != "" {
			line += "; pin: " + text(n.Pin) + " (prerel pin writes it)"
		}
		none.lines = append(none.lines, line)
	}
	if len(none.lines) > 0 {
		out = append(out, none)
	}
	if len(r.Unread) > 0 {
		s := section{title: "Modules not read (their module calls and providers are not shown)"}
		for _, u := range r.Unread {
			s.lines = append(s.lines, fmt.Sprintf("%s %s: %s: %s", code(u.Module), text(where(u.Pos)), code(u.Source), text(u.Reason)))
		}
		out = append(out, s)
	}
	if len(r.Skipped) > 0 {
		s := section{title: "Skipped (no version to select)"}
		for _, k := range r.Skipped {
			s.lines = append(s.lines, fmt.Sprintf("%s %s %s: %s: %s", k.Kind, code(k.Name), text(where(k.Pos)), code(k.Source), text(k.Reason)))
		}
		out = append(out, s)
	}
	if r.LockFile != "" {
		s := section{title: "Lock file " + code(r.LockFile)}
		if len(r.Locks) == 0 {
			s.lines = append(s.lines, "no providers locked")
		}
		for _, l := range r.Locks {
			s.lines = append(s.lines, text(l.text()))
		}
		out = append(out, s)
	}
	if r.Updater != nil {
		out = append(out, r.updaterSection(code, text))
	}

	var problems section
	problems.title = "Problems"
	for _, g := range r.ProblemGroups("") {
		if len(g.Items) == 1 {
			it := g.Items[0]
			problems.lines = append(problems.lines, fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(where(it.Pos)), text(it.Problem)))
			continue
		}
		max := notes.MaxNames
		if opt.ShowAll {
			max = 0
		}
		names, left := g.Names(max, code)
		omitted.Add(left, "item", "items")
		problems.lines = append(problems.lines, fmt.Sprintf("%s (%d items): %s", names, len(g.Items), text(g.Problem)))
	}
	if len(problems.lines) > 0 {
		out = append(out, problems)
	}
	if lines := r.todayErrorLines(code, text); len(lines) > 0 {
		out = append(out, section{title: "Errors init gives today", lines: lines})
	}
	var unreadable section
	unreadable.title = "Listed versions some policies cannot read (never selected by them)"
	for i := range r.Items {
		unreadable.lines = append(unreadable.lines, r.Items[i].unreadableLines(code, text, opt, omitted)...)
	}
	if len(unreadable.lines) > 0 {
		out = append(out, unreadable)
	}
	if len(r.Warnings) > 0 {
		s := section{title: "Warnings"}
		for _, w := range r.Warnings {
			s.lines = append(s.lines, text(w))
		}
		out = append(out, s)
	}
	if !opt.ShowAll {
		for i := range out {
			max := max(notes.MaxLines, out[i].keep)
			if left := len(out[i].lines) - max; left > 0 {
				out[i].lines = append(out[i].lines[:max], fmt.Sprintf("and %d more", left))
				if out[i].subs != nil {
					out[i].subs = append(out[i].subs[:max], nil)
				}
				one, many := out[i].one, out[i].many
				if one == "" {
					one, many = "line", "lines"
				}
				omitted.Add(left, one, many)
			}
		}
	}
	return out
}

// quoteConstraint quotes a constraint for the text report, as Go quotes
// a string, so that its spaces and commas read as one and no control
// character reaches the terminal.
func quoteConstraint(s string) string { return printable.String(strconv.Quote(s)) }

// leftOut is the last line of a report that cut something, "" when it
// cut nothing; code formats opt.Hints.ShowAll.
func leftOut(omitted *notes.Omitted, code func(string) string, opt report.Options) string {
	if !omitted.Any() {
		return ""
	}
	if opt.Hints.ShowAll == "" {
		return fmt.Sprintf("%s left out", omitted)
	}
	return fmt.Sprintf("%s left out; %s lists them", omitted, code(opt.Hints.ShowAll))
}

// renderText writes r for a terminal, in textWidth columns unless
// opt.ShowAll: a header, then one line per module call and one per
// provider: its name, its constraint in short (see BriefConstraint),
// today's Terraform's selection and the chosen policy's, marked with "*"
// where they differ (and a line that says what "*" means when a row is
// marked). Under a row, in words, each extra policy that selects another
// version than today and any policy that selects a prerelease of a new
// major; with opt.ShowAll, every module's constraint with its place.
// Then, first, why each item's chosen policy selects no version and what
// would (see NoMatch; the items alike in one entry), why today's
// Terraform selects none (see NoneToday), the modules not read, the
// skipped sources, the lock file check, the problems (the items that
// share one named on one line), the versions some policies cannot read
// and the warnings, each line wrapped at textWidth, and last what was
// left out, if anything (see Render).
// Every text the report holds is written as printable.String writes it,
// so that no control character reaches the terminal, and URL credentials
// are replaced as Run replaces them. A nil report is an error.
func renderText(w io.Writer, r *Report, opt report.Options) error {
	if r == nil {
		return errNilReport
	}
	r = r.redacted()
	quote := printable.String
	var b strings.Builder
	fmt.Fprintf(&b, "root module:    %s (%s read)\n", quote(r.Dir), plural.Of(len(r.Modules), "module", "modules"))
	fmt.Fprintf(&b, "versions from:  %s\n", quote(r.VersionsFrom))
	fmt.Fprintf(&b, "default policy: %s (%s)\n", quote(r.DefaultPolicy), quote(r.DefaultFrom))
	if len(r.Extra) > 0 {
		for _, l := range wrapText("extra policies: "+quote(strings.Join(r.Extra, ", ")), 0, 16) {
			fmt.Fprintf(&b, "%s\n", l)
		}
	}
	fmt.Fprintf(&b, "today:          %s\n\n", quote(r.installersLine()))
	if r.Cooldown != nil {
		fmt.Fprintf(&b, "%s:\n", r.cooldownTitle())
		for _, l := range r.cooldownLines(quote, quote) {
			for _, line := range wrapText(l, 2, 4) {
				fmt.Fprintf(&b, "%s\n", line)
			}
		}
		b.WriteString("\n")
	}
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		cut := r.textTable(&b, opt)
		var legend []string
		if r.Marked() {
			legend = append(legend, "* the chosen policy selects another version than Terraform or OpenTofu today")
		}
		if r.Cooldown != nil && len(r.Cooldown.Changed) > 0 {
			legend = append(legend, "(cooldown): the minimum age holds a newer version back (listed above)")
		}
		if len(r.Extra) > 0 {
			legend = append(legend, "Under a row: each extra policy that selects another version than today, with what it selects.")
		}
		if !opt.ShowAll && (cut || r.shortened()) {
			l := "A provider's constraint: its binding bounds (the module whose bound binds; how many modules require it)"
			if cut {
				l = "Constraints cut with … to fit. " + l
			}
			if opt.Hints.ShowAll != "" {
				l += "; " + opt.Hints.ShowAll + " lists every module's constraint"
			}
			legend = append(legend, l+".")
		}
		if len(legend) > 0 {
			b.WriteString("\n")
		}
		for _, l := range legend {
			for _, line := range wrapText(l, 0, 2) {
				fmt.Fprintf(&b, "%s\n", line)
			}
		}
	}
	var omitted notes.Omitted
	for _, s := range r.sections(quote, quoteConstraint, quote, opt, &omitted) {
		fmt.Fprintf(&b, "\n%s:\n", s.title)
		wrap := wrapText
		if s.glue {
			wrap = wrapGlued
		}
		for i, l := range s.lines {
			for _, line := range wrap(l, 2, 4) {
				fmt.Fprintf(&b, "%s\n", line)
			}
			if s.subs == nil {
				continue
			}
			for _, sub := range s.subs[i] {
				for _, line := range wrap(sub, 4, 6) {
					fmt.Fprintf(&b, "%s\n", line)
				}
			}
		}
	}
	if l := leftOut(&omitted, quote, opt); l != "" {
		b.WriteString("\n")
		for _, line := range wrapText(l, 0, 2) {
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shortened reports whether the table shows some provider's constraint
// in short: several modules require it.
func (r *Report) shortened() bool {
	for i := range r.Items {
		if r.Items[i].Kind == KindProvider && len(r.Items[i].Requirements) > 1 {
			return true
		}
	}
	return false
}

// textRow is one line of the text table and the lines under it.
type textRow struct {
	cells [5]string // mark, name, constraint, today, selects
	under []string
}

// textTable writes the items as aligned tables, module calls first,
// then providers, each with its heading and its own column widths, every
// cell as printable.String writes it, so that no tab or line break in a
// value can shift the columns. Unless opt.ShowAll, the name and
// constraint cells are cut to fit textWidth; it reports whether it cut
// one.
func (r *Report) textTable(b *strings.Builder, opt report.Options) (cut bool) {
	groups := []struct {
		kind Kind
		head string
		rows []textRow
	}{{KindModule, "MODULE", nil}, {KindProvider, "PROVIDER", nil}}
	for i := range r.Items {
		it := &r.Items[i]
		g := 0
		if it.Kind == KindProvider {
			g = 1
		}
		mark := ""
		if it.Changed() {
			mark = "*"
		}
		row := textRow{cells: [5]string{mark, it.Name, it.BriefConstraint(), it.todayCell(), it.selectsCell(r.DefaultPolicy)}}
		for k := range row.cells {
			row.cells[k] = printable.String(row.cells[k])
		}
		row.under = r.underLines(it, opt)
		groups[g].rows = append(groups[g].rows, row)
	}
	first := true
	for _, g := range groups {
		if len(g.rows) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		head := [5]string{"", g.head, "CONSTRAINT", "TODAY", "SELECTS"}
		widths := [5]int{1}
		for _, row := range append([]textRow{{cells: head}}, g.rows...) {
			for k := 1; k < 5; k++ {
				widths[k] = max(widths[k], width(row.cells[k]))
			}
		}
		if !opt.ShowAll {
			// mark, name, constraint, today, selects, two spaces between.
			total := func() int { return widths[0] + widths[1] + widths[2] + widths[3] + widths[4] + 8 }
			if over := total() - textWidth; over > 0 {
				widths[2] = max(widths[2]-over, width(head[2]), 16)
			}
			if over := total() - textWidth; over > 0 {
				widths[1] = max(widths[1]-over, width(head[1]), 12)
			}
		}
		line := func(cells [5]string) string {
			var l strings.Builder
			for k, c := range cells {
				if k < 4 {
					c = clip(c, widths[k])
					l.WriteString(c + strings.Repeat(" ", widths[k]-width(c)+2))
				} else {
					l.WriteString(c)
				}
			}
			return strings.TrimRight(l.String(), " ")
		}
		fmt.Fprintln(b, line(head))
		for _, row := range g.rows {
			for k := 1; k < 3; k++ {
				cut = cut || width(row.cells[k]) > widths[k]
			}
			fmt.Fprintln(b, line(row.cells))
			for _, u := range row.under {
				for _, l := range wrapText(printable.String(u), 5, 7) {
					fmt.Fprintln(b, l)
				}
			}
		}
	}
	return cut
}

// underLines are the lines the text table writes under an item's row:
// each extra policy that selects another version than today's
// Terraform, the chosen policy when it selects a prerelease of a new
// major, and with opt.ShowAll every requirement with its place.
func (r *Report) underLines(it *Item, opt report.Options) []string {
	var out []string
	today := it.cell(it.TerraformPolicy)
	if nm := it.NewMajorPrerelease(it.Policy); nm != "" {
		out = append(out, it.Policy+": "+nm)
	}
	for _, p := range r.Extra {
		if p == it.Policy || p == it.TerraformPolicy || p == it.OpenTofuPolicy {
			continue
		}
		c := it.cell(p)
		if c == today {
			continue
		}
		if nm := it.NewMajorPrerelease(p); nm != "" {
			out = append(out, p+": "+nm)
		} else {
			out = append(out, fmt.Sprintf("%s: %s (today %s)", p, c, today))
		}
	}
	if opt.ShowAll {
		if it.ConstraintFrom != "" {
			out = append(out, "version "+it.Constraint+" from "+it.ConstraintFrom)
		}
		if it.Kind == KindProvider && len(it.Requirements) > 1 {
			for _, q := range it.Requirements {
				c := q.Constraint
				if c == "" {
					c = "(any)"
				}
				out = append(out, fmt.Sprintf("%s: %s %s", q.Module, c, where(q.Pos)))
			}
		}
	}
	return out
}

// todayText says what today's installer makes of a locked version.
func (l *Lock) todayText() string {
	if l.TerraformVerdict == nil {
		return "not judged"
	}
	switch *l.TerraformVerdict {
	case engine.Allow:
		return "admitted"
	case engine.Reject:
		return "not admitted"
	default:
		return l.TerraformVerdict.String()
	}
}

// text is a lock check in one line.
func (l *Lock) text() string {
	constraint := l.Constraint
	if constraint == "" {
		constraint = "(any)"
	}
	switch {
	case !l.Required:
		return fmt.Sprintf("%s %s: not required by the configuration any more", l.Address, l.Version)
	case l.Admitted():
		return fmt.Sprintf("%s %s: still admitted by %s for %q (Terraform today: %s)", l.Address, l.Version, l.Policy, constraint, l.todayText())
	default:
		return fmt.Sprintf("%s %s: NOT admitted by %s for %q: %s: %s (Terraform today: %s)", l.Address, l.Version, l.Policy, constraint, l.Verdict, l.Reason, l.todayText())
	}
}

// renderMarkdown writes r as Markdown for a pull request or a CI step
// summary: a table with a row per item, its constraint in short (see
// BriefConstraint), rows that change today's selection marked in a first
// column (and a line that says what the mark means when a row is
// marked), an extra policy's cell in bold where it selects another
// version than today's Terraform; then every module's constraint of the
// providers several modules require, with its place, the policies that
// select a prerelease of a new major, in words, and the same lists and
// last line as renderText. Every text the report holds is written as a
// code span with markdown.Code or escaped with markdown.Escape, so that
// none of it can render as a link, an image or HTML, and URL credentials
// are replaced as Run replaces them. A nil report is an error.
func renderMarkdown(w io.Writer, r *Report, opt report.Options) error {
	if r == nil {
		return errNilReport
	}
	r = r.redacted()
	var b strings.Builder
	fmt.Fprintf(&b, "### prerel resolve %s\n\n", markdown.Code(r.Dir))
	fmt.Fprintf(&b, "%s read. Versions from %s. Default policy %s (%s). Today is %s.\n\n", plural.Of(len(r.Modules), "module", "modules"),
		markdown.Code(r.VersionsFrom), markdown.Code(r.DefaultPolicy), markdown.Escape(r.DefaultFrom), markdown.Escape(r.installersLine()))
	if r.Cooldown != nil {
		fmt.Fprintf(&b, "#### %s\n\n", markdown.Escape(r.cooldownTitle()))
		for _, l := range r.cooldownLines(markdown.Code, markdown.Escape) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
		b.WriteString("\n")
	}
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		head := []string{"", "kind", "name", "source", "constraint", "policy", "selects", "Terraform", "OpenTofu"}
		for _, p := range r.Extra {
			head = append(head, markdown.CodeCell(p))
		}
		b.WriteString("| " + strings.Join(head, " | ") + " |\n")
		b.WriteString("|" + strings.Repeat(" --- |", len(head)) + "\n")
		bold := false
		for i := range r.Items {
			it := &r.Items[i]
			mark := ""
			if it.Changed() {
				mark = "**changed**"
			}
			constraint := it.BriefConstraint()
			if it.ConstraintFrom != "" {
				constraint += " from " + it.ConstraintFrom
			}
			row := []string{mark, string(it.Kind), markdown.CodeCell(it.Name), markdown.CodeCell(it.Source), markdown.CodeCell(constraint),
				markdown.CodeCell(it.policyCell()), markdown.CodeCell(it.selectedCell()), markdown.CodeCell(it.releaseCell(it.TerraformPolicy, installer.Terraform)), markdown.CodeCell(it.releaseCell(it.OpenTofuPolicy, installer.OpenTofu))}
			for _, p := range r.Extra {
				c := markdown.CodeCell(it.cell(p))
				if it.cell(p) != it.cell(it.TerraformPolicy) {
					c, bold = "**"+c+"**", true
				}
				row = append(row, c)
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		if r.Marked() {
			b.WriteString("\n**changed**: the chosen policy selects another version than Terraform or OpenTofu does today.\n")
		}
		if bold {
			b.WriteString("\nAn extra policy's version in **bold**: it selects another version than Terraform does today.\n")
		}
		var origins []string
		for i := range r.Items {
			it := &r.Items[i]
			if it.Kind != KindProvider || len(it.Requirements) < 2 {
				continue
			}
			parts := make([]string, len(it.Requirements))
			for k, q := range it.Requirements {
				c := q.Constraint
				if c == "" {
					c = "(any)"
				}
				parts[k] = fmt.Sprintf("  - %s %s %s", markdown.Code(q.Module), markdown.Code(c), markdown.Escape(where(q.Pos)))
			}
			origins = append(origins, fmt.Sprintf("- provider %s (%s):\n%s", markdown.Code(it.Name),
				plural.Of(len(it.Requirements), "module", "modules"), strings.Join(parts, "\n")))
		}
		if len(origins) > 0 {
			b.WriteString("\n#### Each module's constraint on the providers several modules require\n\n")
			b.WriteString(strings.Join(origins, "\n") + "\n")
		}
		var major []string
		for i := range r.Items {
			it := &r.Items[i]
			for _, p := range it.newMajorPolicies(r.Extra) {
				major = append(major, fmt.Sprintf("- %s %s: %s selects %s", it.Kind, markdown.Code(it.Name), markdown.Code(p), markdown.Escape(it.NewMajorPrerelease(p))))
			}
		}
		if len(major) > 0 {
			b.WriteString("\n#### Prereleases of a new major\n\n")
			b.WriteString(strings.Join(major, "\n") + "\n")
		}
	}
	var omitted notes.Omitted
	for _, s := range r.sections(markdown.Code, markdown.Code, markdown.Escape, opt, &omitted) {
		fmt.Fprintf(&b, "\n#### %s\n\n", s.title)
		for i, l := range s.lines {
			if !s.glue {
				fmt.Fprintf(&b, "- %s\n", l)
			} else {
				b.WriteString(strings.Join(wrapMarkdown("- "+l, 0, 2), "\n") + "\n")
			}
			if s.subs == nil {
				continue
			}
			for _, sub := range s.subs[i] {
				if !s.glue {
					fmt.Fprintf(&b, "  - %s\n", sub)
				} else {
					b.WriteString(strings.Join(wrapMarkdown("- "+sub, 2, 4), "\n") + "\n")
				}
			}
		}
	}
	if l := leftOut(&omitted, markdown.Code, opt); l != "" {
		fmt.Fprintf(&b, "\n%s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
