package engine

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Version is a SemVer 2.0.0 version: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD],
// optionally written with a leading "v" that is remembered for printing.
//
// Version is a small comparable value type. The == operator compares the
// exact spelling (build metadata and "v" prefix included); use Compare or
// Equal for SemVer precedence, where build metadata never counts. The zero
// Version is 0.0.0.
type Version struct {
	major, minor, patch uint64
	// more are the numeric parts after PATCH, without the leading '.'
	// ("4" for 1.2.3.4): only ParseMultipartVersion and
	// ParseMultipartConstraint fill it in.
	more    string
	pre     string // prerelease identifiers, without the '-'
	build   string // build metadata, without the '+'
	vPrefix bool
}

// ParseVersion parses a full SemVer 2.0.0 version with an optional leading
// "v". Three numeric parts are required; numbers and numeric prerelease
// identifiers must not have leading zeros; identifiers are non-empty runs of
// [0-9A-Za-z-]. Invalid input returns a *ParseError that names the column.
// ParseVersion does not allocate on success.
func ParseVersion(s string) (Version, error) {
	p := scanner{src: s}
	v, parts, err := p.version(false)
	if err != nil {
		return Version{}, err
	}
	if parts != 3 {
		return Version{}, p.errAt(p.pos, "expected MAJOR.MINOR.PATCH, found only %s", countOf(parts, "numeric part", "numeric parts"))
	}
	if p.pos != len(s) {
		return Version{}, p.errAt(p.pos, "unexpected %s after the version", p.describe(p.pos))
	}
	return v, nil
}

// ParseMultipartVersion parses a version as ParseVersion does, except
// that more numeric parts may follow PATCH, as hashicorp/go-version reads
// them (and with it Terraform's module installer and required_version):
// 1.2.3.4, 1.15.9.0-beta1. At most 16 numeric parts are read, each with no
// leading zero. For a version of three parts the result, and for text
// that is not a version the error, are ParseVersion's, except for
// the error about a fourth part. Precedence compares the numbers one by
// one, a missing one counting as zero (1.2.3 and 1.2.3.0 have equal
// precedence), then the prerelease as SemVer does. The native policies
// other than core-only refuse a version of more than three parts: only
// ParseVersion reads the versions they judge.
func ParseMultipartVersion(s string) (Version, error) {
	p := scanner{src: s, multipart: true}
	v, parts, err := p.version(false)
	if err != nil {
		return Version{}, err
	}
	if parts < 3 {
		return Version{}, p.errAt(p.pos, "expected MAJOR.MINOR.PATCH, found only %s", countOf(parts, "numeric part", "numeric parts"))
	}
	if p.pos != len(s) {
		return Version{}, p.errAt(p.pos, "unexpected %s after the version", p.describe(p.pos))
	}
	return v, nil
}

// Parts returns how many numeric parts v has: 3, or more for a version
// ParseMultipartVersion read with more.
func (v Version) Parts() int {
	if v.more == "" {
		return 3
	}
	return 4 + strings.Count(v.more, ".")
}

// MustParseVersion is ParseVersion that panics on invalid input; for tests
// and constants.
func MustParseVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// NewVersion returns the release version major.minor.patch.
func NewVersion(major, minor, patch uint64) Version {
	return Version{major: major, minor: minor, patch: patch}
}

// Major returns the major number.
func (v Version) Major() uint64 { return v.major }

// Minor returns the minor number.
func (v Version) Minor() uint64 { return v.minor }

// Patch returns the patch number.
func (v Version) Patch() uint64 { return v.patch }

// Prerelease returns the prerelease identifiers without the leading '-',
// or "" for a release.
func (v Version) Prerelease() string { return v.pre }

// Build returns the build metadata without the leading '+', or "".
func (v Version) Build() string { return v.build }

// IsPrerelease reports whether v has a prerelease part.
func (v Version) IsPrerelease() bool { return v.pre != "" }

