package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/textwrap"
)

// Policies writes the list of policies ps in format f (PoliciesFormats).
// The text lists them by group (opts.Group), in the order of
// opts.Groups and registration order within a group, each name on a line
// of its own (today's rule marked, opts.Today) and its rule wrapped under
// it to fit 80 columns, both escaped as every text from outside is (a
// policy file or a command may give a rule any bytes). JSON lists them in
// registration order, one object per policy with its name, group, rule
// and whether it is today's rule.
func Policies(w io.Writer, f Format, ps []engine.Policy, opts Options) error {
	switch f {
	case Text:
		return writePoliciesText(w, ps, opts)
	case JSON:
		out := make([]policyJSON, len(ps))
		for i, p := range ps {
			out[i] = policyJSON{Name: p.Name(), Group: opts.groupOf(p.Name()), Rule: p.Rule(), Today: opts.todayOf(p.Name()) != ""}
		}
		return WriteJSON(w, out)
	}
	return &UnsupportedError{"policies", f}
}

// policyJSON is one policy of the JSON list.
type policyJSON struct {
	Name  string `json:"name"`
	Group string `json:"group"`
	Rule  string `json:"rule"`
	Today bool   `json:"today,omitempty"`
}

// groupOf is the group of policy, "" without opts.Group.
func (o Options) groupOf(policy string) string {
	if o.Group == nil {
		return ""
	}
	return o.Group(policy)
}

// todayOf is what policy is today's rule for, "" without opts.Today.
func (o Options) todayOf(policy string) string {
	if o.Today == nil {
		return ""
	}
	return o.Today(policy)
}

func writePoliciesText(w io.Writer, ps []engine.Policy, opts Options) error {
	groups := slices.Clone(opts.Groups)
	for _, p := range ps {
		if g := opts.groupOf(p.Name()); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	var b strings.Builder
	first := true
	for _, g := range groups {
		var in []engine.Policy
		for _, p := range ps {
			if opts.groupOf(p.Name()) == g {
				in = append(in, p)
			}
		}
		if len(in) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		indent := ""
		if g != "" {
			fmt.Fprintf(&b, "%s:\n", g)
			indent = "  "
		}
		for _, p := range in {
			name := printable.String(p.Name())
			if what := opts.todayOf(p.Name()); what != "" {
				name += "  (today's rule: " + what + ")"
			}
			fmt.Fprintf(&b, "%s%s\n", indent, name)
			if rule := strings.Join(strings.Fields(printable.String(p.Rule())), " "); rule != "" {
				for _, l := range textwrap.Lines(rule, 80, len(indent)+4, len(indent)+4) {
					fmt.Fprintf(&b, "%s\n", l)
				}
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
