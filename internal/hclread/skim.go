package hclread

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// skim reports whether a native syntax text surely nests at most
// MaxNesting levels deep, reading it once, byte by byte, without HCL's
// lexer (which allocates a token of about a hundred bytes for every few
// bytes of text). It follows HCL's lexer where the nesting depends on it
// (comments, quoted strings and their escapes, heredocs and their end
// markers, template sequences, braces) and feeds the measure the same
// levels, closings and separators the lexer's tokens would; it counts an
// operator wherever one may be, and every opening bracket as an index,
// so that its depth is never below the measure of the lexer's tokens.
// When it meets what it does not follow exactly (an unterminated /*
// comment, a byte that is not UTF-8 in code, a lone carriage return in
// a heredoc, a heredoc introducer with a non-ASCII name) or the depth
// passes MaxNesting, it answers false and the caller measures the
// lexer's tokens, which also place the diagnostic.
func skim(src []byte) bool {
	var s skimmer
	return s.run(src)
}

// mode is the state of HCL's lexer the skimmer follows: code, a quoted
// string or a heredoc.
type mode uint8

const (
	inCode mode = iota
	inQuoted
	inHeredoc
)

// heredocState is an open heredoc: its end marker, and whether the
// skimmer is at the start of one of its lines.
type heredocState struct {
	marker      []byte
	startOfLine bool
}

// skimmer is skim's state, HCL's lexer's own: the modes entered, the
// braces open and the count at which each template sequence ends, the
// heredocs open.
type skimmer struct {
	n         nesting
	modes     []mode
	braces    int
	retBraces []int
	heredocs  []heredocState
}

// maxModes bounds the modes the skimmer keeps: past it, it gives up.
const maxModes = 4 * MaxNesting

// run reads src; see skim.
func (s *skimmer) run(src []byte) bool {
	s.n.start(true)
	s.modes = append(s.modes[:0], inCode)
	for i := 0; i < len(src); {
		var ok bool
		switch s.modes[len(s.modes)-1] {
		case inCode:
			i, ok = s.code(src, i)
		case inQuoted:
			i, ok = s.quoted(src, i)
		default:
			i, ok = s.heredoc(src, i)
		}
		if !ok {
			return false
		}
	}
	return true
}

// emit measures a token of type typ; false when the depth passes
// MaxNesting. Every opening bracket is measured as an index.
func (s *skimmer) emit(typ hclsyntax.TokenType, keyword string) bool {
	s.n.token(typ, hcl.Range{}, hclsyntax.TokenIdent, keyword)
	return s.n.depth <= MaxNesting
}

// enter enters mode m; false when too many are open.
func (s *skimmer) enter(m mode) bool {
	s.modes = append(s.modes, m)
	return len(s.modes) <= maxModes
}

func (s *skimmer) leave() {
	s.modes = s.modes[:len(s.modes)-1]
}

// at reports the byte at src[i], 0 past its end.
func at(src []byte, i int) byte {
	if i < len(src) {
		return src[i]
	}
	return 0
}

