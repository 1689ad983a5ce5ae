package compare

import (
	"strconv"
	"strings"

	"github.com/prerel/prerel/engine"
)

// A signature drops the numbers of a case and keeps its shape. It has
// three parts separated by "; ":
//
//	>= V-pre [=], < V [=]; version V-pre; a reject, b allow
//
// The constraint part lists the comparators in written order. Each is its
// operator as written (none for a bare version; ">=V" when no space
// follows the operator, ">= V" when one does), then its version as V, or
// for "~>", whose meaning depends on the written precision, as N, N.N or
// N.N.N; a "v" before it when one was written, "-pre" when it has a
// prerelease, "+b" when it has build metadata; then, in brackets, how the
// case's version's base (MAJOR.MINOR.PATCH) relates to the comparator's
// base with missing parts zero: [<] below, [=] equal, [>] above. A "~>"
// comparator also relates the version's base to the upper bound it
// implies (Comparator.Upper: "~> 1.2" is below 2.0.0, "~> 1.2.3" below
// 1.3.0): "<U" below the implied bound, "=U" the bound's own release (a
// prerelease of it, 2.0.0-beta.1 for "~> 1.0", is the case the rules
// argue about), ">U" above, as in "~> N.N [>, =U]". The empty constraint
// is "(any)". The version part is "version" and V with the same
// marks. The last part gives the verdict of each side of the pair.
//
// When a side is Invalid it refused the text, whatever the numbers say, so
// the signature names what it refused instead of the case's shape. For a
// refused constraint: "constraint refused:" and the template (without
// relations) of each comparator that side refuses on its own, or "constraint
// refused together:" and every comparator when it refuses none alone; the
// version plays no part. For a refused version: "version refused:" and its
// template. So ">= 1.0.0-beta, < v2.0.0" with 1.5.0 refused by a library
// that does not read "v" is "constraint refused: < vV; a allow, b invalid".
//
// Text the engine cannot parse keeps a syntax shape instead: runs of digits
// become N, runs of letters become a, runs of white space one space, and
// the rest stays, as in `constraint syntax ">= N.N < N"`.

// shapeKey identifies the case shape of a version within one group: the
// relation of its base to each comparator's base (two bits each) and its
// own marks.
type shapeKey struct {
	relations uint64
	upper     uint64 // for "~>" comparators: relation to the implied bound
	marks     uint8
}

// Version marks in a shapeKey.
const (
	markPre = 1 << iota
	markBuild
	markV
)

// maxKeyedComparators is how many comparators a shapeKey can describe.
const maxKeyedComparators = 32

// shapeOf returns the case part of the signature (constraint and version
// parts) for vi against the group's constraint.
func (g *groupShapes) shapeOf(vi *versionInfo) string {
	return g.shapes[g.shapeID(vi)]
}

// shapeID returns the number of the case shape of vi within the group
// (an index into g.shapes), caching the shape per group by shapeKey:
// versions of one shapeKey have one shape.
func (g *groupShapes) shapeID(vi *versionInfo) int32 {
	ci := g.ci
	if !ci.ok || !vi.ok || len(g.cores) > maxKeyedComparators {
		return g.intern(constraintShape(ci, g.spaced, vi) + "; " + versionShape(vi))
	}
	k := shapeKey{marks: vi.marks}
	core := vi.parsed.Core()
	for i := range g.cores {
		k.relations |= uint64(core.Compare(g.cores[i])+1) << (2 * i)
		if g.hasUpper[i] {
			k.upper |= uint64(core.Compare(g.uppers[i])+1) << (2 * i)
		}
	}
	if id, ok := g.cache[k]; ok {
		return id
	}
	known := knownShape{g.templateID, g.upperMask, k}
	shape, ok := g.known[known]
	if !ok {
		shape = constraintShape(ci, g.spaced, vi) + "; " + versionShape(vi)
		if len(g.known) >= maxKnownShapes {
			g.forgetKnown()
			known.template = g.templateID
		}
		g.known[known] = shape
	}
	id := g.intern(shape)
	g.cache[k] = id
	return id
}

// knownShape identifies a case shape across groups: the number of the
// comparators of the constraint as the shape writes them
// (groupShapes.templates), which of them imply an upper bound, and the
// version's shapeKey.
type knownShape struct {
	template  uint32
	upperMask uint64
	k         shapeKey
}

