package compare

import (
	"slices"
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
)

// comparatorText is a comparator taken apart, so that the counterfactuals
// of CauseOf can change one part and write it back.
type comparatorText struct {
	op        engine.Op
	bare      bool
	vPrefix   bool
	nums      [3]uint64
	precision int
	pre       string
	build     string
}

func splitComparators(c engine.Constraint) []comparatorText {
	cs := c.Comparators()
	out := make([]comparatorText, len(cs))
	for i, cmp := range cs {
		v := cmp.Version
		out[i] = comparatorText{
			op:        cmp.Op,
			bare:      cmp.Bare,
			vPrefix:   hasVPrefix(v),
			nums:      [3]uint64{v.Major(), v.Minor(), v.Patch()},
			precision: cmp.Precision,
			pre:       v.Prerelease(),
			build:     v.Build(),
		}
	}
	return out
}

// formatComparators writes comparators in the engine's canonical form.
func formatComparators(cs []comparatorText) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		if !c.bare {
			b.WriteString(c.op.String())
			b.WriteByte(' ')
		}
		if c.vPrefix {
			b.WriteByte('v')
		}
		for j := 0; j < c.precision; j++ {
			if j > 0 {
				b.WriteByte('.')
			}
			b.WriteString(strconv.FormatUint(c.nums[j], 10))
		}
		if c.pre != "" {
			b.WriteString("-" + c.pre)
		}
		if c.build != "" {
			b.WriteString("+" + c.build)
		}
	}
	return b.String()
}

// formatVersion writes v with the prerelease pre in place of its own.
func formatVersion(v engine.Version, pre string) string {
	s := engine.NewVersion(v.Major(), v.Minor(), v.Patch()).String()
	if hasVPrefix(v) {
		s = "v" + s
	}
	if pre != "" {
		s += "-" + pre
	}
	if v.Build() != "" {
		s += "+" + v.Build()
	}
	return s
}

// stripBuild removes every "+build" (a '+' and the identifier characters
// and dots after it) from s.
func stripBuild(s string) string {
	if strings.IndexByte(s, '+') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '+' {
			b.WriteByte(s[i])
			continue
		}
		for i+1 < len(s) && (isIdentByte(s[i+1]) || s[i+1] == '.') {
			i++
		}
	}
	return b.String()
}

func isIdentByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-'
}

func hasPessimistic(cs []comparatorText) bool {
	for _, c := range cs {
		if c.op == engine.OpPessimistic {
			return true
		}
	}
	return false
}

// expandPessimistic rewrites each "~> X" as ">= X, < U" with U the upper
// bound of the engine's reading; both written with three parts.
func expandPessimistic(cs []comparatorText) []comparatorText {
	out := make([]comparatorText, 0, len(cs)+1)
	for _, c := range cs {
		if c.op != engine.OpPessimistic {
			out = append(out, c)
			continue
		}
		lower := c
		lower.op, lower.precision = engine.OpGreaterEqual, 3
		out = append(out, lower)
		upper, ok := pessimisticUpper(c)
		if ok {
			out = append(out, comparatorText{op: engine.OpLess, vPrefix: c.vPrefix, nums: upper, precision: 3})
		}
	}
	return out
}

// pessimisticUpper is Comparator.Upper on the parts of c.
func pessimisticUpper(c comparatorText) ([3]uint64, bool) {
	const max = ^uint64(0)
	if c.precision == 3 {
		if c.nums[1] == max {
			return [3]uint64{}, false
		}
		return [3]uint64{c.nums[0], c.nums[1] + 1, 0}, true
	}
	if c.nums[0] == max {
		return [3]uint64{}, false
	}
	return [3]uint64{c.nums[0] + 1, 0, 0}, true
}

// dropPrereleases removes the prerelease of every comparator.
func dropPrereleases(cs []comparatorText) []comparatorText {
	out := append([]comparatorText(nil), cs...)
	for i := range out {
		out[i].pre = ""
	}
	return out
}

// relabelPrereleases renames every distinct prerelease of the comparators
// and of v to a single-identifier label of letters that keeps their SemVer
// order ("a" < "b" < ... < "y" < "za" < "zb" ...), and returns the
// rewritten constraint and version.
func relabelPrereleases(cs []comparatorText, v engine.Version) (string, string) {
	seen := map[string]bool{}
	var pres []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			pres = append(pres, p)
		}
	}
	for _, c := range cs {
		add(c.pre)
	}
	add(v.Prerelease())
	slices.SortFunc(pres, comparePrerelease)
	label := make(map[string]string, len(pres))
	for i, p := range pres {
		label[p] = strings.Repeat("z", i/25) + string(rune('a'+i%25))
	}
	out := append([]comparatorText(nil), cs...)
	for i := range out {
		if out[i].pre != "" {
			out[i].pre = label[out[i].pre]
		}
	}
	return formatComparators(out), formatVersion(v, label[v.Prerelease()])
}

// comparePrerelease orders two prerelease strings by SemVer precedence.
func comparePrerelease(a, b string) int {
	va, erra := engine.ParseVersion("0.0.0-" + a)
	vb, errb := engine.ParseVersion("0.0.0-" + b)
	if erra != nil || errb != nil {
		return strings.Compare(a, b)
	}
	return va.Compare(vb)
}

// dropVPrefixes returns the comparators and the version (written as
// formatVersion does) without their leading "v", or nil when none has one.
func dropVPrefixes(cs []comparatorText, v engine.Version) ([]comparatorText, string) {
	out := append([]comparatorText(nil), cs...)
	changed := hasVPrefix(v)
	for i := range out {
		changed = changed || out[i].vPrefix
		out[i].vPrefix = false
	}
	if !changed {
		return nil, ""
	}
	s := engine.NewVersion(v.Major(), v.Minor(), v.Patch()).String()
	if v.Prerelease() != "" {
		s += "-" + v.Prerelease()
	}
	if v.Build() != "" {
		s += "+" + v.Build()
	}
	return out, s
}

// writeInFull returns the comparators with every one but "~>" written
// with three numbers, or nil when all of them already are.
func writeInFull(cs []comparatorText) []comparatorText {
	out := append([]comparatorText(nil), cs...)
	changed := false
	for i := range out {
		if out[i].op != engine.OpPessimistic && out[i].precision < 3 {
			out[i].precision = 3
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return out
}
