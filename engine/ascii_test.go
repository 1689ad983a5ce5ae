package engine

import (
	"errors"
	"strings"
	"testing"
)

// TestParseErrorNamesNonASCII checks that a character that is not ASCII is
// named, with its code point and the column where it stands, instead of an
// error about what was expected there.
func TestParseErrorNamesNonASCII(t *testing.T) {
	tests := []struct {
		kind, in string
		column   int
		msg      string
	}{
		{"constraint", "１.０", 1, `non-ASCII character U+FF11 (FULLWIDTH DIGIT ONE); write "1" instead`},
		{"version", "１.０.０", 1, `non-ASCII character U+FF11 (FULLWIDTH DIGIT ONE); write "1" instead`},
		{"constraint", ">= １.0", 4, "non-ASCII character U+FF11 (FULLWIDTH DIGIT ONE)"},
		{"version", "1.０.0", 3, "non-ASCII character U+FF10 (FULLWIDTH DIGIT ZERO)"},
		{"version", "1．0.0", 2, `non-ASCII character U+FF0E (FULLWIDTH FULL STOP); write "." instead`},
		{"constraint", "＞= 1.0", 1, `U+FF1E (FULLWIDTH GREATER-THAN SIGN); write ">" instead`},
		{"constraint", ">=\u00a01.0", 3, `non-ASCII character U+00A0 (NO-BREAK SPACE); write " " instead`},
		{"constraint", "≥ 1.0", 1, `non-ASCII character U+2265 (GREATER-THAN OR EQUAL TO); write ">=" instead`},
		{"constraint", ">= 1.0 – 2.0", 8, "non-ASCII character U+2013 (EN DASH)"},
		{"version", "1.0.0-bé", 8, `non-ASCII character U+00E9 ("é")`},
		{"version", "1.0.0-ｂeta", 7, "U+FF42 (FULLWIDTH LATIN SMALL LETTER B)"},
		{"version", "\ufeff1.0.0", 1, "U+FEFF (ZERO WIDTH NO-BREAK SPACE, a byte order mark)"},
		{"version", "١.0.0", 1, "U+0661 (a decimal digit outside ASCII)"},
		{"version", "1.0.0\xff", 6, "invalid UTF-8 byte 0xff"},
	}
	for _, tt := range tests {
		var err error
		if tt.kind == "constraint" {
			_, err = ParseConstraint(tt.in)
		} else {
			_, err = ParseVersion(tt.in)
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s %q: error %v, want a *ParseError", tt.kind, tt.in, err)
			continue
		}
		if pe.Column != tt.column || !strings.Contains(pe.Msg, tt.msg) || pe.Kind != tt.kind {
			t.Errorf("%s %q: %v; want column %d and %q", tt.kind, tt.in, err, tt.column, tt.msg)
		}
	}
}

// TestParseErrorClipsLongInput checks that the message of a parse error
// stays short however long the input and the part it quotes.
func TestParseErrorClipsLongInput(t *testing.T) {
	const n = 1000000
	digits := strings.Repeat("1", n)
	tests := []struct {
		kind, in string
		column   int
		msg      string
	}{
		{"constraint", ">= 1.0.0" + strings.Repeat(", >= 1.0.0", n/10) + " x", n + 10, `expected "," between comparators`},
		{"constraint", ">= " + digits, 4, "major number"},
		{"version", "0" + digits + ".0.0", 1, "is too large"},
		{"version", "1." + digits + "x", 3, "minor number"},
		{"version", "1.0.0-0" + digits, 7, "has a leading zero"},
		{"version", "1.0" + strings.Repeat("1", 30) + ".", 3, "minor number"},
	}
	for _, tt := range tests {
		var err error
		if tt.kind == "constraint" {
			_, err = ParseConstraint(tt.in)
		} else {
			_, err = ParseVersion(tt.in)
		}
		if err == nil {
			t.Errorf("%s of %d bytes: no error", tt.kind, len(tt.in))
			continue
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.Contains(msg, tt.msg) {
			t.Errorf("%s of %d bytes: a message of %d bytes, want at most 400 with %q: %.500s", tt.kind, len(tt.in), len(msg), tt.msg, msg)
		}
		if len(tt.in) > maxQuotedInput && !strings.Contains(msg, "bytes): column") {
			t.Errorf("%s of %d bytes: the message does not give the length: %.500s", tt.kind, len(tt.in), msg)
		}
	}
}

// TestReasonsAreClipped checks that a reason repeating a long input is
// shortened in results and reports.
func TestReasonsAreClipped(t *testing.T) {
	long := "refused: " + strings.Repeat("x", 1<<20) + " (the end)"
	r := InvalidResult(errors.New(long))
	if len(r.Reason) > MaxReason+len("…") || !strings.HasPrefix(r.Reason, "refused: ") || !strings.HasSuffix(r.Reason, "(the end)") {
		t.Errorf("InvalidResult: a reason of %d bytes: %.100q...", len(r.Reason), r.Reason)
	}
	if got := ClipReason("short"); got != "short" {
		t.Errorf("ClipReason(short) = %q", got)
	}
}
