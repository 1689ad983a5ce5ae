package pin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/installer"
)

// Format is a rendering of a Plan: one of the formats of package report,
// which every renderer of prerel shares.
type Format = report.Format

// The formats Render writes; report.HTML is refused.
const (
	Text     = report.Text
	Markdown = report.Markdown
	JSON     = report.JSON
)

// Formats are the formats of a plan's report, the default first.
var Formats = report.Formats{Text, Markdown, JSON}

// CheckFormats are the formats of the report of a check
// (RenderOptions.Checked): Formats, and report.SARIF, the check's
// findings for code scanning.
var CheckFormats = report.Formats{Text, Markdown, JSON, report.SARIF}

// Width is the width of the text and Markdown renderings: no line the
// renderer writes is longer, save one word longer than a line.
const Width = 80

// RenderOptions tunes Render.
type RenderOptions struct {
	// Differences, when Check ran, are shown after the plan.
	Differences []Difference
	// Checked says that Check ran: with no Differences the files are
	// reported up to date.
	Checked bool
	// Failures are what else makes the check fail, one line each: an item
	// with no admissible version, versions that could not be listed.
	Failures []string
	// Only writes the check alone, when there is no plan to show (the
	// versions could not be listed).
	Only bool
	// Contents shows the content of every file to write.
	Contents bool
	// Report is the report the check ran on, for a SARIF rendering of a
	// plan Build did not make (the versions could not be listed).
	Report *resolve.Report
	// Unlocked says that Write removed the plan's lock file entries
	// (WriteOptions.Unlock): the text and Markdown end with them.
	Unlocked bool
}

// Render writes the plan in format (report.SARIF for a check only: the
// findings of Check and of the report the plan was built from, see
// SARIF). It leads with what `init` installs
// now that it did not before, per module; then what cannot be pinned and
// why, the lock file entries to change, and the files. Outside text is
// escaped as in package resolve's reports: control characters in text,
// code spans in Markdown, JSON's escapes in JSON.
func Render(w io.Writer, format Format, p *Plan, opts RenderOptions) error {
	switch format {
	case JSON:
		type out struct {
			*Plan
			Checked     bool         `json:"checked"`
			Differences []Difference `json:"differences"`
			Failures    []string     `json:"failures"`
		}
		d, f := opts.Differences, opts.Failures
		if d == nil {
			d = []Difference{}
		}
		if f == nil {
			f = []string{}
		}
		if p == nil {
			return errNilPlan
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out{p, opts.Checked, d, f})
	case report.SARIF:
		if p == nil {
			return errNilPlan
		}
		if !opts.Checked {
			return &report.UnsupportedError{Report: "pin", Format: format}
		}
		return sarif.Write(w, sarif.Log{Rules: SARIFRules, Results: SARIF(p, opts.Differences, opts.Report)})
	case Text, Markdown:
		if p == nil {
			return errNilPlan
		}
		r := &renderer{md: format == Markdown}
		r.plan(p, opts)
		if opts.Unlocked && len(p.Lock) > 0 {
			item := "  "
			if r.md {
				item = "- "
			}
			fmt.Fprintf(&r.b, "\nRemoved from %s:\n", r.text(p.LockFile))
			for _, l := range p.Lock {
				r.b.WriteString(item + r.text(l.Address) + "\n")
			}
		}
		_, err := io.WriteString(w, r.b.String())
		return err
	}
	return fmt.Errorf("pin: unknown format %q", format)
}

// errNilPlan is what Render returns for a nil plan.
var errNilPlan = errors.New("pin: no plan to render (nil)")

type renderer struct {
	b  strings.Builder
	md bool
}

// text returns outside text to show: escaped for a terminal, or as a
// Markdown code span.
func (r *renderer) text(s string) string {
	if r.md {
		return markdown.Code(s)
	}
	return printable.String(s)
}

// plain returns prerel's own words with outside text in them: escaped
// for a terminal, or escaped as Markdown text.
func (r *renderer) plain(s string) string {
	if r.md {
		return markdown.Escape(s)
	}
	return printable.String(s)
}

