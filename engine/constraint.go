package engine

import (
	"strconv"
	"strings"
)

// Op is a comparator's operator.
type Op uint8

// The operators of the Terraform/OpenTofu constraint syntax.
const (
	OpEqual        Op = iota + 1 // "=" or no operator
	OpNotEqual                   // "!="
	OpGreater                    // ">"
	OpGreaterEqual               // ">="
	OpLess                       // "<"
	OpLessEqual                  // "<="
	OpPessimistic                // "~>"
)

var opText = [...]string{"", "=", "!=", ">", ">=", "<", "<=", "~>"}

// String returns the operator as written in a constraint ("=" for OpEqual).
func (o Op) String() string {
	if int(o) < len(opText) && o != 0 {
		return opText[o]
	}
	return "?"
}

// Comparator is one condition of a constraint: an operator and a version,
// with the precision (1 to 3 numeric parts) it was written with. Missing
// parts of Version are zero.
type Comparator struct {
	Op        Op
	Version   Version
	Precision int  // numeric parts written: 1, 2 or 3 (more only from ParseMultipartConstraint)
	Bare      bool // OpEqual written with no operator
}

// Lower is the lowest version a "~>" comparator admits: its Version.
//
// Upper is the bound a "~>" comparator's versions stay below: "~> 1.2.3" is
// below 1.3.0, "~> 1.2" and "~> 1" below 2.0.0. ok is false when the bound
// does not exist (the incremented number would overflow) and for other
// operators.
func (c *Comparator) Upper() (v Version, ok bool) {
	if c.Op != OpPessimistic {
		return Version{}, false
	}
	w := c.Version
	if c.Precision > 3 {
		return c.upperMultipart()
	}
	if c.Precision == 3 {
		if w.minor == ^uint64(0) {
			return Version{}, false
		}
		return Version{major: w.major, minor: w.minor + 1}, true
	}
	if w.major == ^uint64(0) {
		return Version{}, false
	}
	return Version{major: w.major + 1}, true
}

// Holds reports whether v satisfies c by SemVer precedence alone, with no
// prerelease rule: "~>" is read as ">= Version, < Upper".
func (c *Comparator) Holds(v Version) bool { return c.holds(&v) }

func (c *Comparator) holds(v *Version) bool {
	d := compareVersions(v, &c.Version)
	switch c.Op {
	case OpEqual:
		return d == 0
	case OpNotEqual:
		return d != 0
	case OpGreater:
		return d > 0
	case OpGreaterEqual:
		return d >= 0
	case OpLess:
		return d < 0
	case OpLessEqual:
		return d <= 0
	case OpPessimistic:
		return d >= 0 && c.belowUpper(v)
	}
	return false
}

// belowUpper reports whether v is below the "~>" upper bound (see Upper),
// comparing numbers in place: the bound is a release ending in zeros, so a
// version is below it when its leading numbers are, or when it is a
// prerelease of the bound itself.
func (c *Comparator) belowUpper(v *Version) bool {
	w := &c.Version
	if c.Precision > 3 {
		return c.belowUpperMultipart(v)
	}
	if c.Precision == 3 {
		if w.minor == ^uint64(0) {
			return true // no bound
		}
		if v.major != w.major {
			return v.major < w.major
		}
		if v.minor != w.minor+1 {
			return v.minor < w.minor+1
		}
		return v.patch == 0 && v.pre != ""
	}
	if w.major == ^uint64(0) {
		return true
	}
	if v.major != w.major+1 {
		return v.major < w.major+1
	}
	return v.minor == 0 && v.patch == 0 && v.pre != ""
}

// NamesPrerelease reports whether the comparator's version has a prerelease.
func (c Comparator) NamesPrerelease() bool { return c.Version.pre != "" }

// String returns the comparator in canonical form: the operator (none when
// it was written bare), a space, and the version as written, at its written
// precision.
func (c Comparator) String() string {
	var b strings.Builder
	c.write(&b)
	return b.String()
}

