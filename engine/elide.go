package engine

import (
	"strconv"
	"unicode/utf8"
)

// The engine stands on the standard library alone, so it keeps its own
// copies of the two small text helpers its messages need.

// elision stands for the text elideMiddle leaves out.
const elision = "…"

// elideMiddle returns s when it is at most n bytes long, and otherwise its
// start and its end joined by elision: two thirds of n from the start and
// a third from the end, each cut at a character boundary.
func elideMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	head := runeStartAtOrBefore(s, n-n/3)
	tail := runeStartAtOrAfter(s, len(s)-n/3)
	return s[:head] + elision + s[tail:]
}

// runeStartAtOrBefore moves i back to the start of the character it falls in.
func runeStartAtOrBefore(s string, i int) int {
	for j := i; j >= 0 && i-j < utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// runeStartAtOrAfter moves i forward to the start of the next character
// when it falls inside one.
func runeStartAtOrAfter(s string, i int) int {
	for j := i; j-i < utf8.UTFMax; j++ {
		if j == len(s) || utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// countOf returns n followed by one when n is 1 and by many otherwise:
// countOf(2, "numeric part", "numeric parts") is "2 numeric parts".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
