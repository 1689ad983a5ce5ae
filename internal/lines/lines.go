// Package lines reads the line-oriented inputs of prerel (eval's standard
// input, case files, versions files) the same way everywhere: a line ends
// at "\n" or at the end of the input, exactly one "\r" before its end is
// dropped, and no line may be longer than Max bytes. ReadList reads a
// file of one item a line, such as a versions file.
package lines

import "bytes"

// Max is the longest line prerel reads, without its line ending.
const Max = 1 << 20

// Split is a bufio.SplitFunc for lines ending in "\n", or at the end of
// the input. Unlike bufio.ScanLines it keeps a "\r" before the "\n", so
// that TrimCR drops exactly one.
func Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// TrimCR drops one "\r" from the end of line, if it has one.
func TrimCR(line []byte) []byte { return bytes.TrimSuffix(line, []byte("\r")) }
