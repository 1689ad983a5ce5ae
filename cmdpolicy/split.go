package cmdpolicy

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SplitCommand splits a command line into its words as a POSIX shell does
// the words of a simple command, without running a shell and without
// expanding anything; see the package documentation, "Command lines".
// A line of blanks gives no words and no error.
func SplitCommand(line string) ([]string, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	var words []string
	var err error
	end := 0 // where the last word ends: what lies between words is blanks or a comment
	perr := p.Words(strings.NewReader(line), func(w *syntax.Word) bool {
		if err = noComment(line[end:w.Pos().Offset()]); err != nil {
			return false
		}
		end = int(w.End().Offset())
		var s string
		if s, err = unquote(line, w); err != nil {
			return false
		}
		words = append(words, s)
		return true
	})
	if perr != nil {
		return nil, splitError(perr)
	}
	if err != nil {
		return nil, err
	}
	if err := noComment(line[end:]); err != nil {
		return nil, err
	}
	return words, nil
}

// noComment refuses a comment between words, which a shell would drop
// with the words after it on its line.
func noComment(gap string) error {
	if i := strings.IndexByte(gap, '#'); i >= 0 {
		return fmt.Errorf("%q starts a comment in a shell: quote the # to pass it as a word", strings.TrimSpace(gap[i:]))
	}
	return nil
}

// unquote removes the quotes of a word, and refuses any expansion.
func unquote(line string, w *syntax.Word) (string, error) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			if int(part.End().Offset()) == len(line) && endsInBackslash(part.Value) {
				return "", errors.New("a backslash ends the command")
			}
			unescape(&b, part.Value, func(byte) bool { return true })
		case *syntax.SglQuoted:
			b.WriteString(part.Value)
		case *syntax.DblQuoted:
			for _, in := range part.Parts {
				lit, ok := in.(*syntax.Lit)
				if !ok {
					return "", expansionError(line, in)
				}
				unescape(&b, lit.Value, func(c byte) bool { return strings.IndexByte("$`\"\\\n", c) >= 0 })
			}
		default:
			return "", expansionError(line, part)
		}
	}
	return b.String(), nil
}

// unescape writes s to b with each backslash removed that escapes a byte
// for which escapes is true; a backslash before a line feed is removed
// with it, as a shell joins the lines.
func unescape(b *strings.Builder, s string, escapes func(byte) bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch c := s[i+1]; {
			case c == '\n':
				i++
				continue
			case escapes(c):
				i++
			}
		}
		b.WriteByte(s[i])
	}
}

// endsInBackslash reports whether s ends in a backslash that escapes
// nothing.
func endsInBackslash(s string) bool {
	n := len(s) - len(strings.TrimRight(s, `\`))
	return n%2 == 1
}

// expansionError refuses an expansion ($NAME, ${...}, $(...), `...`,
// $((...))): prerel runs no shell to expand it.
func expansionError(line string, part syntax.Node) error {
	text := line[part.Pos().Offset():part.End().Offset()]
	return fmt.Errorf("%s would be expanded by a shell, and prerel runs none: write the value itself, or put it in single quotes to pass it as it is", text)
}

// splitError says what is wrong with a line the shell parser refuses.
func splitError(err error) error {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		switch {
		case strings.HasSuffix(pe.Text, "without closing quote '"):
			return errors.New("a single quote is not closed")
		case strings.HasSuffix(pe.Text, `without closing quote "`):
			return errors.New("a double quote is not closed")
		case strings.HasSuffix(pe.Text, "is not a valid word"):
			op := strings.TrimSuffix(pe.Text, " is not a valid word")
			return fmt.Errorf("%s at column %d is a shell operator, and prerel runs no shell: quote it to pass it as a word", op, pe.Pos.Col())
		}
		return fmt.Errorf("column %d: %s", pe.Pos.Col(), pe.Text)
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return fmt.Errorf("column %d: %s, which are not in the POSIX shell: quote it to pass it as it is", le.Pos.Col(), le.Feature)
	}
	return err
}
