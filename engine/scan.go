package engine

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// scanner reads versions and constraints from src, tracking the byte
// position for errors. Successful scans do not allocate: prerelease and
// build parts are substrings of src.
type scanner struct {
	src  string
	pos  int
	kind string // "version" or "constraint", for errors
	// multipart admits numeric parts after the third.
	multipart bool
}

// errAt is the error for the text at pos. The grammar is ASCII, so when a
// character that is not ASCII stands at pos, the error names it instead
// of what was expected there.
func (p *scanner) errAt(pos int, format string, args ...any) *ParseError {
	kind := p.kind
	if kind == "" {
		kind = "version"
	}
	var msg string
	if pos < len(p.src) && p.src[pos] >= utf8.RuneSelf {
		msg = nonASCII(p.src[pos:])
	} else {
		msg = fmt.Sprintf(format, args...)
	}
	return &ParseError{Kind: kind, Input: p.src, Column: pos + 1, Msg: msg}
}

// maxQuotedPart bounds a part of the input that a parse error's message
// quotes, such as a number too large.
const maxQuotedPart = 40

// quotePart quotes a part of the input for a parse error's message,
// shortened when it is long.
func quotePart(s string) string { return strconv.Quote(elideMiddle(s, maxQuotedPart)) }

// describe names what is found at pos, for "expected X, found Y" messages.
func (p *scanner) describe(pos int) string {
	if pos >= len(p.src) {
		return "end of input"
	}
	end := pos
	for end < len(p.src) && end-pos < 20 && !isSpace(p.src[end]) && p.src[end] != ',' {
		end++
	}
	for end < len(p.src) && end > pos && !utf8.RuneStart(p.src[end]) {
		end++ // the rest of a character that straddles the limit
	}
	if end == pos {
		end = pos + 1
	}
	return strconv.Quote(p.src[pos:end])
}

func (p *scanner) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentChar(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-'
}

// version scans [v]N[.N[.N]][-PRE][+BUILD] at p.pos. With partial set, one
// to three numeric parts are accepted (missing ones are zero); the number of
// parts written is returned either way. With p.multipart set, more numeric
// parts may follow the third (see ParseMultipartVersion).
func (p *scanner) version(partial bool) (Version, int, error) {
	var v Version
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == 'v' {
		v.vPrefix = true
		p.pos++
	}
	if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
		what := "a version"
		if v.vPrefix {
			what = `a number after "v"`
		}
		return v, 0, p.errAt(p.pos, "expected %s, found %s", what, p.describe(p.pos))
	}
	parts := 0
	names := [3]string{"major", "minor", "patch"}
	for {
		n, err := p.number(names[parts])
		if err != nil {
			return v, parts, err
		}
		switch parts {
		case 0:
			v.major = n
		case 1:
			v.minor = n
		case 2:
			v.patch = n
		}
		parts++
		if parts == 3 || p.pos >= len(p.src) || p.src[p.pos] != '.' {
			break
		}
		p.pos++ // '.'
		if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
			return v, parts, p.errAt(p.pos, "expected the %s number after %s, found %s", names[parts], quotePart(p.src[start:p.pos]), p.describe(p.pos))
		}
	}
	if parts == 3 && p.pos < len(p.src) && p.src[p.pos] == '.' {
		if !p.multipart {
			return v, parts, p.errAt(p.pos, "too many numeric parts: at most three (MAJOR.MINOR.PATCH)")
		}
		more, n, err := p.moreParts(start)
		if err != nil {
			return v, parts, err
		}
		v.more, parts = more, parts+n
	}
	if !partial && parts < 3 {
		if p.pos < len(p.src) && p.src[p.pos] != '-' && p.src[p.pos] != '+' {
			return v, parts, p.errAt(p.pos, "expected \".\" and the %s number, found %s", names[parts], p.describe(p.pos))
		}
		return v, parts, p.errAt(p.pos, "expected MAJOR.MINOR.PATCH, found only %s", countOf(parts, "numeric part", "numeric parts"))
	}
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
		pre, err := p.identifiers("prerelease", true)
		if err != nil {
			return v, parts, err
		}
		v.pre = pre
	}
	if p.pos < len(p.src) && p.src[p.pos] == '+' {
		p.pos++
		build, err := p.identifiers("build metadata", false)
		if err != nil {
			return v, parts, err
		}
		v.build = build
	}
	if p.pos < len(p.src) && (isIdentChar(p.src[p.pos]) || p.src[p.pos] == '.') {
		return v, parts, p.errAt(p.pos, "unexpected %s in version; a prerelease starts with \"-\" and build metadata with \"+\"", p.describe(p.pos))
	}
	return v, parts, nil
}

