package resolve

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/markdown"
	"github.com/prerel/prerel/internal/plural"
)

// RenderJSON writes r as indented JSON: an object with "schema"
// (SchemaVersion), "dir",
// "versions_from", "config_file", "manifest_file", "default_policy",
// "default_policy_from", "extra_policies", "modules_read", "items",
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
// or "error"), "problem", "available", "newest", "refused", "unreadable"
// and "from". The characters < > & are written as they are.
func RenderJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

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

// constraintCell is what a table shows as an item's constraint: a module
// call's version argument, or a provider's requirements with their
// origins.
func (it *Item) constraintCell() string {
	if it.Kind == KindProvider {
		return it.Origins()
	}
	if it.Constraint == "" {
		return "(any)"
	}
	return it.Constraint
}

// where is an item's or entry's place for a message: "(FILE:LINE:COL)",
// or "(implied)".
func where(pos string) string {
	if pos == "" {
		return "(implied)"
	}
	return "(" + pos + ")"
}

// section is one titled list that follows the table.
type section struct {
	title string
	lines []string
}

// sections returns the lists that follow the table, in order, each
// line built by the given functions for the output format.
func (r *Report) sections(code func(string) string, text func(string) string) []section {
	var out []section
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
	var problems section
	problems.title = "Problems"
	for _, it := range r.Items {
		if it.Problem != "" {
			problems.lines = append(problems.lines, fmt.Sprintf("%s %s %s: %s", it.Kind, code(it.Name), text(where(it.Pos)), text(it.Problem)))
		}
	}
	if len(problems.lines) > 0 {
		out = append(out, problems)
	}
	var unreadable section
	unreadable.title = "Listed versions some policies cannot read (never selected by them)"
	for _, it := range r.Items {
		for _, u := range it.Unreadable {
			unreadable.lines = append(unreadable.lines, fmt.Sprintf("%s %s: %s by %s", it.Kind, code(it.Name), code(u.Version), text(strings.Join(u.Policies, ", "))))
		}
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
	return out
}

// RenderText writes r for a terminal: a header, one table row per item
// with the chosen policy's selection next to today's Terraform and
// OpenTofu and the extra policies, rows that change today's selection
// marked with "*", then the modules not read, the skipped sources, the
// lock file check, the problems and the warnings.
func RenderText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "root module:    %s (%s read)\n", r.Dir, plural.Of(len(r.Modules), "module", "modules"))
	fmt.Fprintf(&b, "versions from:  %s\n", r.VersionsFrom)
	fmt.Fprintf(&b, "default policy: %s (%s)\n\n", r.DefaultPolicy, r.DefaultFrom)
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		if err := r.textTable(&b); err != nil {
			return err
		}
		b.WriteString("\n* the chosen policy selects another version than Terraform or OpenTofu does today\n")
	}
	quote := func(s string) string { return s }
	for _, s := range r.sections(quote, quote) {
		fmt.Fprintf(&b, "\n%s:\n", s.title)
		for _, l := range s.lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// textTable writes the items as an aligned table.
func (r *Report) textTable(b *strings.Builder) error {
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	head := append([]string{"", "KIND", "NAME", "SOURCE", "CONSTRAINT", "POLICY", "SELECTS", "TERRAFORM", "OPENTOFU"}, r.Extra...)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for i := range r.Items {
		it := &r.Items[i]
		mark := ""
		if it.Changed() {
			mark = "*"
		}
		row := []string{mark, string(it.Kind), it.Name, it.Source, it.constraintCell(), it.Policy,
			it.cell(it.Policy), it.cell(it.TerraformPolicy), it.cell(it.OpenTofuPolicy)}
		for _, p := range r.Extra {
			row = append(row, it.cell(p))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
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

// RenderMarkdown writes r as Markdown for a pull request or a CI step
// summary: the same table as RenderText, rows that change today's
// selection marked in a first column, then the same lists.
func RenderMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### prerel resolve %s\n\n", markdown.Code(r.Dir))
	fmt.Fprintf(&b, "%s read. Versions from %s. Default policy %s (%s).\n\n", plural.Of(len(r.Modules), "module", "modules"),
		markdown.Code(r.VersionsFrom), markdown.Code(r.DefaultPolicy), markdown.Escape(r.DefaultFrom))
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		head := []string{"", "kind", "name", "source", "constraint", "policy", "selects", "Terraform", "OpenTofu"}
		for _, p := range r.Extra {
			head = append(head, markdown.CodeCell(p))
		}
		b.WriteString("| " + strings.Join(head, " | ") + " |\n")
		b.WriteString("|" + strings.Repeat(" --- |", len(head)) + "\n")
		for i := range r.Items {
			it := &r.Items[i]
			mark := ""
			if it.Changed() {
				mark = "**changed**"
			}
			row := []string{mark, string(it.Kind), markdown.CodeCell(it.Name), markdown.CodeCell(it.Source), markdown.CodeCell(it.constraintCell()),
				markdown.CodeCell(it.Policy), markdown.CodeCell(it.cell(it.Policy)), markdown.CodeCell(it.cell(it.TerraformPolicy)), markdown.CodeCell(it.cell(it.OpenTofuPolicy))}
			for _, p := range r.Extra {
				row = append(row, markdown.CodeCell(it.cell(p)))
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		b.WriteString("\n**changed**: the chosen policy selects another version than Terraform or OpenTofu does today.\n")
	}
	for _, s := range r.sections(markdown.Code, markdown.Escape) {
		fmt.Fprintf(&b, "\n#### %s\n\n", s.title)
		for _, l := range s.lines {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