// maxKnownShapes bounds groupShapes.known and groupShapes.templates.
const maxKnownShapes = 1 << 16

// forgetKnown empties the shapes known across groups and the numbers of
// their templates, numbering the group's template again.
func (g *groupShapes) forgetKnown() {
	clear(g.known)
	clear(g.templates)
	g.templateID = g.templateNumber(g.template)
}

// templateNumber returns the number of template t (groupShapes.templates).
func (g *groupShapes) templateNumber(t string) uint32 {
	id, ok := g.templates[t]
	if !ok {
		id = uint32(len(g.templates))
		g.templates[t] = id
	}
	return id
}

// intern returns the number of shape s within the group.
func (g *groupShapes) intern(s string) int32 {
	if id, ok := g.ids[s]; ok {
		return id
	}
	id := int32(len(g.shapes))
	g.ids[s] = id
	g.shapes = append(g.shapes, s)
	return id
}

// groupShapes holds what the signatures of one group share.
type groupShapes struct {
	ci     *constraintInfo
	spaced []bool // per comparator: a space follows the operator
	// per comparator of a constraint the engine parses: the base of its
	// version, and the bound a "~>" implies (hasUpper)
	cores, uppers []engine.Version
	hasUpper      []bool
	cache         map[shapeKey]int32 // shape of the versions of a key
	// template is the comparators as the shape writes them, without the
	// relations, and upperMask has bit i set when comparator i implies an
	// upper bound: with a shapeKey they decide the shape, which known
	// keeps from group to group, by the template's number (templateID,
	// of templates, which known's keys hold).
	template   string
	templateID uint32
	upperMask  uint64
	known      map[knownShape]string
	templates  map[string]uint32
	ids        map[string]int32  // number of each shape
	shapes     []string          // the shapes by number
	refused    map[string]string // policy name -> shape of its refusal of the constraint
}

// refusal returns the case part of the signature for a case that policy
// p judged Invalid: what it refused, the constraint (when
// constraintRefused, p.Compile failed on it) or the version.
func (g *groupShapes) refusal(p engine.Policy, constraintRefused bool, vi *versionInfo) string {
	if !constraintRefused {
		return versionRefusal(vi)
	}
	if s, ok := g.refused[p.Name()]; ok {
		return s
	}
	s := refusedConstraint(policyCompiles(p), g.ci, g.spaced)
	g.refused[p.Name()] = s
	return s
}

// versionRefusal is the case part of the signature of a case whose
// version a policy refused. It is a function of the version part of the
// case's shape.
func versionRefusal(vi *versionInfo) string {
	if !vi.ok {
		return "version refused: syntax " + strconv.Quote(syntaxShape(vi.text))
	}
	var b strings.Builder
	b.WriteString("version refused: ")
	writeTemplate(&b, vi.parsed, 0)
	return b.String()
}

// compiles reports whether a policy compiles a constraint: nil, or its
// refusal.
type compiles func(constraint string) error

// policyCompiles is p's Compile as a compiles.
func policyCompiles(p engine.Policy) compiles {
	return func(constraint string) error {
		_, err := p.Compile(constraint)
		return err
	}
}

// tableCompiles is t's Compile as a compiles: a table's Compile refuses
// exactly what its policy's does (engine.VersionTable), and may keep
// what it read of a comparator from the whole constraint's compile.
func tableCompiles(t engine.VersionTable) compiles {
	return func(constraint string) error {
		_, err := t.Compile(constraint)
		return err
	}
}

// refusedConstraint names the comparators of a constraint that a policy,
// whose Compile is compile, refuses on their own, compiling each alone.
func refusedConstraint(compile compiles, ci *constraintInfo, spaced []bool) string {
	if !ci.ok {
		return "constraint refused: syntax " + strconv.Quote(syntaxShape(ci.text))
	}
	cs := ci.parsed.Comparators()
	if len(cs) == 0 {
		return "constraint refused: (any)"
	}
	fields := strings.Split(ci.text, ",")
	var alone []int
	for i := range cs {
		if i < len(fields) {
			if err := compile(strings.TrimSpace(fields[i])); err != nil {
				alone = append(alone, i)
			}
		}
	}
	var b strings.Builder
	if len(alone) == 0 {
		b.WriteString("constraint refused together: ")
		for i := range cs {
			alone = append(alone, i)
		}
	} else {
		b.WriteString("constraint refused: ")
	}
	for j, i := range alone {
		if j > 0 {
			b.WriteString(", ")
		}
		writeComparator(&b, &cs[i], i < len(spaced) && spaced[i])
	}
	return b.String()
}