// Core returns MAJOR.MINOR.PATCH of v: no prerelease, no build, no "v".
// For a prerelease, Core is the release it leads up to (GA(v)).
// The numeric parts after PATCH, if any, are kept.
func (v Version) Core() Version {
	return Version{major: v.major, minor: v.minor, patch: v.patch, more: v.more}
}

// SameCore reports whether v and w have the same MAJOR.MINOR.PATCH (and
// the same numbers after it, a missing one counting as zero).
func (v Version) SameCore(w Version) bool {
	return v.major == w.major && v.minor == w.minor && v.patch == w.patch && (v.more == w.more || compareMore(v.more, w.more) == 0)
}

// Compare returns -1, 0 or +1 as v has lower, equal or higher precedence
// than w, by SemVer 2.0.0 section 11: numbers numerically; a prerelease
// below its release; prerelease identifiers one by one, numeric ones
// numerically, alphanumeric ones in ASCII order, numeric below
// alphanumeric, and a shorter list lower when all earlier identifiers are
// equal. Build metadata and the "v" prefix are ignored. Compare does not
// allocate.
func (v Version) Compare(w Version) int { return compareVersions(&v, &w) }

// compareVersions is Compare on pointers, for the hot paths.
func compareVersions(v, w *Version) int {
	if v.major != w.major {
		return cmp.Compare(v.major, w.major)
	}
	if v.minor != w.minor {
		return cmp.Compare(v.minor, w.minor)
	}
	if v.patch != w.patch {
		return cmp.Compare(v.patch, w.patch)
	}
	if v.more != w.more {
		if d := compareMore(v.more, w.more); d != 0 {
			return d
		}
	}
	return comparePrerelease(v.pre, w.pre)
}

// compareMore compares the numeric parts after PATCH of two versions,
// one by one, a missing part counting as zero. The parts have no leading
// zeros (the parser enforces it), so a longer number is the larger.
func compareMore(a, b string) int {
	for a != "" || b != "" {
		var x, y string
		x, a, _ = strings.Cut(a, ".")
		y, b, _ = strings.Cut(b, ".")
		if x == "" {
			x = "0"
		}
		if y == "" {
			y = "0"
		}
		if len(x) != len(y) {
			return cmp.Compare(len(x), len(y))
		}
		if d := strings.Compare(x, y); d != 0 {
			return d
		}
	}
	return 0
}

// Equal reports whether v and w have equal precedence (build metadata and
// the "v" prefix ignored).
func (v Version) Equal(w Version) bool {
	return v.SameCore(w) && v.pre == w.pre
}

// Less reports whether v has lower precedence than w.
func (v Version) Less(w Version) bool { return v.Compare(w) < 0 }

// String returns the version as written: "v" prefix, prerelease and build
// included.
func (v Version) String() string {
	var b strings.Builder
	b.Grow(24 + len(v.more) + len(v.pre) + len(v.build))
	v.write(&b, true)
	return b.String()
}

// write appends v to b, with or without its build metadata.
func (v Version) write(b *strings.Builder, withBuild bool) {
	if v.vPrefix {
		b.WriteByte('v')
	}
	writeUint(b, v.major)
	b.WriteByte('.')
	writeUint(b, v.minor)
	b.WriteByte('.')
	writeUint(b, v.patch)
	if v.more != "" {
		b.WriteByte('.')
		b.WriteString(v.more)
	}
	if v.pre != "" {
		b.WriteByte('-')
		b.WriteString(v.pre)
	}
	if withBuild && v.build != "" {
		b.WriteByte('+')
		b.WriteString(v.build)
	}
}

// MarshalText implements encoding.TextMarshaler with String.
func (v Version) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseVersion. A
// nil v is an error.
func (v *Version) UnmarshalText(text []byte) error {
	if v == nil {
		return fmt.Errorf("engine: UnmarshalText into a nil *Version")
	}
	w, err := ParseVersion(string(text))
	if err != nil {
		return err
	}
	*v = w
	return nil
}

