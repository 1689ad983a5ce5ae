// Package elide shortens text that comes from outside prerel (constraints,
// versions, input lines, library messages that repeat them) before it goes
// into a message, so that a long input cannot make every message about it
// as long as itself.
package elide

import "unicode/utf8"

// Mark stands for the text left out.
const Mark = "…"

// Head returns s when it is at most n bytes long, and otherwise its first
// bytes, at most n and cut at a character boundary, followed by Mark.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:cutBefore(s, max(n, 0))] + Mark
}

// Middle returns s when it is at most n bytes long, and otherwise its
// start and its end joined by Mark: two thirds of n from the start and a
// third from the end, each cut at a character boundary, so that the
// result is at most n bytes and Mark long.
func Middle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	head := cutBefore(s, n-n/3)
	tail := cutAfter(s, len(s)-n/3)
	return s[:head] + Mark + s[tail:]
}

// cutBefore moves i back to the start of the character it falls in.
func cutBefore(s string, i int) int {
	for j := i; j >= 0 && i-j < utf8.UTFMax; j-- {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}

// cutAfter moves i forward to the start of the next character when it
// falls inside one.
func cutAfter(s string, i int) int {
	for j := i; j-i < utf8.UTFMax; j++ {
		if j == len(s) || utf8.RuneStart(s[j]) {
			return j
		}
	}
	return i
}