// code reads one token of code at src[i] and returns where the next
// starts; false to give up.
func (s *skimmer) code(src []byte, i int) (int, bool) {
	switch b := src[i]; b {
	case '\n':
		return i + 1, s.emit(hclsyntax.TokenNewline, "")
	case '\r':
		if at(src, i+1) == '\n' {
			return i + 2, s.emit(hclsyntax.TokenNewline, "")
		}
	case '#':
		return lineEnd(src, i), true
	case '/':
		switch at(src, i+1) {
		case '/':
			return lineEnd(src, i), true
		case '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return i, false // HCL's lexer reads on as code
			}
			return i + 2 + end + 2, true
		}
		return i + 1, s.emit(hclsyntax.TokenSlash, "")
	case '{':
		s.braces++
		return i + 1, s.emit(hclsyntax.TokenOBrace, "")
	case '}':
		return i + 1, s.closeBrace(false)
	case '~':
		if at(src, i+1) == '}' {
			return i + 2, s.closeBrace(true)
		}
	case '(':
		return i + 1, s.emit(hclsyntax.TokenOParen, "")
	case ')':
		return i + 1, s.emit(hclsyntax.TokenCParen, "")
	case '[':
		return i + 1, s.emit(hclsyntax.TokenOBrack, "")
	case ']':
		return i + 1, s.emit(hclsyntax.TokenCBrack, "")
	case ',':
		return i + 1, s.emit(hclsyntax.TokenComma, "")
	case '"':
		return i + 1, s.emit(hclsyntax.TokenOQuote, "") && s.enter(inQuoted)
	case '<':
		if at(src, i+1) == '<' {
			return s.heredocStart(src, i)
		}
		return i + 1, s.emit(hclsyntax.TokenLessThan, "")
	case '=':
		if at(src, i+1) == '=' {
			return i + 2, s.emit(hclsyntax.TokenEqualOp, "")
		}
	case '+', '-', '*', '%', '!', '?', '>', '&', '|':
		// Some are not operators (a minus sign in a name, a single &),
		// but counting them too never measures less.
		return i + 1, s.emit(hclsyntax.TokenPlus, "")
	default:
		if b >= 0x80 {
			// HCL's lexer may read the bytes after a leading byte that
			// starts no UTF-8 sequence as part of a name, brackets and
			// quotes included.
			n := runeLen(src, i)
			return i + n, n > 0
		}
	}
	return i + 1, true
}

// lineEnd returns where the line comment at src[i] ends, its newline
// included.
func lineEnd(src []byte, i int) int {
	if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
		return i + nl + 1
	}
	return len(src)
}

// closeBrace reads a closing brace, or with tilde set a ~}: the end of
// the template sequence open when its braces are all closed, a brace
// otherwise (and for ~}, an end of sequence that ends none).
func (s *skimmer) closeBrace(tilde bool) bool {
	if n := len(s.retBraces); n > 0 && s.retBraces[n-1] == s.braces {
		s.braces--
		s.retBraces = s.retBraces[:n-1]
		s.leave()
		return s.emit(hclsyntax.TokenTemplateSeqEnd, "")
	}
	s.braces--
	if tilde {
		return s.emit(hclsyntax.TokenTemplateSeqEnd, "")
	}
	return s.emit(hclsyntax.TokenCBrace, "")
}

