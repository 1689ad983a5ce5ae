package resolve

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// RenderJSON writes r as indented JSON: an object with "dir",
// "versions_from", "config_file", "default_policy", "default_policy_from",
// "extra_policies", "items", "skipped", "lock_file", "locks" and
// "warnings". Each item holds "kind" ("module" or "provider"), "name",
// "source", "address", "constraint", "pos", "policy" (the chosen one),
// "policy_from", "selected" (a version string or null), "terraform_policy"
// and "opentofu_policy" (the by_policy keys of today's installers),
// "by_policy" (policy name → version string or null, for the chosen
// policy, today's Terraform and OpenTofu, and each extra policy),
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

func orDash(s string) string {
	if s == "" {
		return "(any)"
	}
	return s
}

// RenderText writes r for a terminal: a header, one table row per item
// with the chosen policy's selection next to today's Terraform and
// OpenTofu and the extra policies, rows that change today's selection
// marked with "*", then the skipped sources, the lock file check, the
// problems and the warnings.
func RenderText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "root module:    %s\n", r.Dir)
	fmt.Fprintf(&b, "versions from:  %s\n", r.VersionsFrom)
	fmt.Fprintf(&b, "default policy: %s (%s)\n\n", r.DefaultPolicy, r.DefaultFrom)
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		head := []string{"", "KIND", "NAME", "SOURCE", "CONSTRAINT", "POLICY", "SELECTS", "TERRAFORM", "OPENTOFU"}
		head = append(head, r.Extra...)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for i := range r.Items {
			it := &r.Items[i]
			mark := ""
			if it.Changed() {
				mark = "*"
			}
			row := []string{mark, it.Kind, it.Name, it.Source, orDash(it.Constraint), it.Policy,
				it.cell(it.Policy), it.cell(it.TerraformPolicy), it.cell(it.OpenTofuPolicy)}
			for _, p := range r.Extra {
				row = append(row, it.cell(p))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		b.WriteString("\n* the chosen policy selects another version than Terraform or OpenTofu does today\n")
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\nSkipped (not from a registry):\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "  %s %q %s: %s: %s\n", s.Kind, s.Name, paren(s.Pos), s.Source, s.Reason)
		}
	}
	if r.LockFile != "" {
		fmt.Fprintf(&b, "\nLock file %s:\n", r.LockFile)
		if len(r.Locks) == 0 {
			b.WriteString("  no providers locked\n")
		}
		for _, l := range r.Locks {
			fmt.Fprintf(&b, "  %s\n", l.text())
		}
	}
	var problems []string
	for _, it := range r.Items {
		if it.Problem != "" {
			problems = append(problems, fmt.Sprintf("%s %q %s: %s", it.Kind, it.Name, paren(it.Pos), it.Problem))
		}
	}
	if len(problems) > 0 {
		b.WriteString("\nProblems:\n")
		for _, p := range problems {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	if notes := unreadableNotes(r); len(notes) > 0 {
		b.WriteString("\nListed versions some policies cannot read (never selected by them):\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\nWarnings:\n")
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "  %s\n", w)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// unreadableNotes lists, per item, the listed versions that some policy
// shown cannot read, with those policies.
func unreadableNotes(r *Report) []string {
	var out []string
	for _, it := range r.Items {
		for _, u := range it.Unreadable {
			out = append(out, fmt.Sprintf("%s %q: %q by %s", it.Kind, it.Name, u.Version, strings.Join(u.Policies, ", ")))
		}
	}
	return out
}

func paren(pos string) string {
	if pos == "" {
		return "(implied)"
	}
	return "(" + pos + ")"
}

// todayText says what today's installer makes of a locked version.
func (l *Lock) todayText() string {
	switch l.TerraformVerdict {
	case "allow":
		return "admitted"
	case "reject":
		return "not admitted"
	default:
		return l.TerraformVerdict
	}
}

// text is a lock check in one line.
func (l *Lock) text() string {
	switch {
	case !l.Required:
		return fmt.Sprintf("%s %s: not required by the configuration any more", l.Address, l.Version)
	case l.Admitted():
		return fmt.Sprintf("%s %s: still admitted by %s for %q (Terraform today: %s)", l.Address, l.Version, l.Policy, orDash(l.Constraint), l.todayText())
	default:
		return fmt.Sprintf("%s %s: NOT admitted by %s for %q: %s: %s (Terraform today: %s)", l.Address, l.Version, l.Policy, orDash(l.Constraint), l.Verdict, l.Reason, l.todayText())
	}
}

// RenderMarkdown writes r as Markdown for a pull request or a CI step
// summary: the same table as RenderText, rows that change today's
// selection marked in a first column, then the skipped sources, the lock
// file check, the problems and the warnings as lists.
func RenderMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### prerel resolve `%s`\n\n", r.Dir)
	fmt.Fprintf(&b, "Versions from %s. Default policy `%s` (%s).\n\n", mdCode(r.VersionsFrom), r.DefaultPolicy, r.DefaultFrom)
	if len(r.Items) == 0 {
		b.WriteString("No module calls or providers to resolve.\n")
	} else {
		head := []string{"", "kind", "name", "source", "constraint", "policy", "selects", "Terraform", "OpenTofu"}
		for _, p := range r.Extra {
			head = append(head, "`"+p+"`")
		}
		b.WriteString("| " + strings.Join(head, " | ") + " |\n")
		b.WriteString("|" + strings.Repeat(" --- |", len(head)) + "\n")
		for i := range r.Items {
			it := &r.Items[i]
			mark := ""
			if it.Changed() {
				mark = "**changed**"
			}
			row := []string{mark, it.Kind, mdCode(it.Name), mdCode(it.Source), mdCode(orDash(it.Constraint)), "`" + it.Policy + "`",
				mdCode(it.cell(it.Policy)), mdCode(it.cell(it.TerraformPolicy)), mdCode(it.cell(it.OpenTofuPolicy))}
			for _, p := range r.Extra {
				row = append(row, mdCode(it.cell(p)))
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		b.WriteString("\n**changed**: the chosen policy selects another version than Terraform or OpenTofu does today.\n")
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\n#### Skipped (not from a registry)\n\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(&b, "- %s %s %s: %s: %s\n", s.Kind, mdCode(s.Name), paren(s.Pos), mdCode(s.Source), mdEscape(s.Reason))
		}
	}
	if r.LockFile != "" {
		fmt.Fprintf(&b, "\n#### Lock file %s\n\n", mdCode(r.LockFile))
		if len(r.Locks) == 0 {
			b.WriteString("- no providers locked\n")
		}
		for _, l := range r.Locks {
			fmt.Fprintf(&b, "- %s\n", mdEscape(l.text()))
		}
	}
	var problems []string
	for _, it := range r.Items {
		if it.Problem != "" {
			problems = append(problems, fmt.Sprintf("%s %s %s: %s", it.Kind, mdCode(it.Name), paren(it.Pos), mdEscape(it.Problem)))
		}
	}
	if len(problems) > 0 {
		b.WriteString("\n#### Problems\n\n")
		for _, p := range problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	if notes := unreadableNotes(r); len(notes) > 0 {
		b.WriteString("\n#### Listed versions some policies cannot read\n\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", mdEscape(n))
		}
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n#### Warnings\n\n")
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "- %s\n", mdEscape(w))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCode writes s as inline code, safe inside a table cell.
func mdCode(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	if strings.Contains(s, "`") {
		return "``" + s + "``"
	}
	return "`" + s + "`"
}

// mdEscape keeps s from being read as Markdown markup.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "\\`", "\n", " ")
	return r.Replace(s)
}
