package updaters

import (
	"fmt"
	"strings"
)

// GemVersion is a version as RubyGems' Gem::Version reads it (RubyGems
// 3.3.15, lib/rubygems/version.rb): "-" becomes ".pre.", and the text is
// cut into segments, runs of digits (numbers) and runs of letters
// (strings).
type GemVersion struct {
	text     string
	segments []gemSegment
	canon    []gemSegment // canonical(), worked out once
	rel      *GemVersion  // release() of a prerelease, worked out once
}

// gemSegment is a number (its digits without leading zeros) or a
// string.
type gemSegment struct {
	s   string
	num bool
}

func (s gemSegment) isZero() bool { return s.num && s.s == "0" }

// ParseGemVersion reads s as Dependabot's Terraform::Version does
// (dependabot-core terraform/lib/dependabot/terraform/version.rb): a
// leading "v" and everything from the first "+" are removed, and the rest
// must be a Gem::Version ([0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?,
// blanks around it allowed); a blank version is 0, as RubyGems reads it.
func ParseGemVersion(s string) (GemVersion, error) {
	t := strings.TrimPrefix(s, "v")
	if i := strings.IndexByte(t, '+'); i >= 0 {
		t = t[:i]
	}
	t = strings.Trim(t, " \t\n\v\f\r")
	if t == "" {
		return newGemVersion("0"), nil // Gem::Version.new("") is 0
	}
	if !gemPattern(t) {
		return GemVersion{}, fmt.Errorf("dependabot: Malformed version number string %q", s)
	}
	return newGemVersion(t), nil
}

func newGemVersion(t string) GemVersion {
	v := GemVersion{text: strings.ReplaceAll(t, "-", ".pre.")}
	s := v.text
	for i := 0; i < len(s); {
		c := s[i]
		j := i
		switch {
		case isDigit(c):
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			d := strings.TrimLeft(s[i:j], "0")
			if d == "" {
				d = "0"
			}
			v.segments = append(v.segments, gemSegment{d, true})
		case isLetter(c):
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			v.segments = append(v.segments, gemSegment{s[i:j], false})
		default:
			j++
		}
		i = j
	}
	v.canon = v.canonical()
	if v.Prerelease() {
		r := gemFromSegments(v.numbers())
		v.rel = &r
	}
	return v
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }

// gemPattern reports whether t is a whole Gem::Version::VERSION_PATTERN:
// [0-9]+(?>\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?
func gemPattern(t string) bool {
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	for i < len(t) && t[i] == '.' && i+1 < len(t) && isAlnum(t[i+1]) {
		i++
		for i < len(t) && isAlnum(t[i]) {
			i++
		}
	}
	if i == len(t) {
		return true
	}
	if t[i] != '-' {
		return false
	}
	// -[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*
	i++
	for {
		j := i
		for j < len(t) && (isAlnum(t[j]) || t[j] == '-') {
			j++
		}
		if j == i {
			return false
		}
		if j == len(t) {
			return true
		}
		if t[j] != '.' {
			return false
		}
		i = j + 1
	}
}

// String returns the version as it was given, without "v" and build.
func (v GemVersion) String() string { return strings.ReplaceAll(v.text, ".pre.", "-") }

// Prerelease reports whether the version has a letter (Gem::Version#prerelease?).
func (v GemVersion) Prerelease() bool {
	for _, s := range v.segments {
		if !s.num {
			return true
		}
	}
	return false
}

// canonical is Gem::Version#canonical_segments: the numeric segments
// before the first string and the rest, each without trailing zeros.
func (v GemVersion) canonical() []gemSegment {
	k := len(v.segments)
	for i, s := range v.segments {
		if !s.num {
			k = i
			break
		}
	}
	trim := func(x []gemSegment) []gemSegment {
		for len(x) > 0 && x[len(x)-1].isZero() {
			x = x[:len(x)-1]
		}
		return x
	}
	out := append([]gemSegment(nil), trim(append([]gemSegment(nil), v.segments[:k]...))...)
	return append(out, trim(append([]gemSegment(nil), v.segments[k:]...))...)
}

// Compare is Gem::Version#<=>: segment by segment, a missing one is 0, a
// string is below a number, numbers numerically, strings by bytes.
func (v GemVersion) Compare(w GemVersion) int {
	a, b := v.canon, w.canon
	n := max(len(a), len(b))
	zero := gemSegment{"0", true}
	for i := 0; i < n; i++ {
		l, r := zero, zero
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		if l == r {
			continue
		}
		switch {
		case !l.num && r.num:
			return -1
		case l.num && !r.num:
			return 1
		case l.num:
			if len(l.s) != len(r.s) {
				return cmpInt(len(l.s), len(r.s))
			}
		}
		return strings.Compare(l.s, r.s)
	}
	return 0
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// numbers returns the segments up to the last string removed
// (Gem::Version#release and #bump drop every string segment and what
// follows it).
func (v GemVersion) numbers() []gemSegment {
	k := len(v.segments)
	for i := len(v.segments) - 1; i >= 0; i-- {
		if !v.segments[i].num {
			k = i
		}
	}
	return append([]gemSegment(nil), v.segments[:k]...)
}

// release is Gem::Version#release.
func (v GemVersion) release() GemVersion {
	if v.rel != nil {
		return *v.rel
	}
	if !v.Prerelease() {
		return v
	}
	return gemFromSegments(v.numbers())
}

// bump is Gem::Version#bump: strings dropped, the last number dropped
// when more than one remain, and the new last one plus one.
func (v GemVersion) bump() GemVersion {
	s := v.numbers()
	if len(s) > 1 {
		s = s[:len(s)-1]
	}
	s[len(s)-1] = gemSegment{succ(s[len(s)-1].s), true}
	return gemFromSegments(s)
}

func gemFromSegments(s []gemSegment) GemVersion {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.s
	}
	return newGemVersion(strings.Join(parts, "."))
}

// succ adds one to a decimal number written as digits.
func succ(d string) string {
	b := []byte(d)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}
