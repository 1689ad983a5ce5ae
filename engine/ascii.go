package engine

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// nonASCII describes the character that starts s, which is not ASCII, for
// a parse error: versions and constraints are written in ASCII, and a
// character that looks like an ASCII one (a full-width digit, a typographic
// dash, a no-break space) is named with the ASCII to write instead.
func nonASCII(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("invalid UTF-8 byte 0x%02x; versions and constraints are written in ASCII", s[0])
	}
	name, ascii := lookalike(r)
	switch {
	case name != "" && ascii != "":
		return fmt.Sprintf("non-ASCII character %U (%s); write %q instead", r, name, ascii)
	case name != "":
		return fmt.Sprintf("non-ASCII character %U (%s); versions and constraints are written in ASCII", r, name)
	}
	return fmt.Sprintf("non-ASCII character %U (%q); versions and constraints are written in ASCII", r, string(r))
}

// asciiNames are the Unicode names of the ASCII characters whose
// full-width forms (U+FF01 to U+FF5E) are named in full.
var asciiNames = map[rune]string{
	'!': "EXCLAMATION MARK", '+': "PLUS SIGN", ',': "COMMA", '-': "HYPHEN-MINUS",
	'.': "FULL STOP", '<': "LESS-THAN SIGN", '=': "EQUALS SIGN", '>': "GREATER-THAN SIGN",
	'~': "TILDE", ' ': "SPACE",
	'0': "DIGIT ZERO", '1': "DIGIT ONE", '2': "DIGIT TWO", '3': "DIGIT THREE", '4': "DIGIT FOUR",
	'5': "DIGIT FIVE", '6': "DIGIT SIX", '7': "DIGIT SEVEN", '8': "DIGIT EIGHT", '9': "DIGIT NINE",
}

// lookalikes are characters other than the full-width forms that are
// typed or pasted in place of ASCII ones, by Unicode name, with the ASCII
// to write instead ("" for none: remove the character).
var lookalikes = map[rune]struct{ name, ascii string }{
	'\u00a0': {"NO-BREAK SPACE", " "},
	'\u2002': {"EN SPACE", " "},
	'\u2003': {"EM SPACE", " "},
	'\u2009': {"THIN SPACE", " "},
	'\u200a': {"HAIR SPACE", " "},
	'\u202f': {"NARROW NO-BREAK SPACE", " "},
	'\u3000': {"IDEOGRAPHIC SPACE", " "},
	'\u200b': {"ZERO WIDTH SPACE", ""},
	'\ufeff': {"ZERO WIDTH NO-BREAK SPACE, a byte order mark", ""},
	'\u2010': {"HYPHEN", "-"},
	'\u2011': {"NON-BREAKING HYPHEN", "-"},
	'\u2012': {"FIGURE DASH", "-"},
	'\u2013': {"EN DASH", "-"},
	'\u2014': {"EM DASH", "-"},
	'\u2212': {"MINUS SIGN", "-"},
	'\u2024': {"ONE DOT LEADER", "."},
	'\u3002': {"IDEOGRAPHIC FULL STOP", "."},
	'\u2264': {"LESS-THAN OR EQUAL TO", "<="},
	'\u2265': {"GREATER-THAN OR EQUAL TO", ">="},
	'\u2260': {"NOT EQUAL TO", "!="},
	'\u223c': {"TILDE OPERATOR", "~"},
	'\u02dc': {"SMALL TILDE", "~"},
	'\u2018': {"LEFT SINGLE QUOTATION MARK", ""},
	'\u2019': {"RIGHT SINGLE QUOTATION MARK", ""},
	'\u201c': {"LEFT DOUBLE QUOTATION MARK", ""},
	'\u201d': {"RIGHT DOUBLE QUOTATION MARK", ""},
}

// lookalike returns the Unicode name of r and the ASCII it stands for,
// when r is a character known to be written in place of ASCII; the name
// is "" for any other character.
func lookalike(r rune) (name, ascii string) {
	if l, ok := lookalikes[r]; ok {
		return l.name, l.ascii
	}
	if r >= 0xff01 && r <= 0xff5e {
		a := r - 0xfee0
		switch {
		case asciiNames[a] != "":
			name = "FULLWIDTH " + asciiNames[a]
		case a >= 'A' && a <= 'Z':
			name = "FULLWIDTH LATIN CAPITAL LETTER " + string(a)
		case a >= 'a' && a <= 'z':
			name = "FULLWIDTH LATIN SMALL LETTER " + string(a-'a'+'A')
		default:
			name = fmt.Sprintf("the full-width form of %q", string(a))
		}
		return name, string(a)
	}
	if unicode.IsDigit(r) {
		return "a decimal digit outside ASCII", ""
	}
	return "", ""
}
