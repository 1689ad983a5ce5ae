// Package plural writes a count with its noun: "1 class", "2 classes".
package plural

import "strconv"

// Of returns n followed by one when n is 1 and by many otherwise:
// Of(1, "class", "classes") is "1 class", Of(0, "class", "classes") is
// "0 classes".
func Of[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(int64(n), 10) + " " + many
}