// ComparePrerelease returns -1, 0 or +1 as the prerelease a has lower,
// equal or higher precedence than b, by SemVer 2.0.0 section 11, where ""
// (a release) is highest: Compare of two versions with the same core.
// The prereleases are written without the '-', as Prerelease returns
// them. Two prereleases the parser accepts have equal precedence only
// when they are the same text; for text it refuses (a numeric identifier
// with a leading zero, an empty identifier) the result is unspecified,
// but there is one. ComparePrerelease does not allocate.
func ComparePrerelease(a, b string) int { return comparePrerelease(a, b) }

// comparePrerelease compares two prerelease strings by SemVer precedence,
// where "" (a release) is highest. It finds the first differing byte, then
// compares only the identifiers that hold it; it does not allocate.
func comparePrerelease(a, b string) int {
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return 1
	case b == "":
		return -1
	}
	n := min(len(a), len(b))
	k := 0
	for k < n && a[k] == b[k] {
		k++
	}
	if k == len(a) && k == len(b) {
		return 0
	}
	// The identifiers that differ start where the common prefix's last
	// identifier starts.
	start := k
	for start > 0 && a[start-1] != '.' {
		start--
	}
	ae, aNum := scanIdentifier(a, start)
	be, bNum := scanIdentifier(b, start)
	x, y := a[start:ae], b[start:be]
	if x == y {
		// Equal identifiers: the list that ends here is the shorter.
		if ae == len(a) {
			return -1
		}
		return 1
	}
	switch {
	case aNum && bNum:
		// No leading zeros (the parser enforces it): the longer number is
		// the larger.
		if len(x) != len(y) {
			return cmp.Compare(len(x), len(y))
		}
		return strings.Compare(x, y)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(x, y)
}

// scanIdentifier returns the end of the identifier of s that starts at i
// and whether it is all digits.
func scanIdentifier(s string, i int) (end int, numeric bool) {
	numeric = true
	for end = i; end < len(s) && s[end] != '.'; end++ {
		if c := s[end]; c < '0' || c > '9' {
			numeric = false
		}
	}
	return end, numeric && end > i
}

func isNumeric(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// writeUint appends n in decimal to b.
func writeUint(b *strings.Builder, n uint64) {
	var buf [20]byte
	b.Write(strconv.AppendUint(buf[:0], n, 10))
}

// ParseError is the error returned for text that is not a valid version or
// constraint. Column is 1-based and counts bytes.
type ParseError struct {
	Kind   string // "version" or "constraint"
	Input  string
	Column int
	Msg    string
}

// maxQuotedInput bounds how much of the input a ParseError's message
// repeats.
const maxQuotedInput = 64

// Error formats the error as `constraint ">= x": column 4: expected ...`.
// An input longer than 64 bytes is shortened to its start and end, with
// its length: `constraint ">= 1111…111x" (1000004 bytes): column 1000004: ...`.
func (e *ParseError) Error() string {
	if len(e.Input) > maxQuotedInput {
		return fmt.Sprintf("%s %q (%d bytes): column %d: %s", e.Kind, elideMiddle(e.Input, maxQuotedInput), len(e.Input), e.Column, e.Msg)
	}
	return fmt.Sprintf("%s %q: column %d: %s", e.Kind, e.Input, e.Column, e.Msg)
}

// CheckParses returns an error unless a parser of the engine reads the
// constraint and each version: ParseConstraint or
// ParseMultipartConstraint, ParseVersion or ParseMultipartVersion. A
// version or a comparator of more than three numeric parts (1.2.3.4),
// which hashicorp/go-version and core-only read, passes, and each policy
// then answers for itself, the SemVer ones invalid. The error, of text
// neither parser reads, is the SemVer parser's.
func CheckParses(constraint string, versions []string) error {
	if _, err := ParseConstraint(constraint); err != nil {
		if _, merr := ParseMultipartConstraint(constraint); merr != nil {
			return err
		}
	}
	for _, v := range versions {
		if _, err := ParseVersion(v); err != nil {
			if _, merr := ParseMultipartVersion(v); merr != nil {
				return err
			}
		}
	}
	return nil
}