func (c Comparator) write(b *strings.Builder) {
	if !c.Bare {
		b.WriteString(c.Op.String())
		b.WriteByte(' ')
	}
	v := c.Version
	if v.vPrefix {
		b.WriteByte('v')
	}
	writeUint(b, v.major)
	if c.Precision >= 2 {
		b.WriteByte('.')
		writeUint(b, v.minor)
	}
	if c.Precision >= 3 {
		b.WriteByte('.')
		writeUint(b, v.patch)
	}
	if v.more != "" {
		b.WriteByte('.')
		b.WriteString(v.more)
	}
	if v.pre != "" {
		b.WriteByte('-')
		b.WriteString(v.pre)
	}
	if v.build != "" {
		b.WriteByte('+')
		b.WriteString(v.build)
	}
}

// Constraint is a parsed Terraform/OpenTofu version constraint: the
// intersection of its comparators. The zero Constraint (and the parse of
// "") has no comparators and admits every version.
type Constraint struct {
	comparators []Comparator
	text        string
}

// maxPreallocComparators bounds the comparator slice ParseConstraint
// reserves up front from the number of commas.
const maxPreallocComparators = 16

// ParseConstraint parses the Terraform/OpenTofu constraint syntax described
// in the package documentation. Invalid input returns a *ParseError that
// names the column and the offending text.
func ParseConstraint(s string) (Constraint, error) {
	return parseConstraint(scanner{src: s, kind: "constraint"})
}

// ParseMultipartConstraint parses a constraint as ParseConstraint does,
// except that a comparator's version may have more than three numeric
// parts, read as ParseMultipartVersion reads them and as
// hashicorp/go-version reads them in required_version: "= 1.15.9.0"
// admits 1.15.9 (a missing part counts as zero). A "~>" comparator of
// more than three parts keeps its last part open and the part before it
// fixed, and admits only versions of at least as many parts, as
// go-version's pessimistic operator does: "~> 1.15.9.0" is ">= 1.15.9.0,
// < 1.15.10" and refuses 1.15.9 (three parts). The core-only policy
// compiles constraints with it; the other native policies refuse a
// comparator of more than three parts.
func ParseMultipartConstraint(s string) (Constraint, error) {
	return parseConstraint(scanner{src: s, kind: "constraint", multipart: true})
}

// parseConstraint parses the constraint of p.
func parseConstraint(p scanner) (Constraint, error) {
	s := p.src
	c := Constraint{text: s}
	p.skipSpace()
	if p.pos == len(s) {
		return c, nil
	}
	// One allocation for the usual few comparators; the cap keeps a long
	// run of commas from reserving memory before the first error is found.
	n := 1 + strings.Count(s, ",")
	if n > maxPreallocComparators {
		n = maxPreallocComparators
	}
	c.comparators = make([]Comparator, 0, n)
	for {
		cmp, err := p.comparator()
		if err != nil {
			return Constraint{}, err
		}
		c.comparators = append(c.comparators, cmp)
		p.skipSpace()
		if p.pos == len(s) {
			return c, nil
		}
		if s[p.pos] != ',' {
			return Constraint{}, p.errAt(p.pos, "expected \",\" between comparators, found %s", p.describe(p.pos))
		}
		p.pos++
		p.skipSpace()
		if p.pos == len(s) {
			return Constraint{}, p.errAt(p.pos, "expected a comparator after \",\", found end of input")
		}
	}
}

// MustParseConstraint is ParseConstraint that panics on invalid input; for
// tests and constants.
func MustParseConstraint(s string) Constraint {
	c, err := ParseConstraint(s)
	if err != nil {
		panic(err)
	}
	return c
}

func (p *scanner) comparator() (Comparator, error) {
	var c Comparator
	opStart := p.pos
	c.Op, c.Bare = p.operator()
	if c.Op == 0 {
		return c, p.errAt(p.pos, "unknown operator %s; expected one of = != > >= < <= ~> before a version", p.describe(p.pos))
	}
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] == ',' {
		if c.Bare {
			return c, p.errAt(p.pos, "expected a version, found %s", p.describe(p.pos))
		}
		return c, p.errAt(p.pos, "expected a version after %q, found %s", p.src[opStart:opStart+len(c.Op.String())], p.describe(p.pos))
	}
	v, parts, err := p.version(true)
	if err != nil {
		return c, err
	}
	c.Version, c.Precision = v, parts
	return c, nil
}

