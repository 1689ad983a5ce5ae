package render

import (
	"slices"
	"strings"
)

// policyGroup is one group of policies, as Options.Group names it.
type policyGroup struct {
	Name     string
	Policies []string
}

// groupPolicies returns the policies of order in groups: the groups of
// opt.Groups in their order, then any other group in the order its first
// policy comes in order; within a group, the policies keep the order
// they have in order. It returns nil when opt.Group is nil.
func groupPolicies(order []string, opt Options) []policyGroup {
	if opt.Group == nil {
		return nil
	}
	var groups []policyGroup
	index := map[string]int{}
	add := func(name string) {
		if _, ok := index[name]; !ok {
			index[name] = len(groups)
			groups = append(groups, policyGroup{Name: name})
		}
	}
	for _, g := range opt.Groups {
		add(g)
	}
	for _, p := range order {
		g := groupName(p, opt)
		add(g)
		groups[index[g]].Policies = append(groups[index[g]].Policies, p)
	}
	return slices.DeleteFunc(groups, func(g policyGroup) bool { return len(g.Policies) == 0 })
}

// groupName is the group of policy p, "-" for a policy Options.Group
// gives no group.
func groupName(p string, opt Options) string {
	if g := opt.Group(p); g != "" {
		return g
	}
	return "-"
}

// flatten returns the policies of groups, group after group.
func flatten(groups []policyGroup) []string {
	var order []string
	for _, g := range groups {
		order = append(order, g.Policies...)
	}
	return order
}

// rowGroups returns the distinct groups of a summary row's policies, in
// the order of opt.Groups, joined with ", ".
func rowGroups(policies []string, opt Options) string {
	var names []string
	for _, g := range groupPolicies(policies, opt) {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// policyMark says what a grouped report marks a policy as: "today's
// rule", "reference", both, or "" for neither and in a report without
// groups.
func policyMark(p, ref string, opt Options) string {
	if opt.Group == nil {
		return ""
	}
	var marks []string
	if opt.Today != nil && opt.Today(p) != "" {
		marks = append(marks, "today's rule")
	}
	if p == ref {
		marks = append(marks, "reference")
	}
	return strings.Join(marks, ", ")
}