// heading writes a heading.
func (r *renderer) heading(s string) {
	if r.md {
		r.line("## " + s)
	} else {
		r.line(s)
	}
	r.b.WriteString("\n")
}

// subheading writes the heading of one module or topic.
func (r *renderer) subheading(s string) {
	if r.md {
		r.line("### " + s)
		r.b.WriteString("\n")
	} else {
		r.line(s)
	}
}

// item writes one entry, wrapped: a list item in Markdown, an indented
// paragraph in text.
func (r *renderer) item(s string) {
	if r.md {
		r.wrap("- ", "  ", s)
	} else {
		r.wrap("  ", "    ", s)
	}
}

// detail writes a line under an item.
func (r *renderer) detail(s string) {
	r.wrap("    ", "    ", s)
}

// line writes s wrapped with no indentation.
func (r *renderer) line(s string) { r.wrap("", "", s) }

// wrap writes s in lines of at most Width columns, the first starting
// with first, the others with rest; a word longer than a line stands
// alone.
func (r *renderer) wrap(first, rest, s string) {
	cur := first
	empty := true
	for _, word := range strings.Fields(s) {
		if !empty && len(cur)+1+len(word) > Width {
			r.b.WriteString(cur + "\n")
			cur, empty = rest, true
		}
		if !empty {
			cur += " "
		}
		cur += word
		empty = false
	}
	r.b.WriteString(cur + "\n")
}

func (r *renderer) blank() { r.b.WriteString("\n") }

// plan writes the whole plan.
func (r *renderer) plan(p *Plan, opts RenderOptions) {
	if opts.Checked {
		r.check(opts)
		if opts.Only {
			return
		}
	}
	if len(p.Unpinned) > 0 {
		r.heading("Not pinned, and why")
		for _, u := range p.Unpinned {
			what := "module." + u.Name
			if u.Kind == resolve.KindProvider {
				what = "provider " + u.Name
			}
			sel := "none"
			if u.Selected != nil {
				sel = *u.Selected
			}
			head := fmt.Sprintf("%s (%s) in %s", r.text(what), r.text(u.Source), r.text(u.Module))
			if u.Pos != "" {
				head += " at " + r.text(u.Pos)
			}
			if u.Selected == nil {
				r.item(head + ", the chosen policy selects none:")
			} else {
				r.item(head + fmt.Sprintf(", the chosen policy selects %s:", r.text(sel)))
			}
			r.detail("why: " + r.plain(u.Reason))
			r.detail("instead: " + r.plain(u.Instead))
		}
		r.blank()
	}
	r.heading("What `init` installs now that it did not before, per module")
	if line := installersLine(p.Installers, p.InstallersFrom); line != "" {
		r.line("Today is " + r.plain(line) + ".")
		r.blank()
	}
	if len(p.Pins) == 0 {
		r.line("Nothing: for every module call and provider, the chosen policy selects what init installs today, or it cannot be pinned.")
		r.blank()
	}
	for i := 0; i < len(p.Pins); {
		j := i
		for j < len(p.Pins) && p.Pins[j].File == p.Pins[i].File {
			j++
		}
		mod := r.text(p.Pins[i].Module)
		if p.Pins[i].Module == resolve.RootModule {
			mod = "The root module"
		}
		r.subheading(fmt.Sprintf("%s, in %s", mod, r.text(p.Pins[i].File)))
		for _, pin := range p.Pins[i:j] {
			what := "module." + pin.Name[strings.LastIndex(pin.Name, ".")+1:]
			if pin.Kind == resolve.KindProvider {
				what = "provider " + pin.Name
			}
			r.item(fmt.Sprintf("%s (%s): %s instead of %s", r.text(what), r.text(pin.Source), r.text(pin.Version), r.text(today(pin))))
			constraint := r.text(quoted(pin.Constraint))
			if pin.ConstraintFrom != "" {
				constraint += " from " + r.text(pin.ConstraintFrom)
			}
			if pin.WantedFrom != "" {
				r.detail(fmt.Sprintf("wanted (%s) for %s", r.text(pin.WantedFrom), constraint))
			} else {
				r.detail(fmt.Sprintf("chosen policy %s (%s) for %s", r.text(pin.Policy), r.text(pin.PolicyFrom), constraint))
			}
			if pin.Why != "" {
				r.detail("why none today: " + r.plain(pin.Why))
			}
			if pin.MinAge != "" {
				r.detail(r.plain(cooldownDetail(pin)))
			}
		}
		r.blank()
		i = j
	}
	if len(p.Warnings) > 0 {
		r.heading("Warnings")
		for _, w := range p.Warnings {
			r.item(r.plain(w))
		}
		r.blank()
	}
	if len(p.Lock) > 0 {
		r.heading("Lock file " + r.text(p.LockFile))
		for _, l := range p.Lock {
			r.item(fmt.Sprintf("%s is locked at %s; the pin asks for %s", r.text(l.Address), r.text(l.Locked), r.text(l.Pinned)))
		}
		r.line(fmt.Sprintf("Run `%s` (or `tofu init -upgrade`), or let prerel remove these provider blocks from the lock file, so that init installs the pinned versions. Removing the pins later needs the same again.", UpgradeCommand))
		if p.LockRefused != "" {
			r.line("prerel will not change the lock file: " + r.plain(p.LockRefused) + ".")
		}
		r.blank()
	}
	r.heading("Files")
	for _, f := range p.Files {
		if f.Via != "" {
			r.item("write " + r.text(f.Rel) + ", reached through the link " + r.text(f.Via))
		} else {
			r.item("write " + r.text(f.Rel))
		}
	}
	for _, s := range p.Stale {
		r.item("remove " + r.text(s) + ": nothing to pin there any more")
	}
	for _, s := range p.Leftovers {
		r.item("remove " + r.text(s) + ": a temporary file a run of prerel pin that was stopped left")
	}
	for _, s := range p.Blocked {
		r.item("not touched: " + r.text(s) + " (prerel did not write it)")
	}
	for _, f := range p.Refused {
		r.item("not touched: " + r.text(f.File) + ": " + r.plain(f.Reason))
	}
	if len(p.Files)+len(p.Stale)+len(p.Leftovers)+len(p.Blocked)+len(p.Refused) == 0 {
		r.item("none")
	}
	if opts.Contents {
		for _, f := range p.Files {
			r.blank()
			r.subheading(r.text(f.Rel))
			r.code(f.Content)
		}
	}
}