// reset prepares g for the group of constraint ci.
func (g *groupShapes) reset(ci *constraintInfo) {
	g.ci = ci
	g.spaced = operatorSpacing(ci, g.spaced[:0])
	g.cores, g.uppers, g.hasUpper = g.cores[:0], g.uppers[:0], g.hasUpper[:0]
	g.template, g.upperMask = "", 0
	if ci.ok {
		cs := ci.parsed.Comparators()
		var b strings.Builder
		for i := range cs {
			cmp := &cs[i]
			u, ok := cmp.Upper()
			g.cores = append(g.cores, cmp.Version.Core())
			g.uppers = append(g.uppers, u)
			g.hasUpper = append(g.hasUpper, ok)
			if ok && i < maxKeyedComparators {
				g.upperMask |= 1 << i
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeComparator(&b, cmp, g.spaced[i])
		}
		g.template = b.String()
	}
	if g.cache == nil {
		g.cache = map[shapeKey]int32{}
		g.known = map[knownShape]string{}
		g.templates = map[string]uint32{}
		g.ids = map[string]int32{}
		g.refused = map[string]string{}
	}
	if len(g.templates) >= maxKnownShapes {
		g.forgetKnown()
	}
	g.templateID = g.templateNumber(g.template)
	clear(g.cache)
	clear(g.ids)
	clear(g.shapes)
	g.shapes = g.shapes[:0]
	clear(g.refused)
}

func versionMarks(v engine.Version) uint8 {
	var m uint8
	if v.IsPrerelease() {
		m |= markPre
	}
	if v.Build() != "" {
		m |= markBuild
	}
	if hasVPrefix(v) {
		m |= markV
	}
	return m
}

// operatorSpacing reports, for each comparator of a constraint the engine
// parses, whether white space follows its operator in the text.
func operatorSpacing(ci *constraintInfo, out []bool) []bool {
	if !ci.ok {
		return out
	}
	fields := strings.Split(ci.text, ",")
	cs := ci.parsed.Comparators()
	for i := range cs {
		spaced := false
		if i < len(fields) && !cs[i].Bare {
			f := strings.TrimLeft(fields[i], " \t\n\r\f\v")
			rest := f[min(len(cs[i].Op.String()), len(f)):]
			spaced = rest != "" && isSpaceByte(rest[0])
		}
		out = append(out, spaced)
	}
	return out
}

// constraintShape is the constraint part of a signature.
func constraintShape(ci *constraintInfo, spaced []bool, vi *versionInfo) string {
	if !ci.ok {
		return "constraint syntax " + strconv.Quote(syntaxShape(ci.text))
	}
	cs := ci.parsed.Comparators()
	if len(cs) == 0 {
		return "(any)"
	}
	var b strings.Builder
	for i := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeComparator(&b, &cs[i], i < len(spaced) && spaced[i])
		b.WriteString(" [")
		if vi.ok {
			core := vi.parsed.Core()
			b.WriteString(relation(core.Compare(cs[i].Version.Core())))
			if u, ok := cs[i].Upper(); ok {
				b.WriteString(", ")
				b.WriteString(relation(core.Compare(u)))
				b.WriteByte('U')
			}
		} else {
			b.WriteByte('?')
		}
		b.WriteByte(']')
	}
	return b.String()
}

// writeComparator writes a comparator's template: its operator as
// written and its version as V (N, N.N or N.N.N for "~>").
func writeComparator(b *strings.Builder, cmp *engine.Comparator, spaced bool) {
	if !cmp.Bare {
		b.WriteString(cmp.Op.String())
		if spaced {
			b.WriteByte(' ')
		}
	}
	precision := 0
	if cmp.Op == engine.OpPessimistic {
		precision = cmp.Precision
	}
	writeTemplate(b, cmp.Version, precision)
}

