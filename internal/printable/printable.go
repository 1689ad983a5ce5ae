// Package printable makes text that comes from outside prerel (registry
// answers, configuration labels, HTTP status lines, arguments) safe to
// print on a terminal: control characters are written as Go escapes, so
// that no escape sequence can clear the screen, recolour it or move the
// cursor, and no bidirectional override can reorder what is read.
package printable

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character that is not safe to print
// escaped as Go writes it in a quoted string: "\x1b", "\n", "\t",
// "\u202e". Invalid UTF-8 bytes become "\xff". A backslash is left as it
// is, so that ordinary text (paths, regular expressions) reads unchanged;
// s is returned as it is when nothing needs escaping.
func String(s string) string {
	if Safe(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case unsafeRune(r):
			q := strconv.QuoteRune(r) // "'\x1b'"
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Safe reports whether s prints as it is: valid UTF-8 with no control,
// format or bidirectional-override character.
func Safe(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports whether r must not reach a terminal as it is: a C0
// or C1 control (tab and line breaks included), DEL, or a Unicode format
// character such as a bidirectional override or a zero-width joiner.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// Lines is String for a message of several lines: each line escaped,
// its line breaks and its tabs kept.
func Lines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, line := range lines {
		fields := strings.Split(line, "\t")
		for j, f := range fields {
			fields[j] = String(f)
		}
		lines[i] = strings.Join(fields, "\t")
	}
	return strings.Join(lines, "\n")
}