// heredocStart reads << at src[i]: a heredoc's introducer when a name
// and a newline follow, a less-than sign otherwise.
func (s *skimmer) heredocStart(src []byte, i int) (int, bool) {
	j := i + 2
	if at(src, j) == '-' {
		j++
	}
	k := j
	if b := at(src, k); b == '_' || isLetter(b) {
		for k++; isNameByte(at(src, k)); k++ {
		}
	}
	if at(src, j) >= 0x80 || at(src, k) >= 0x80 {
		return i, false // the name may go on in letters HCL knows
	}
	end := k + 1
	if at(src, k) == '\r' {
		end++
	}
	if k == j || end > len(src) || src[end-1] != '\n' {
		return i + 1, s.emit(hclsyntax.TokenLessThan, "")
	}
	s.heredocs = append(s.heredocs, heredocState{marker: src[j:k], startOfLine: true})
	return end, s.emit(hclsyntax.TokenOHeredoc, "") && s.enter(inHeredoc)
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// isNameByte reports whether b may continue an ASCII identifier.
func isNameByte(b byte) bool { return isLetter(b) || '0' <= b && b <= '9' || b == '_' || b == '-' }

// quoted reads one piece of a quoted string at src[i].
func (s *skimmer) quoted(src []byte, i int) (int, bool) {
	switch b := src[i]; b {
	case '"':
		s.leave()
		return i + 1, s.emit(hclsyntax.TokenCQuote, "")
	case '\\':
		// A backslash escapes the character after it, but not a newline
		// or a byte that does not start one.
		if i+1 < len(src) && src[i+1] < 0x80 && src[i+1] != '\n' && src[i+1] != '\r' {
			return i + 2, true
		}
	case '$', '%':
		return s.dollar(src, i)
	}
	return i + 1, true
}

// dollar reads a $ or % in a template at src[i]: the start of a template
// sequence before a brace, one escaped by doubling ($${, %%{) or a
// literal sign.
func (s *skimmer) dollar(src []byte, i int) (int, bool) {
	b := src[i]
	switch {
	case at(src, i+1) == '{':
		j := i + 2
		if at(src, j) == '~' {
			j++
		}
		typ, keyword := hclsyntax.TokenTemplateInterp, ""
		if b == '%' {
			typ, keyword = hclsyntax.TokenTemplateControl, directiveKeyword(src, j)
		}
		s.braces++
		s.retBraces = append(s.retBraces, s.braces)
		if len(s.heredocs) > 0 {
			s.heredocs[len(s.heredocs)-1].startOfLine = false
		}
		return j, s.emit(typ, keyword) && s.enter(inCode)
	case at(src, i+1) == b && at(src, i+2) == '{':
		return i + 3, true
	}
	return i + 1, true
}

// directiveKeyword returns the keyword of the directive whose words start
// at src[i], as far as the measure needs it: "if" or "for" when the
// first word is or may be one of them, "endif" or "endfor" only when it
// surely is, "" otherwise.
func directiveKeyword(src []byte, i int) string {
	for at(src, i) == ' ' || at(src, i) == '\t' {
		i++
	}
	j := i
	if b := at(src, j); b == '_' || isLetter(b) {
		for j++; isNameByte(at(src, j)); j++ {
		}
	}
	surely := at(src, j) < 0x80 // a non-ASCII letter would go on with the word
	switch string(src[i:j]) {
	case "if":
		return "if"
	case "for":
		return "for"
	case "endif":
		if surely {
			return "endif"
		}
	case "endfor":
		if surely {
			return "endfor"
		}
	}
	return ""
}

// heredoc reads one piece of a heredoc at src[i]: a template sequence, a
// sign, a byte that is not UTF-8, or a run of text up to one of these or
// to the end of its line, which is the heredoc's end when the line is
// its marker.
func (s *skimmer) heredoc(src []byte, i int) (int, bool) {
	h := &s.heredocs[len(s.heredocs)-1]
	switch b := src[i]; {
	case b == '$' || b == '%':
		h.startOfLine = false
		return s.dollar(src, i)
	case b >= 0x80 && runeLen(src, i) == 0:
		return i + 1, true
	}
	j := i
	for j < len(src) {
		b := src[j]
		if b == '$' || b == '%' || b == '\n' || b == '\r' {
			break
		}
		if b >= 0x80 {
			n := runeLen(src, j)
			if n == 0 {
				break
			}
			j += n
			continue
		}
		j++
	}
	end := j + 1
	switch {
	case at(src, j) == '\r' && at(src, j+1) == '\n':
		end++
	case at(src, j) == '\r':
		return i, false // HCL's lexer stops reading
	case j == len(src) || at(src, j) != '\n':
		h.startOfLine = false
		return j, true
	}
	if !h.startOfLine || !bytes.Equal(bytes.TrimSpace(src[i:end]), h.marker) {
		h.startOfLine = true
		return end, true
	}
	s.heredocs = s.heredocs[:len(s.heredocs)-1]
	s.leave()
	return end, s.emit(hclsyntax.TokenCHeredoc, "") && s.emit(hclsyntax.TokenNewline, "")
}

// runeLen returns the length of the UTF-8 sequence at src[i] as HCL's
// lexer takes it (a leading byte and its continuation bytes), 0 when
// there is none.
func runeLen(src []byte, i int) int {
	n := 0
	switch b := src[i]; {
	case b < 0x80:
		return 1
	case 0xC0 <= b && b <= 0xDF:
		n = 2
	case 0xE0 <= b && b <= 0xEF:
		n = 3
	case 0xF0 <= b && b <= 0xF7:
		n = 4
	default:
		return 0
	}
	if i+n > len(src) {
		return 0
	}
	for _, c := range src[i+1 : i+n] {
		if c < 0x80 || c > 0xBF {
			return 0
		}
	}
	return n
}