// number scans a decimal number without leading zeros that fits in uint64.
func (p *scanner) number(name string) (uint64, error) {
	start := p.pos
	var n uint64
	for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
		d := uint64(p.src[p.pos] - '0')
		if n > (^uint64(0)-d)/10 {
			return 0, p.errAt(start, "%s number %s is too large (the limit is 18446744073709551615)", name, p.digitsFrom(start))
		}
		n = n*10 + d
		p.pos++
	}
	if p.pos-start > 1 && p.src[start] == '0' {
		return 0, p.errAt(start, "%s number %s has a leading zero", name, quotePart(p.src[start:p.pos]))
	}
	return n, nil
}

func (p *scanner) digitsFrom(start int) string {
	end := start
	for end < len(p.src) && isDigit(p.src[end]) {
		end++
	}
	return quotePart(p.src[start:end])
}

// identifiers scans dot-separated non-empty identifiers of [0-9A-Za-z-].
// With strictNumeric, numeric identifiers must not have leading zeros.
func (p *scanner) identifiers(what string, strictNumeric bool) (string, error) {
	start := p.pos
	for {
		idStart := p.pos
		for p.pos < len(p.src) && isIdentChar(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == idStart {
			return "", p.errAt(p.pos, "expected a %s identifier ([0-9A-Za-z-]), found %s", what, p.describe(p.pos))
		}
		id := p.src[idStart:p.pos]
		if strictNumeric && len(id) > 1 && id[0] == '0' && isNumeric(id) {
			return "", p.errAt(idStart, "numeric %s identifier %s has a leading zero", what, quotePart(id))
		}
		if p.pos >= len(p.src) || p.src[p.pos] != '.' {
			return p.src[start:p.pos], nil
		}
		p.pos++ // '.'
	}
}

// partNames name the numeric parts after the third, for messages.
var partNames = [maxParts]string{3: "fourth", 4: "fifth", 5: "sixth", 6: "seventh", 7: "eighth", 8: "ninth", 9: "tenth",
	10: "eleventh", 11: "twelfth", 12: "thirteenth", 13: "fourteenth", 14: "fifteenth", 15: "sixteenth"}

// maxParts bounds the numeric parts of a version of the multipart
// grammar.
const maxParts = 16

// moreParts scans the numeric parts after the third, each ".N", at p.pos;
// it returns them without the leading '.' and how many there are. start
// is where the version began, for messages.
func (p *scanner) moreParts(start int) (string, int, error) {
	from := p.pos + 1
	n := 0
	for p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++ // '.'
		if p.pos >= len(p.src) || !isDigit(p.src[p.pos]) {
			return "", n, p.errAt(p.pos, "expected a number after %s, found %s", quotePart(p.src[start:p.pos]), p.describe(p.pos))
		}
		if 3+n == maxParts {
			return "", n, p.errAt(p.pos, "too many numeric parts: at most %d", maxParts)
		}
		if _, err := p.number(partNames[3+n]); err != nil {
			return "", n, err
		}
		n++
	}
	return p.src[from:p.pos], n, nil
}