// check writes what Check found, first: whether the override files on
// disk are what pin would write, each one that is not with where it
// differs, and what else makes the check fail.
func (r *renderer) check(opts RenderOptions) {
	n := len(opts.Differences) + len(opts.Failures)
	switch {
	case n == 0:
		r.heading("Check: passes")
		r.line("The override files on disk are up to date.")
	case len(opts.Differences) == 0:
		r.heading("Check: fails")
		r.line("The override files on disk are up to date, but:")
	default:
		r.heading("Check: fails")
		r.line(fmt.Sprintf("%d override %s not what prerel pin would write:", len(opts.Differences), map[bool]string{true: "file is", false: "files are"}[len(opts.Differences) == 1]))
	}
	for _, d := range opts.Differences {
		what := d.Kind
		switch d.Kind {
		case "missing":
			what = "missing: pin would write it"
		case "changed":
			what = fmt.Sprintf("changed from line %d", d.Line)
		case "stale":
			what = "stale: pin would remove it"
		case "leftover":
			what = "a temporary file a stopped run left: pin would remove it"
		}
		r.item(r.text(d.File) + ": " + what)
		if d.Diff != "" {
			r.code(d.Diff)
		}
	}
	if len(opts.Differences) > 0 && len(opts.Failures) > 0 {
		r.line("And:")
	}
	for _, f := range opts.Failures {
		r.item(r.plain(f))
	}
	r.blank()
}