// operator scans an operator at p.pos. It returns OpEqual with bare set when
// a version follows directly, and 0 for text that is neither.
func (p *scanner) operator() (Op, bool) {
	rest := p.src[p.pos:]
	two := ""
	if len(rest) >= 2 {
		two = rest[:2]
	}
	switch two {
	case "!=":
		p.pos += 2
		return OpNotEqual, false
	case ">=":
		p.pos += 2
		return OpGreaterEqual, false
	case "<=":
		p.pos += 2
		return OpLessEqual, false
	case "~>":
		p.pos += 2
		return OpPessimistic, false
	}
	if rest == "" {
		return 0, false
	}
	if two == "=>" || two == "=<" {
		return 0, false
	}
	switch rest[0] {
	case '=':
		p.pos++
		return OpEqual, false
	case '>':
		p.pos++
		return OpGreater, false
	case '<':
		p.pos++
		return OpLess, false
	}
	if isDigit(rest[0]) || rest[0] == 'v' {
		return OpEqual, true
	}
	return 0, false
}

// Comparators returns the comparators in written order. The slice is shared:
// do not modify it.
func (c Constraint) Comparators() []Comparator { return c.comparators }

// Len returns the number of comparators.
func (c Constraint) Len() int { return len(c.comparators) }

// Text returns the constraint exactly as it was given to ParseConstraint.
func (c Constraint) Text() string { return c.text }

// Holds reports base satisfaction B(c, v): v satisfies every comparator by
// SemVer precedence alone, with no prerelease rule.
func (c Constraint) Holds(v Version) bool { return c.FirstFailure(&v) < 0 }

// FirstFailure returns the index of the first comparator, in written order,
// that v does not satisfy by precedence alone, or -1 when B(c, v) holds.
// It takes pointers so that native policies can call it on their hot path
// without copying.
func (c *Constraint) FirstFailure(v *Version) int {
	for i := range c.comparators {
		if !c.comparators[i].holds(v) {
			return i
		}
	}
	return -1
}

// NamesPrerelease reports whether some comparator's version has a
// prerelease.
func (c Constraint) NamesPrerelease() bool {
	for i := range c.comparators {
		if c.comparators[i].Version.pre != "" {
			return true
		}
	}
	return false
}

// String returns the canonical form: comparators joined by ", ", each as
// Comparator.String prints it. Parsing the result gives an equal
// constraint.
func (c Constraint) String() string {
	var b strings.Builder
	for i, cmp := range c.comparators {
		if i > 0 {
			b.WriteString(", ")
		}
		cmp.write(&b)
	}
	return b.String()
}

// parts returns v's numeric parts, n of them at least (missing ones are
// zero).
func (v *Version) parts(n int) []uint64 {
	out := []uint64{v.major, v.minor, v.patch}
	for rest := v.more; rest != ""; {
		var x string
		x, rest, _ = strings.Cut(rest, ".")
		u, _ := strconv.ParseUint(x, 10, 64)
		out = append(out, u)
	}
	for len(out) < n {
		out = append(out, 0)
	}
	return out
}

// upperMultipart is Upper for a "~>" comparator of more than three
// parts: the part before the last incremented, the ones after it gone.
func (c *Comparator) upperMultipart() (Version, bool) {
	ps := c.Version.parts(c.Precision)[:c.Precision-1]
	last := len(ps) - 1
	if ps[last] == ^uint64(0) {
		return Version{}, false
	}
	ps[last]++
	u := Version{major: ps[0], minor: ps[1], patch: ps[2]}
	if len(ps) > 3 {
		more := make([]string, len(ps)-3)
		for i, x := range ps[3:] {
			more[i] = strconv.FormatUint(x, 10)
		}
		u.more = strings.Join(more, ".")
	}
	return u, true
}

// belowUpperMultipart is belowUpper for a "~>" comparator of more than
// three parts: v must be written with at least as many parts and be
// below the bound, as go-version's pessimistic operator requires.
func (c *Comparator) belowUpperMultipart(v *Version) bool {
	if v.Parts() < c.Precision {
		return false
	}
	u, ok := c.upperMultipart()
	return !ok || compareVersions(v, &u) < 0
}