// versionShape is the version part of a signature.
func versionShape(vi *versionInfo) string {
	if !vi.ok {
		return "version syntax " + strconv.Quote(syntaxShape(vi.text))
	}
	var b strings.Builder
	b.WriteString("version ")
	writeTemplate(&b, vi.parsed, 0)
	return b.String()
}

// joinSignature assembles a signature from its case shape and the two
// verdicts.
func joinSignature(caseShape string, a, b engine.Verdict) string {
	return caseShape + "; a " + a.String() + ", b " + b.String()
}

func relation(d int) string {
	switch {
	case d < 0:
		return "<"
	case d > 0:
		return ">"
	}
	return "="
}

// writeTemplate writes v as V, or with precision 1 to 3 as N, N.N or
// N.N.N, with its marks.
func writeTemplate(b *strings.Builder, v engine.Version, precision int) {
	if hasVPrefix(v) {
		b.WriteByte('v')
	}
	if precision == 0 {
		b.WriteByte('V')
	} else {
		b.WriteByte('N')
		for i := 1; i < precision; i++ {
			b.WriteString(".N")
		}
	}
	if v.IsPrerelease() {
		b.WriteString("-pre")
	}
	if v.Build() != "" {
		b.WriteString("+b")
	}
}

// hasVPrefix reports whether v was written with a leading "v".
func hasVPrefix(v engine.Version) bool {
	s := v.String()
	return s != "" && s[0] == 'v'
}

// maxSyntaxShape bounds the length of a syntax shape, so that a huge input
// line cannot make a huge signature.
const maxSyntaxShape = 60

// syntaxShape maps digit runs to N, letter runs to a and white space runs
// to one space, keeping other bytes.
func syntaxShape(s string) string {
	var b strings.Builder
	prev := byte(0)
	for i := 0; i < len(s); i++ {
		if b.Len() >= maxSyntaxShape {
			b.WriteString("...")
			break
		}
		c := s[i]
		var out byte
		switch {
		case c >= '0' && c <= '9':
			out = 'N'
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			out = 'a'
		case isSpaceByte(c):
			out = ' '
		default:
			b.WriteByte(c)
			prev = 0
			continue
		}
		if out != prev {
			b.WriteByte(out)
		}
		prev = out
	}
	return b.String()
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// caseShapeOf is the case shape of (constraint, version), the part of a
// signature that depends on no policy: that of a class where neither
// policy refuses the case, and that of a split.
func caseShapeOf(constraint, version string) string {
	ci := newConstraintInfo(constraint)
	vi := newVersionInfo(version)
	var g groupShapes
	g.reset(&ci)
	return g.shapeOf(&vi)
}

// Signature evaluates the case (constraint, version) with a and b, as
// engine.Evaluate does, and returns the signature of its divergence class
// in a report, or "" when the two agree or when a or b is nil.
func Signature(a, b engine.Policy, constraint, version string) string {
	return signatureOf(a, b, constraint, version)
}

// signatureOf evaluates the case (constraint, version) with a and b, as
// engine.Evaluate does, and returns the signature of its divergence class
// in a report, or "" when the two agree or when a or b is nil.
func signatureOf(a, b engine.Policy, constraint, version string) string {
	if a == nil || b == nil {
		return ""
	}
	// A second look at a case the run judged: not counted again in a
	// policy's record of the cases it failed on.
	ra, rb := engine.Evaluate(engine.Quiet(a), constraint, version), engine.Evaluate(engine.Quiet(b), constraint, version)
	if ra.Verdict == rb.Verdict {
		return ""
	}
	ci := newConstraintInfo(constraint)
	vi := newVersionInfo(version)
	var g groupShapes
	g.reset(&ci)
	refused := func(p engine.Policy) bool {
		_, err := p.Compile(constraint)
		return err != nil
	}
	var shape string
	switch {
	case ra.Verdict == engine.Invalid:
		shape = g.refusal(a, refused(a), &vi)
	case rb.Verdict == engine.Invalid:
		shape = g.refusal(b, refused(b), &vi)
	default:
		shape = g.shapeOf(&vi)
	}
	return joinSignature(shape, ra.Verdict, rb.Verdict)
}