// code writes lines of a file or diff as they are, escaped: a fenced
// block in Markdown, indented in text.
func (r *renderer) code(s string) {
	if r.md {
		fence := "```"
		for strings.Contains(s, fence) {
			fence += "`"
		}
		r.b.WriteString(fence + "\n")
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			r.b.WriteString(printable.String(l) + "\n")
		}
		r.b.WriteString(fence + "\n")
		return
	}
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		r.b.WriteString("    " + printable.String(l) + "\n")
	}
}

// installersLine names the releases: "Terraform 1.15.9 and OpenTofu
// 1.12.6".
func installersLine(names, froms []string) string {
	var parts []string
	for i, s := range names {
		if r, err := installer.Parse(s); err == nil {
			s = r.Display()
		}
		if i < len(froms) && froms[i] != "" {
			s += " (" + froms[i] + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// CheckFailures says, one line each, what makes a check of the plan built
// from rep fail besides files that differ (RenderOptions.Failures):
// versions that could not be listed, an item with no admissible version
// under its chosen policy, a locked provider version the chosen policy
// refuses, a pin gone stale by a change of the registry or of time.
func CheckFailures(rep *resolve.Report) []string {
	var out []string
	for _, it := range rep.Errors() {
		out = append(out, fmt.Sprintf("the versions of %s %s (%s) could not be listed: %s", it.Kind, it.Name, resolve.PosOrImplied(it.Pos), it.Problem))
	}
	for _, it := range rep.Unsatisfied() {
		out = append(out, fmt.Sprintf("%s %s (%s) has no admissible version, so nothing is pinned for it: %s", it.Kind, it.Name, resolve.PosOrImplied(it.Pos), it.Problem))
	}
	for _, l := range rep.RefusedLocks() {
		out = append(out, fmt.Sprintf("the lock file holds %s %s (%s), which %s does not admit for %q: %s", l.Address, l.Version, l.Pos, l.Policy, l.Constraint, l.Reason))
	}
	return append(out, pinDrift(rep)...)
}

// pinDrift says why a pin prerel pin wrote is stale, where the reason is
// a change of the registry or of time rather than of the configuration:
// the pinned version is no longer listed (yanked), or a version the
// minimum age held back has become eligible.
func pinDrift(rep *resolve.Report) []string {
	var out []string
	for i := range rep.Items {
		it := &rep.Items[i]
		p := it.Pinned
		if p == nil || !p.Stale || it.Listed() == nil {
			continue
		}
		where := fmt.Sprintf("%s %s (%s:%d)", it.Kind, it.Name, printable.String(p.File), p.Line)
		switch {
		case !slices.Contains(it.Listed(), p.Version):
			out = append(out, fmt.Sprintf("%s is pinned at %s, which the registry no longer lists (yanked?): init would fail", where, printable.String(p.Version)))
		case it.Cooldown != nil && it.Selected != nil && newer(*it.Selected, p.Version):
			since := ""
			if c := it.Cooldown.EligibleSince; c != nil {
				since = " since " + c.UTC().Format(time.RFC3339)
			}
			out = append(out, fmt.Sprintf("%s is pinned at %s, but %s, held back by the minimum age %s when the pin was written, is eligible%s",
				where, printable.String(p.Version), printable.String(*it.Selected), it.Cooldown.MinAge, since))
		}
	}
	return out
}

// newer reports whether a is a newer version than b.
func newer(a, b string) bool {
	va, err := engine.ParseVersion(a)
	if err != nil {
		return false
	}
	vb, err := engine.ParseVersion(b)
	return err == nil && va.Compare(vb) > 0
}

// cooldownDetail says what the minimum age holds back for a pin, and
// since when the pinned version is eligible.
func cooldownDetail(p Pin) string {
	s := "minimum age " + p.MinAge + ": " + p.Version
	if p.EligibleSince != nil {
		s += " eligible since " + p.EligibleSince.UTC().Format(time.RFC3339)
	} else {
		s += " undated, let through"
	}
	for i, h := range p.HeldBack {
		if i == 0 {
			s += "; held back: "
		} else {
			s += ", "
		}
		if h.EligibleAt != nil {
			s += h.Version + " until " + h.EligibleAt.UTC().Format(time.RFC3339)
		} else {
			s += h.Version + " (undated)"
		}
	}
	return s
}
